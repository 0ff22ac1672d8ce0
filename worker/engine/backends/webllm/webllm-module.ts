/** The entry of the prebuilt `webllm.js` (scripts/build/engine-worker.mjs): WebLLM, as one ES module. */
export * from '@mlc-ai/web-llm';

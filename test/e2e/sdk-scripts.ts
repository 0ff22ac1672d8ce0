/**
 * The real client SDKs as browser scripts for the test pages, each bundled by esbuild on first
 * use and cached for the run, so a spec pays only for the SDKs it loads:
 * - `openai`: the official SDK and `eventsource-parser` (`window.OpenAI`, `window.createParser`);
 * - `ai-sdk`: the Vercel AI SDK with its OpenAI provider (`window.AISDK`);
 * - `langchain`: `@langchain/openai`'s `ChatOpenAI` and `@langchain/core`'s messages (`window.LangChain`);
 * - `llamaindex`: `@llamaindex/openai`'s `OpenAI` and `OpenAIResponses` (`window.LlamaIndex`);
 * - `anthropic`: the official Anthropic SDK (`window.Anthropic`);
 * - `ai-sdk-anthropic`: the Vercel AI SDK with its Anthropic provider (`window.AISDKAnthropic`).
 */
import { build } from 'esbuild';
import type { Page } from 'playwright';

const ENTRIES = {
  openai: `import OpenAI from 'openai'; import { createParser } from 'eventsource-parser';
    globalThis.OpenAI = OpenAI; globalThis.createParser = createParser;`,
  'ai-sdk': `import { embed, generateText, streamText, jsonSchema, tool, Output } from 'ai'; import { createOpenAI } from '@ai-sdk/openai';
    globalThis.AISDK = { embed, generateText, streamText, jsonSchema, tool, Output, createOpenAI };`,
  langchain: `import { ChatOpenAI } from '@langchain/openai';
    import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
    globalThis.LangChain = { ChatOpenAI, AIMessage, HumanMessage, SystemMessage, ToolMessage };`,
  llamaindex: `import { OpenAI, OpenAIResponses } from '@llamaindex/openai'; globalThis.LlamaIndex = { OpenAI, OpenAIResponses };`,
  anthropic: `import Anthropic from '@anthropic-ai/sdk'; globalThis.Anthropic = Anthropic;`,
  'ai-sdk-anthropic': `import { generateText, streamText, jsonSchema, tool } from 'ai'; import { createAnthropic } from '@ai-sdk/anthropic';
    globalThis.AISDKAnthropic = { generateText, streamText, jsonSchema, tool, createAnthropic };`,
} as const;

export type SdkName = keyof typeof ENTRIES;

const bundles = new Map<SdkName, Promise<string>>();

/** The browser script (an IIFE) that puts `sdk` on `window`. */
export function sdkScript(sdk: SdkName): Promise<string> {
  let bundle = bundles.get(sdk);
  if (bundle === undefined) {
    bundle = build({
      stdin: { contents: ENTRIES[sdk], resolveDir: process.cwd(), loader: 'js' },
      bundle: true,
      format: 'iife',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]?.text ?? '');
    bundles.set(sdk, bundle);
  }
  return bundle;
}

/** Adds `sdk`'s script to `page`. */
export async function loadSdk(page: Page, sdk: SdkName): Promise<void> {
  await page.addScriptTag({ content: await sdkScript(sdk) });
}

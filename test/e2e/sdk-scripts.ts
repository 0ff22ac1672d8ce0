/**
 * The real client SDKs as browser scripts for the test pages, each bundled by esbuild on first
 * use and cached on disk (under node_modules/.cache, keyed by the entry and package-lock.json),
 * so a spec pays only for the SDKs it loads, and only the first spec of a run builds them:
 * - `openai`: the official SDK and `eventsource-parser` (`window.OpenAI`, `window.createParser`);
 * - `ai-sdk`: the Vercel AI SDK with its OpenAI provider (`window.AISDK`);
 * - `langchain`: `@langchain/openai`'s `ChatOpenAI` and `@langchain/core`'s messages (`window.LangChain`);
 * - `llamaindex`: `@llamaindex/openai`'s `OpenAI` and `OpenAIResponses` (`window.LlamaIndex`);
 * - `anthropic`: the official Anthropic SDK (`window.Anthropic`);
 * - `ai-sdk-anthropic`: the Vercel AI SDK with its Anthropic provider (`window.AISDKAnthropic`);
 * - `ai-sdk-cohere`: the Vercel AI SDK's `rerank` with its Cohere provider (`window.AISDKCohere`).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  'ai-sdk-cohere': `import { rerank } from 'ai'; import { createCohere } from '@ai-sdk/cohere';
    globalThis.AISDKCohere = { rerank, createCohere };`,
} as const;

export type SdkName = keyof typeof ENTRIES;

const bundles = new Map<SdkName, Promise<string>>();

/** Where bundles are kept between spec files (each runs in its own process), keyed by the lockfile. */
const CACHE_DIR = 'node_modules/.cache/inpage-llm-e2e-sdks';

/** The browser script (an IIFE) that puts `sdk` on `window`. */
export function sdkScript(sdk: SdkName): Promise<string> {
  let bundle = bundles.get(sdk);
  if (bundle === undefined) {
    bundle = cachedBundle(sdk);
    bundles.set(sdk, bundle);
  }
  return bundle;
}

/** `sdk`'s bundle from the disk cache, or built (and kept) when the entry or the lockfile changed. */
async function cachedBundle(sdk: SdkName): Promise<string> {
  const key = createHash('sha256')
    .update(ENTRIES[sdk])
    .update(await readFile('package-lock.json'))
    .digest('hex')
    .slice(0, 16);
  const path = join(CACHE_DIR, `${sdk}-${key}.js`);
  const cached = await readFile(path, 'utf8').catch(() => null);
  if (cached !== null) return cached;
  const result = await build({
    stdin: { contents: ENTRIES[sdk], resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]?.text ?? '';
  await mkdir(CACHE_DIR, { recursive: true });
  await writeFile(`${path}.${process.pid}`, text);
  await rename(`${path}.${process.pid}`, path);
  return text;
}

/** Adds `sdk`'s script to `page`. */
export async function loadSdk(page: Page, sdk: SdkName): Promise<void> {
  await page.addScriptTag({ content: await sdkScript(sdk) });
}

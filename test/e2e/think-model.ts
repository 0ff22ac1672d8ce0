/**
 * `inpage-test-qwen3-think` for a reasoning-budget spec: built, placed for llama-server, written
 * under `dist/<folder>/` for the page, and loaded there; what to remove afterwards.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Page } from 'playwright';
import { loadQwen3Tokenizer } from '../../scripts/load-qwen3-tokenizer';
import { buildInpageTestQwen3ThinkModel, INPAGE_TEST_QWEN3_THINK_MODEL_ID } from '../fixtures/inpage-test-qwen3-think';
import { placeModel } from './llama-server';

/** The model's name for llama-server (`startLlamaServer({ model })`). */
export const THINK_MODEL = INPAGE_TEST_QWEN3_THINK_MODEL_ID;

/** Places the model for llama-server and loads it in `page` from `dist/<folder>/`; its id there. */
export async function loadThinkModel(page: Page, folder: string): Promise<string> {
  const file = buildInpageTestQwen3ThinkModel(await loadQwen3Tokenizer());
  placeModel(THINK_MODEL, file);
  await mkdir(`dist/${folder}`, { recursive: true });
  await writeFile(`dist/${folder}/${THINK_MODEL}.gguf`, file);
  return (await page.evaluate((url) => window.inpage.load(url), `/${folder}/${THINK_MODEL}.gguf`)).id;
}

/** Removes the page's copy. */
export const removeThinkModel = (folder: string) => rm(`dist/${folder}`, { recursive: true, force: true });

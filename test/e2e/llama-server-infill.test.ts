/**
 * llama.cpp server's `/props`, `/slots` and `/infill` beside the route prefix, on `inpage-test`
 * (no FIM tokens: `/infill` is a 400 naming the endpoint), its FIM variant (after
 * `<|fim_middle|>` it writes `m`, `n`, ...) and `inpage-test-qwen3` (Qwen3's FIM and repo-level
 * tokens; greedy decoding writes its chain after any non-chain token).
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { INPAGE_TEST_QWEN3_CHAIN, INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const DIR = 'dist/test-fim-infill';
const fixture = usePage();

const post = (path: string, body: unknown) => postFromPage(fixture.page, path, body);
const get = (path: string) =>
  fixture.page.evaluate(async (path) => {
    const response = await fetch(path);
    return { status: response.status, body: (await response.json()) as unknown };
  }, path);

interface InfillAnswer {
  content: string;
  tokens: number[];
  stop: boolean;
  stop_type: string;
  stopping_word: string;
  tokens_predicted: number;
  tokens_evaluated: number;
  generation_settings: { temperature: number; n_predict: number };
}

/** The `data:` frames of a streamed answer, parsed (llama-server sends no `[DONE]`). */
function frames(text: unknown): Array<Record<string, unknown>> {
  assert.equal(typeof text, 'string');
  return String(text)
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);
}

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/inpage-test-fim.gguf`, buildInpageTestModel({ fim: true }));
});
after(() => rm(DIR, { recursive: true, force: true }));

describe('/props and /slots on inpage-test', () => {
  test("the fields llama-server's clients read, for the loaded model", async () => {
    const { status, body } = await get('/props');
    assert.equal(status, 200);
    const props = body as Record<string, unknown> & {
      default_generation_settings: { n_ctx: number; params: Record<string, unknown> };
    };
    assert.equal(props.total_slots, 1);
    assert.equal(props.model_path, 'inpage-test');
    assert.deepEqual(props.modalities, { vision: false, video: false, audio: false });
    assert.equal(props.chat_template, '{% for message in messages %}{{ message.content }}{% endfor %}');
    assert.equal(props.kv_cache_type, 'f32');
    assert.ok(props.default_generation_settings.n_ctx > 0);
    assert.equal(props.default_generation_settings.params.temperature, 1);
    assert.equal(props.default_generation_settings.params.n_predict, -1);
    assert.equal(props.default_generation_settings.params.seed, 4294967295);
    const named = await get('/props?model=inpage-test');
    assert.deepEqual(named.body, body);
    const slots = await get('/slots');
    assert.deepEqual(slots, {
      status: 200,
      body: [
        {
          id: 0,
          n_ctx: props.default_generation_settings.n_ctx,
          speculative: false,
          is_processing: false,
          model: 'inpage-test',
        },
      ],
    });
  });

  test("/infill on a model without FIM tokens is a 400 naming /infill; bad input is a 400 in llama-server's shape", async () => {
    const none = await post('/infill', { input_prefix: 'ab', input_suffix: 'yz' });
    assert.equal(none.status, 400);
    assert.match((none.body as { error: { message: string } }).error.message, /\/infill is not supported/);
    const missing = await post('/infill', { input_prefix: 'ab' });
    assert.deepEqual([missing.status, (missing.body as { error: { code: number } }).error.code], [400, 400]);
    assert.match((missing.body as { error: { message: string } }).error.message, /input_suffix/);
    const extra = await post('/infill', { input_prefix: 'a', input_suffix: 'b', input_extra: [{ filename: 'f' }] });
    assert.equal(extra.status, 400);
    assert.match((extra.body as { error: { message: string } }).error.message, /input_extra\[0\]\.text/);
    const notArray = await post('/infill', { input_prefix: 'a', input_suffix: 'b', input_extra: 'x' });
    assert.equal(notArray.status, 400);
    const type = await post('/infill', { input_prefix: 5, input_suffix: 'b' });
    assert.equal(type.status, 400);
    assert.match((type.body as { error: { message: string } }).error.message, /input_prefix/);
    const json = await post('/infill', 'nope');
    assert.equal(json.status, 400);
    const method = await get('/infill');
    assert.equal(method.status, 405);
    const setProps = await post('/props', {});
    assert.equal(setProps.status, 405);
  });
});

describe('/infill on the FIM variant of inpage-test', () => {
  before(() => fixture.page.evaluate((url) => window.inpage.load(url), `/${DIR.slice(5)}/inpage-test-fim.gguf`));

  test('prefix-suffix-middle: after <|fim_middle|> it writes m, n, o; the prompt follows the prefix', async () => {
    const body = { model: 'inpage-test-fim', input_prefix: 'ab', input_suffix: 'yz', n_predict: 3, temperature: 0 };
    const whole = await post('/infill', { ...body, return_tokens: true });
    assert.equal(whole.status, 200);
    const answer = whole.body as InfillAnswer;
    assert.equal(answer.content, 'mno');
    assert.deepEqual(answer.tokens, [0x6d, 0x6e, 0x6f]);
    assert.deepEqual([answer.stop, answer.stop_type, answer.tokens_predicted], [true, 'limit', 3]);
    // PRE a b SUF y z MID: no repo-level tokens in this vocabulary, no input_extra.
    assert.equal(answer.tokens_evaluated, 7);
    assert.equal(answer.generation_settings.temperature, 0);
    assert.equal(answer.generation_settings.n_predict, 3);
    // `prompt` goes after the prefix: 2 more tokens; a file without a file separator adds a snippet marker.
    const prompted = (await post('/infill', { ...body, prompt: 'cd' })).body as InfillAnswer;
    assert.deepEqual([prompted.content, prompted.tokens_evaluated], ['mno', 9]);
    const extra = await post('/infill', { ...body, input_extra: [{ filename: 'a.txt', text: 'xyz' }] });
    assert.equal((extra.body as InfillAnswer).tokens_evaluated, 7 + '\n\n--- snippet ---\n\n'.length + 3);
    const streamed = frames((await post('/infill', { ...body, stream: true })).body);
    assert.deepEqual(
      streamed.slice(0, -1).map((frame) => [frame.content, frame.tokens, frame.stop, frame.tokens_predicted]),
      [
        ['m', [0x6d], false, 1],
        ['n', [0x6e], false, 2],
        ['o', [0x6f], false, 3],
      ],
    );
    const last = streamed.at(-1) as unknown as InfillAnswer;
    assert.deepEqual([last.content, last.stop, last.stop_type, last.tokens_predicted], ['', true, 'limit', 3]);
    const stopped = (await post('/infill', { ...body, n_predict: 10, stop: ['o'] })).body as InfillAnswer;
    assert.deepEqual([stopped.content, stopped.stop_type, stopped.stopping_word], ['mn', 'word', 'o']);
  });
});

describe('/props, /slots and /infill on inpage-test-qwen3', () => {
  before(() => fixture.page.evaluate(() => window.inpage.load('/models/inpage-test-qwen3.gguf')));

  test("Qwen3's template and tokens in /props; /infill writes the chain after the repo-level layout", async () => {
    const props = (await get('/props?model=inpage-test-qwen3')).body as Record<string, unknown>;
    assert.match(String(props.chat_template), /^\{%- if tools %\}/);
    assert.deepEqual([props.bos_token, props.eos_token], ['<|endoftext|>', '<|im_end|>']);
    const slots = (await get('/slots')).body as Array<{ model: string }>;
    assert.ok(slots.some((slot) => slot.model === 'inpage-test-qwen3'));
    const body = { model: 'inpage-test-qwen3', input_prefix: 'ab', input_suffix: 'yz', temperature: 0 };
    const whole = (await post('/infill', { ...body, return_tokens: true })).body as InfillAnswer;
    assert.equal(whole.content, INPAGE_TEST_QWEN3_CHAIN_TEXT);
    // The chain's 12 tokens and <|im_end|>, which ends it (counted, as llama-server counts it).
    assert.deepEqual(whole.tokens, [...INPAGE_TEST_QWEN3_CHAIN, 151645]);
    assert.deepEqual([whole.stop_type, whole.tokens_predicted, whole.tokens_evaluated], ['eos', 13, 12]);
    const extra = (
      await post('/infill', { ...body, input_extra: [{ filename: 'a.py', text: 'x = 1\n' }], prompt: 'q' })
    ).body as InfillAnswer;
    assert.equal(extra.content, INPAGE_TEST_QWEN3_CHAIN_TEXT);
    assert.equal(extra.tokens_evaluated, 22);
    // n_predict 0 reads the whole prompt (into the cache) and generates nothing (llama-server: one token).
    const warm = (await post('/infill', { ...body, n_predict: 0 })).body as InfillAnswer;
    assert.deepEqual([warm.content, warm.tokens_predicted, warm.tokens_evaluated], ['', 0, 12]);
    const streamed = frames((await post('/infill', { ...body, stream: true, n_predict: 3 })).body);
    assert.deepEqual(
      streamed.slice(0, -1).map((frame) => frame.content),
      ['Hello', ',', ' world'],
    );
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../../src/core/domain/errors';
import { responseMeta } from '../../../../../../worker/sw/routes/responses/response-object';
import {
  ResponseStream,
  responseSseFrame,
  type ResponseEvent,
} from '../../../../../../worker/sw/routes/responses/response-stream';
import { validateResponses } from '../../../../../../worker/sw/routes/responses/validate-responses';
import type { GenerationEvent } from '../../../../../../worker/sw/conversation/neutral-types';

const base = { model: 'm', input: 'abc' };
function rejection(body: unknown): InvalidRequestError {
  try {
    validateResponses(body);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
  }
  throw new Error('expected a 400');
}

describe('validateResponses', () => {
  it('maps input, instructions and options onto a chat request', () => {
    const r = validateResponses({
      ...base,
      instructions: 'be brief',
      max_output_tokens: 9,
      temperature: 0.5,
      store: true,
      metadata: { a: 'b' },
      reasoning: { effort: 'low' },
    });
    expect(r.chat.messages).toStrictEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'abc' },
    ]);
    expect(r.chat).toMatchObject({ max_tokens: 9, temperature: 0.5, reasoning_effort: 'low' });
    expect(r).toMatchObject({ instructions: 'be brief', max_output_tokens: 9, metadata: { a: 'b' } });
  });

  it('converts message, function_call and function_call_output items', () => {
    const input = [
      { role: 'user', content: [{ type: 'input_text', text: 'w?' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me check.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: '20C' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
    ];
    const tools = [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: true }];
    const r = validateResponses({
      ...base,
      input,
      tools,
      tool_choice: { type: 'function', name: 'f' },
    });
    expect(r.chat.messages).toStrictEqual([
      { role: 'user', content: 'w?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '20C' },
    ]);
    expect(r.chat.tools).toStrictEqual([
      { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} }, strict: true } },
    ]);
    expect(r.chat.tool_choice).toStrictEqual({ type: 'function', function: { name: 'f' } });
    expect(r.chat.grammar).toMatchObject({ param: 'tools' });
    const format = { format: { type: 'json_schema', name: 'o', schema: { type: 'object' } } };
    expect(validateResponses({ ...base, input, text: format }).chat.response_format).toStrictEqual({
      type: 'json_schema',
      json_schema: { name: 'o', schema: { type: 'object' } },
    });
    // One grammar per request: strict tools and text.format together are a 400.
    expect(() => validateResponses({ ...base, input, tools, text: format })).toThrow(/strict function tools/);
    const bad = [{ ...tools[0], parameters: { type: 'object', not: {} } }];
    expect(() => validateResponses({ ...base, input, tools: bad })).toThrow(
      expect.objectContaining({ param: 'tools[0].parameters' }),
    );
  });

  it("accepts what clients send that cannot change the text (the AI SDK's provider options), type-checked", () => {
    const advisory = {
      store: false,
      service_tier: 'auto',
      prompt_cache_key: 'k',
      prompt_cache_retention: '24h',
      safety_identifier: 's',
      text: { verbosity: 'low' },
    };
    expect(validateResponses({ ...base, ...advisory }).chat).toStrictEqual(validateResponses(base).chat);
    expect(rejection({ ...base, service_tier: 1 }).param).toBe('service_tier');
    expect(rejection({ ...base, safety_identifier: {} }).param).toBe('safety_identifier');
  });

  it('is stateless: previous_response_id and item_reference are 400s', () => {
    expect(rejection({ ...base, previous_response_id: 'resp_1' }).code).toBe('stateless_endpoint');
    expect(rejection({ ...base, input: [{ type: 'item_reference', id: 'msg_1' }] }).code).toBe('stateless_endpoint');
  });

  it('names bad fields', () => {
    expect(
      rejection({ ...base, input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'x' }] }] }).param,
    ).toBe('input[0].content[0]');
    expect(rejection({ ...base, tools: [{ type: 'web_search' }] }).param).toBe('tools[0]');
    expect(rejection({ ...base, tool_choice: { type: 'function', name: 'g' } }).param).toBe('tool_choice');
    expect(rejection({ ...base, max_output_tokens: 0 }).param).toBe('max_output_tokens');
    expect(rejection({ ...base, frob: 1 }).message).toBe('Unrecognized request argument supplied: frob');
    expect(rejection({ ...base, store: 'yes' }).param).toBe('store');
    expect(rejection({ model: 'm' }).param).toBe('input');
  });

  it('reads include: output text logprobs with top_logprobs; other known values add nothing; unknown ones are a 400', () => {
    const include = ['message.output_text.logprobs'];
    expect(validateResponses({ ...base, include, top_logprobs: 2 }).chat).toMatchObject({
      logprobs: true,
      top_logprobs: 2,
    });
    expect(validateResponses({ ...base, include: ['reasoning.encrypted_content'] }).chat.logprobs).toBe(false);
    expect(rejection({ ...base, include: ['message.output_text.logprob'] }).param).toBe('include');
    expect(rejection({ ...base, include: 'message.output_text.logprobs' }).param).toBe('include');
    expect(rejection({ ...base, top_logprobs: 2 }).param).toBe('top_logprobs');
    expect(rejection({ ...base, include, top_logprobs: 21 }).param).toBe('top_logprobs');
  });
});

const piece = (text: string): GenerationEvent => ({ type: 'generation.piece', index: 0, text, tokens: null });
const counts = { prompt: 4, completion: 2, cached: 0 };

function run(events: GenerationEvent[], body: Record<string, unknown> = base) {
  const request = validateResponses(body);
  const stream = new ResponseStream(responseMeta(request, 7000), {
    reasoning: true,
    startInReasoning: false,
    tools: request.chat.tools.length > 0,
    newId: () => 'call_x',
  });
  const out: ResponseEvent[] = [...stream.start(), ...events.flatMap((e) => stream.accept(e))];
  return { out, final: stream.final() };
}

describe('ResponseStream', () => {
  it('emits the text event sequence with sequence numbers and a completed response', () => {
    const { out, final } = run([
      piece('Hel'),
      piece('lo'),
      { type: 'generation.choice-end', index: 0, finish_reason: 'stop', matched_stop: null },
      { type: 'generation.done', counts },
    ]);
    expect(out.map((e) => e.type)).toStrictEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(out.map((e) => e.sequence_number)).toStrictEqual([...out.keys()]);
    expect(out[0]).toMatchObject({
      response: { object: 'response', status: 'in_progress', output: [], created_at: 7 },
    });
    expect(final).toMatchObject({
      object: 'response',
      status: 'completed',
      store: false,
      model: 'm',
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello', annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 4,
        output_tokens: 2,
        total_tokens: 6,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(final?.id).toMatch(/^resp_/);
    expect(responseSseFrame(out[4] as ResponseEvent)).toMatch(
      /^event: response.output_text.delta\ndata: \{"type":"response.output_text.delta","sequence_number":4,/,
    );
  });

  it('emits reasoning and function_call items', () => {
    const body = { ...base, tools: [{ type: 'function', name: 'f' }] };
    const { out, final } = run(
      [
        piece('<think>hm</think><tool_call>{"name":"f","arguments":{"a":1}}</tool_call>'),
        { type: 'generation.choice-end', index: 0, finish_reason: 'stop', matched_stop: null },
        { type: 'generation.done', counts },
      ],
      body,
    );
    expect(out.map((e) => e.type).slice(2)).toStrictEqual([
      'response.output_item.added',
      'response.reasoning_text.delta',
      'response.reasoning_text.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(final?.output).toMatchObject([
      { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'hm' }] },
      { type: 'function_call', call_id: 'call_x', name: 'f', arguments: '{"a":1}', status: 'completed' },
    ]);
  });

  it('streams a function call: the item first (empty arguments), argument deltas as they arrive, then done', () => {
    const body = { ...base, tools: [{ type: 'function', name: 'f' }] };
    const text = 'Ok.<tool_call>\n{"name": "f", "arguments": {"a": [1, 2]}}\n</tool_call>';
    const { out, final } = run(
      [
        ...[...text].map((c) => piece(c)),
        { type: 'generation.choice-end', index: 0, finish_reason: 'length', matched_stop: null },
        { type: 'generation.done', counts },
      ],
      body,
    );
    const types = out.map((e) => e.type);
    const added = out.filter((e) => e.type === 'response.output_item.added');
    expect(added[1]).toMatchObject({ output_index: 1, item: { type: 'function_call', name: 'f', arguments: '' } });
    const deltas = out.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta);
    expect(deltas).toStrictEqual([...'{"a":[1,2]}']);
    expect(out.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({
      output_index: 1,
      name: 'f',
      arguments: '{"a":[1,2]}',
    });
    expect(types.indexOf('response.output_text.done')).toBeLessThan(types.indexOf('response.output_item.added', 5));
    expect(final?.output).toMatchObject([
      { type: 'message', content: [{ text: 'Ok.' }] },
      { type: 'function_call', name: 'f', arguments: '{"a":[1,2]}', status: 'incomplete' },
    ]);
  });

  it('puts logprobs on output_text deltas (no bytes), on output_text.done and on the final part (with bytes)', () => {
    const tok = (text: string, logprob: number) => ({
      id: text.charCodeAt(0),
      text,
      bytes: [...new TextEncoder().encode(text)],
      logprob,
      top: [{ id: 1, text: 'z', bytes: [122], logprob: -3 }],
      offset: 0,
    });
    const body = { ...base, include: ['message.output_text.logprobs'], top_logprobs: 1 };
    const { out, final } = run(
      [
        { type: 'generation.piece', index: 0, text: 'a<', tokens: [tok('a', -0.5), tok('<', -1)] },
        { type: 'generation.piece', index: 0, text: 'b', tokens: [tok('b', -2)] },
        { type: 'generation.choice-end', index: 0, finish_reason: 'stop', matched_stop: null },
        { type: 'generation.done', counts },
      ],
      body,
    );
    const deltas = out.filter((e) => e.type === 'response.output_text.delta');
    expect(deltas.map((e) => [e.delta, (e.logprobs as Array<{ token: string }>).map((l) => l.token)])).toStrictEqual([
      ['a<', ['a', '<']],
      ['b', ['b']],
    ]);
    expect(deltas[0]?.logprobs).toStrictEqual([
      { token: 'a', logprob: -0.5, top_logprobs: [{ token: 'z', logprob: -3 }] },
      { token: '<', logprob: -1, top_logprobs: [{ token: 'z', logprob: -3 }] },
    ]);
    const full = { token: 'b', logprob: -2, bytes: [98], top_logprobs: [{ token: 'z', logprob: -3, bytes: [122] }] };
    expect(out.find((e) => e.type === 'response.output_text.done')?.logprobs).toHaveLength(3);
    expect(final?.output[0]).toMatchObject({ content: [{ text: 'a<b', logprobs: [{}, {}, full] }] });
    expect(final?.top_logprobs).toBe(1);
    const plain = run([{ type: 'generation.piece', index: 0, text: 'a', tokens: [tok('a', -0.5)] }]).out;
    expect(plain.find((e) => e.type === 'response.output_text.delta')?.logprobs).toStrictEqual([]);
  });

  it('reports length as incomplete, and an engine error as error + response.failed', () => {
    const cut = run([
      piece('a'),
      { type: 'generation.choice-end', index: 0, finish_reason: 'length', matched_stop: null },
      { type: 'generation.done', counts },
    ]);
    expect(cut.out.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
    const body = { error: { message: 'boom', type: 'server_error', param: null, code: 'engine_failed' } };
    const failed = run([piece('a'), { type: 'generation.error', error: { status: 500, body } }]);
    expect(failed.out.slice(-2)).toMatchObject([
      { type: 'error', code: 'engine_failed', message: 'boom' },
      { type: 'response.failed', response: { status: 'failed', error: { code: 'engine_failed', message: 'boom' } } },
    ]);
  });
});

describe('validateResponses: input_image', () => {
  it("collects a user message's images with the request's marker in its text, naming each part", () => {
    const { chat } = validateResponses({
      ...base,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'a' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw==' },
            { type: 'input_text', text: 'b' },
          ],
        },
      ],
    });
    const media = chat.media;
    if (!media) throw new Error('no media');
    expect(chat.messages[0]?.content).toBe(`a${media.marker}b`);
    expect(media.parts.map((part) => [part.kind, part.param])).toEqual([['image', 'input[0].content[1]']]);
  });
});

describe('validateResponses: input_audio', () => {
  it("collects a user message's sounds (base64 WAV or MP3) with the marker, naming each part", () => {
    const { chat } = validateResponses({
      ...base,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'input_text', text: 'hear' },
          ],
        },
      ],
    });
    const media = chat.media;
    if (!media) throw new Error('no media');
    expect(chat.messages[0]?.content).toBe(`${media.marker}hear`);
    expect(media.parts.map((part) => [part.kind, part.param])).toEqual([['audio', 'input[0].content[0]']]);
    expect(
      rejection({
        ...base,
        input: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'ogg' } }] }],
      }).param,
    ).toBe('input[0].content[0].input_audio.format');
  });
});

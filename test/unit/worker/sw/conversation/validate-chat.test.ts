import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { validateChat } from '../../../../../worker/sw/conversation/validate-chat';
import { chatGenerationRequest } from '../../../../../worker/sw/conversation/chat-generation-request';
import { CHAT_SHARED_FIELDS } from '../../../../../worker/sw/conversation/chat-schema';

const base = { model: 'inpage-test', messages: [{ role: 'user', content: 'abc' }] };
const fnTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

function rejection(body: unknown): InvalidRequestError {
  try {
    validateChat(body);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    if (error instanceof InvalidRequestError) return error;
  }
  throw new Error(`expected a 400 for ${JSON.stringify(body)}`);
}

describe('validateChat: defaults and mapping', () => {
  it('fills defaults for a minimal body', () => {
    const req = validateChat(base);
    expect(req).toMatchObject({
      model: 'inpage-test',
      messages: [{ role: 'user', content: 'abc' }],
      tools: [],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      response_format: { type: 'text' },
      chat_template_kwargs: {},
      reasoning_effort: null,
      stream: false,
      include_usage: false,
      n: 1,
      max_tokens: null,
      min_tokens: 0,
      stop: [],
      logprobs: false,
      top_logprobs: 0,
      temperature: 1,
      top_p: 1,
      top_k: 0,
      seed: null,
      user: null,
      cache_prompt: true,
    });
  });

  it('treats null as absent for optional fields', () => {
    const nulls = {
      max_tokens: null,
      temperature: null,
      tools: null,
      tool_choice: null,
      response_format: null,
      stop: null,
      logprobs: null,
      n: null,
    };
    expect(validateChat({ ...base, ...nulls }).max_tokens).toBeNull();
  });

  it('accepts max_completion_tokens as an alias of max_tokens; disagreeing values are a 400', () => {
    expect(validateChat({ ...base, max_completion_tokens: 7 }).max_tokens).toBe(7);
    expect(validateChat({ ...base, max_tokens: 7, max_completion_tokens: 7 }).max_tokens).toBe(7);
    const error = rejection({ ...base, max_tokens: 7, max_completion_tokens: 8 });
    expect(error.param).toBe('max_completion_tokens');
  });

  it('accepts stop as a string or array, and the llama.cpp/vLLM extras', () => {
    const req = validateChat({
      ...base,
      stop: 'x',
      top_k: 40,
      min_p: 0.1,
      repeat_penalty: 1.1,
      ignore_eos: true,
      stop_token_ids: [2],
    });
    expect(req).toMatchObject({
      stop: ['x'],
      top_k: 40,
      min_p: 0.1,
      repetition_penalty: 1.1,
      ignore_eos: true,
      stop_token_ids: [2],
    });
    expect(CHAT_SHARED_FIELDS).toContain('typical_p');
  });

  it('maps to a neutral GenerationRequest', () => {
    const req = validateChat({ ...base, logprobs: true, top_logprobs: 3, n: 2, seed: 5 });
    expect(chatGenerationRequest(req)).toMatchObject({
      logprobs: 3,
      n: 2,
      best_of: 2,
      echo: false,
      suffix: null,
      seed: 5,
    });
    expect(chatGenerationRequest(req).prompts).toStrictEqual([
      { chat: { messages: req.messages, tools: [], chat_template_kwargs: {}, reasoning_effort: null } },
    ]);
    expect(chatGenerationRequest(validateChat(base)).logprobs).toBeNull();
  });

  it("reads llama-server's reasoning budget: reasoning_budget_tokens over thinking_budget_tokens, its message and control", () => {
    expect(validateChat(base).reasoning_budget).toBeUndefined();
    expect(validateChat({ ...base, reasoning_budget_tokens: -1 }).reasoning_budget).toBeUndefined();
    expect(validateChat({ ...base, reasoning_budget_tokens: 0 }).reasoning_budget).toEqual({
      tokens: 0,
      control: false,
    });
    expect(
      validateChat({ ...base, thinking_budget_tokens: 7, reasoning_budget_tokens: 3 }).reasoning_budget?.tokens,
    ).toBe(3);
    const controlled = validateChat({
      ...base,
      thinking_budget_tokens: 7,
      reasoning_budget_message: ' Enough.',
      reasoning_control: true,
    });
    expect(controlled.reasoning_budget).toEqual({ tokens: 7, message: ' Enough.', control: true });
    expect(chatGenerationRequest(controlled).reasoning_budget).toEqual(controlled.reasoning_budget);
    expect(validateChat({ ...base, reasoning_control: true }).reasoning_budget).toEqual({
      tokens: -1,
      control: true,
    });
    expect(rejection({ ...base, reasoning_budget_tokens: -2 }).param).toBe('reasoning_budget_tokens');
    expect(rejection({ ...base, thinking_budget_tokens: 2.5 }).param).toBe('thinking_budget_tokens');
    expect(rejection({ ...base, reasoning_budget_tokens: 2 ** 31 }).param).toBe('reasoning_budget_tokens');
    expect(rejection({ ...base, reasoning_budget_message: 5 }).param).toBe('reasoning_budget_message');
    expect(rejection({ ...base, reasoning_control: 'yes' }).param).toBe('reasoning_control');
  });

  it("reads llama-server's reasoning_format; under none a constraint has no room for the reasoning", () => {
    expect(validateChat(base).reasoning_format).toBe('auto');
    expect(validateChat({ ...base, reasoning_format: 'deepseek-legacy' }).reasoning_format).toBe('deepseek-legacy');
    const json = { ...base, response_format: { type: 'json_object' } };
    expect(chatGenerationRequest(validateChat(json)).grammar?.afterReasoning).toBe(true);
    const none = chatGenerationRequest(validateChat({ ...json, reasoning_format: 'none' }));
    expect(none.grammar?.gbnf).toContain('root ::=');
    expect(none.grammar?.afterReasoning).toBeUndefined();
    // llama-server answers an unknown one with a 500.
    expect(rejection({ ...base, reasoning_format: 'bogus' }).message).toMatch(
      /'reasoning_format': expected one of 'none'/,
    );
  });

  it('stream_options needs stream; include_usage is read', () => {
    expect(validateChat({ ...base, stream: true, stream_options: { include_usage: true } }).include_usage).toBe(true);
    expect(rejection({ ...base, stream_options: { include_usage: true } }).param).toBe('stream_options');
    expect(rejection({ ...base, stream: true, stream_options: { x: 1 } }).message).toContain('stream_options.x');
  });
});

describe('validateChat: errors', () => {
  it('rejects unknown fields as OpenAI does', () => {
    const error = rejection({ ...base, frobnicate: 1 });
    expect(error.message).toBe('Unrecognized request argument supplied: frobnicate');
    expect(error.code).toBe('unknown_parameter');
  });

  it("accepts what clients send that cannot change the text (the AI SDK's provider options), type-checked", () => {
    const advisory = {
      store: false,
      metadata: { run: 'e2e' },
      service_tier: 'auto',
      prompt_cache_key: 'k',
      prompt_cache_retention: '24h',
      safety_identifier: 's',
      verbosity: 'low',
      prediction: { type: 'content', content: 'defgh' },
    };
    expect(validateChat({ ...base, ...advisory })).toStrictEqual(validateChat(base));
    expect(rejection({ ...base, store: 'no' }).param).toBe('store');
    expect(rejection({ ...base, metadata: { n: 1 } }).param).toBe('metadata');
    expect(rejection({ ...base, service_tier: 1 }).param).toBe('service_tier');
    expect(rejection({ ...base, verbosity: 'loud' }).param).toBe('verbosity');
    expect(rejection({ ...base, prediction: { type: 'text' } }).param).toBe('prediction');
  });

  it('requires model and messages', () => {
    expect(rejection({ messages: base.messages }).param).toBe('model');
    expect(rejection({ model: 'm' }).message).toBe("Missing required parameter: 'messages'.");
    expect(rejection({ model: 'm', messages: [] }).code).toBe('empty_array');
    expect(rejection('nope').code).toBe('invalid_json');
  });

  it('names the field of a bad scalar', () => {
    expect(rejection({ ...base, temperature: 3 }).param).toBe('temperature');
    expect(rejection({ ...base, logprobs: 1 }).message).toContain("'logprobs': expected a boolean");
    expect(rejection({ ...base, top_logprobs: 21, logprobs: true }).param).toBe('top_logprobs');
    expect(rejection({ ...base, logit_bias: [1] }).param).toBe('logit_bias');
    expect(rejection({ ...base, chat_template_kwargs: 'x' }).param).toBe('chat_template_kwargs');
    expect(rejection({ ...base, reasoning_effort: 'max' }).param).toBe('reasoning_effort');
  });

  it('top_logprobs requires logprobs', () => {
    expect(rejection({ ...base, top_logprobs: 2 }).message).toBe("'top_logprobs' requires 'logprobs' to be true.");
    expect(validateChat({ ...base, top_logprobs: 0 }).top_logprobs).toBe(0);
  });

  it('min_tokens must not exceed max_tokens', () => {
    expect(rejection({ ...base, max_tokens: 2, min_tokens: 3 }).param).toBe('min_tokens');
  });
});

describe('validateChat: messages', () => {
  it('accepts every role and flattens text parts', () => {
    const messages = [
      { role: 'system', content: 's' },
      {
        role: 'developer',
        content: [
          { type: 'text', text: 'd1' },
          { type: 'text', text: 'd2' },
        ],
      },
      { role: 'user', content: 'u', name: 'ann' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'r' },
      { role: 'assistant', content: 'a', reasoning_content: 'why' },
    ];
    expect(validateChat({ ...base, messages }).messages).toStrictEqual([
      { role: 'system', content: 's' },
      { role: 'developer', content: 'd1\nd2' },
      { role: 'user', content: 'u', name: 'ann' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', content: 'r', tool_call_id: 'call_1' },
      { role: 'assistant', content: 'a', reasoning_content: 'why' },
    ]);
  });

  it('rejects media parts outside user messages naming messages[i].content, and bad media naming the part', () => {
    const error = rejection({
      ...base,
      messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
    });
    expect(error.param).toBe('messages[0].content');
    expect(error.message).toContain("'image_url'");
    const bad = rejection({
      ...base,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
    });
    expect(bad.param).toBe('messages[0].content[0]');
    expect(bad.message).toBe("Invalid base64 value in 'messages[0].content[0]'.");
  });

  it("collects a user message's image and audio parts with the request's marker in its text", () => {
    const chat = validateChat({
      ...base,
      messages: [
        { role: 'user', content: 'plain' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
            { type: 'text', text: 'and listen' },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          ],
        },
      ],
    });
    const media = chat.media;
    if (!media) throw new Error('no media');
    expect(media.marker).toMatch(/^<__media_[0-9a-f-]{36}__>$/);
    expect(chat.messages[0]?.content).toBe('plain');
    expect(chat.messages[1]?.content).toBe(`look${media.marker}and listen${media.marker}`);
    expect(media.parts.map((part) => [part.kind, part.param, part.source])).toEqual([
      ['image', 'messages[1].content[1]', { kind: 'bytes', bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47]) }],
      ['audio', 'messages[1].content[3]', { kind: 'bytes', bytes: Uint8Array.from([0x52, 0x49, 0x46, 0x46]) }],
    ]);
    expect(validateChat({ ...base, messages: [{ role: 'user', content: 'x' }] }).media).toBeNull();
  });

  it('rejects bad roles, unknown message keys, missing tool_call_id, bad content types', () => {
    expect(rejection({ ...base, messages: [{ role: 'function', content: 'x' }] }).param).toBe('messages[0].role');
    expect(rejection({ ...base, messages: [{ role: 'user', content: 'x', foo: 1 }] }).message).toBe(
      'Unrecognized request argument supplied: messages[0].foo',
    );
    expect(rejection({ ...base, messages: [{ role: 'tool', content: 'x' }] }).param).toBe('messages[0].tool_call_id');
    expect(rejection({ ...base, messages: [{ role: 'user', content: 5 }] }).param).toBe('messages[0].content');
    expect(rejection({ ...base, messages: [{ role: 'user' }] }).param).toBe('messages[0].content');
    expect(rejection({ ...base, messages: [{ role: 'assistant' }] }).param).toBe('messages[0].content');
    expect(rejection({ ...base, messages: ['hi'] }).param).toBe('messages[0]');
    const badCall = {
      role: 'assistant',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }],
    };
    expect(rejection({ ...base, messages: [badCall] }).param).toBe('messages[0].tool_calls[0].function.arguments');
  });
});

describe('validateChat: tools, tool_choice, response_format', () => {
  it('accepts function tools and a named tool_choice', () => {
    const req = validateChat({
      ...base,
      tools: [{ ...fnTool, function: { ...fnTool.function, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(req.tools[0]?.function).toMatchObject({ name: 'get_weather', strict: true });
    expect(req.tool_choice).toStrictEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(
      validateChat({ ...base, tools: [fnTool], tool_choice: 'required', parallel_tool_calls: false }),
    ).toMatchObject({ tool_choice: 'required', parallel_tool_calls: false });
  });

  it('rejects a named function not in tools, and required without tools', () => {
    expect(
      rejection({ ...base, tools: [fnTool], tool_choice: { type: 'function', function: { name: 'nope' } } }).message,
    ).toContain("no function named 'nope'");
    expect(rejection({ ...base, tool_choice: 'required' }).param).toBe('tool_choice');
    expect(validateChat({ ...base, tool_choice: 'none' }).tool_choice).toBe('none');
    expect(rejection({ ...base, tools: [fnTool], tool_choice: 'sometimes' }).param).toBe('tool_choice');
  });

  it('rejects non-function tools and bad names/parameters', () => {
    expect(rejection({ ...base, tools: [{ type: 'custom', custom: {} }] }).param).toBe('tools[0].type');
    expect(rejection({ ...base, tools: [{ type: 'function', function: { name: 'a b' } }] }).param).toBe(
      'tools[0].function.name',
    );
    expect(rejection({ ...base, tools: [{ type: 'function', function: { name: 'a', parameters: 'x' } }] }).param).toBe(
      'tools[0].function.parameters',
    );
  });

  it('passes response_format through validated', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    const fmt = { type: 'json_schema', json_schema: { name: 'out', schema, strict: true } };
    expect(validateChat({ ...base, response_format: fmt }).response_format).toStrictEqual(fmt);
    expect(validateChat({ ...base, response_format: { type: 'json_object' } }).response_format).toStrictEqual({
      type: 'json_object',
    });
    expect(rejection({ ...base, response_format: { type: 'yaml' } }).param).toBe('response_format.type');
    expect(rejection({ ...base, response_format: { type: 'json_schema' } }).param).toBe('response_format.json_schema');
  });
});

describe('validateChat: strict tools', () => {
  const strictTool = { ...fnTool, function: { ...fnTool.function, strict: true } };
  const other = { type: 'function', function: { name: 'other', parameters: { type: 'object' } } };

  it('constrains calls from the first token for required and named choices, lazily for auto', () => {
    const required = validateChat({ ...base, tools: [strictTool], tool_choice: 'required' }).grammar;
    expect(required).toMatchObject({ param: 'tools' });
    expect(required?.trigger).toBeUndefined();
    expect(required?.gbnf).toContain('"\\"get_weather\\""');
    const auto = validateChat({ ...base, tools: [strictTool] }).grammar;
    expect(auto?.trigger).toBe('<tool_call>');
    expect(chatGenerationRequest(validateChat({ ...base, tools: [strictTool] })).grammar).toStrictEqual(auto);
  });

  it('applies to every tool that may be called, strict or not (as llama-server), and not with tool_choice none', () => {
    expect(validateChat({ ...base, tools: [fnTool] }).grammar).toMatchObject({
      param: 'tools',
      trigger: '<tool_call>',
    });
    expect(validateChat({ ...base, tools: [strictTool], tool_choice: 'none' }).grammar).toBeNull();
    const named = { type: 'function', function: { name: 'other' } };
    const only = validateChat({ ...base, tools: [strictTool, other], tool_choice: named }).grammar?.gbnf;
    expect(only).toContain('"\\"other\\""');
    expect(only).not.toContain(strictTool.function.name);
    const gbnf = validateChat({ ...base, tools: [strictTool, other], tool_choice: 'required' }).grammar?.gbnf;
    expect(gbnf).toContain('"\\"other\\""');
  });

  it('leaves tools that are not strict unconstrained beside another constraint', () => {
    const format = { type: 'json_object' };
    expect(validateChat({ ...base, tools: [fnTool], response_format: format }).grammar?.param).toBe('response_format');
  });

  it('is a 400 with another constraint, or a schema a grammar cannot enforce', () => {
    const format = { type: 'json_object' };
    const conflict = rejection({ ...base, tools: [strictTool], response_format: format });
    expect([conflict.param, conflict.code]).toStrictEqual(['response_format', 'conflicting_constraints']);
    const badSchema = { ...strictTool, function: { ...strictTool.function, parameters: { not: {} } } };
    expect(rejection({ ...base, tools: [other, badSchema] }).param).toBe('tools[1].function.parameters');
  });
});

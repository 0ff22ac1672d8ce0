/**
 * The requests of the surrogate fuzz (`fuzz-surrogates.test.ts`): every string field of the four
 * POST routes (object keys too), each with lone UTF-16 surrogates of six kinds at four places,
 * JSON and SSE. Each such request must be a 400 `invalid_unicode` naming the field; a control per
 * field sends the same text made well-formed (each lone surrogate as U+FFFD) and gets the status
 * written beside it, so the field's request is otherwise valid and the 400 is the surrogate's.
 * Bodies are built here with `JSON.stringify`, which escapes lone surrogates (`\ud83d`), as a
 * client's body would carry them.
 */

export type RoutePath = '/v1/completions' | '/v1/chat/completions' | '/v1/responses' | '/v1/embeddings';

/** One string field of one route: the body with `s` in it, and the path an error names. */
interface Field {
  route: RoutePath;
  build(model: string, s: string): Record<string, unknown>;
  /** The `param` of the 400 (a key's path ends in the key, `JSON.stringify`-quoted). */
  param(s: string): string;
  /** The status of the well-formed control (200 unless the field's U+FFFD text is itself invalid). */
  control?: number | ((model: string) => number);
}

export interface SurrogateCase {
  route: RoutePath;
  label: string;
  body: string;
  stream: boolean;
  status: number;
  /** For a lone-surrogate case: the `param` its 400 names. */
  param: string | null;
}

const COMPLETIONS = '/v1/completions';
const CHAT = '/v1/chat/completions';
const RESPONSES = '/v1/responses';
const EMBEDDINGS = '/v1/embeddings';

const completion = (model: string, extra: Record<string, unknown>) => ({
  model,
  prompt: 'abc',
  max_tokens: 2,
  temperature: 0,
  ...extra,
});
const chat = (model: string, extra: Record<string, unknown>) => ({
  model,
  messages: [{ role: 'user', content: 'abc' }],
  max_tokens: 2,
  temperature: 0,
  ...extra,
});
const response = (model: string, extra: Record<string, unknown>) => ({
  model,
  input: 'abc',
  max_output_tokens: 2,
  temperature: 0,
  ...extra,
});
const stringSchema = (extra: Record<string, unknown>) => ({ type: 'string', ...extra });
const jsonSchema = (schema: unknown, name = 'answer') => ({ type: 'json_schema', json_schema: { name, schema } });
const fn = (extra: Record<string, unknown>) => ({
  type: 'function',
  function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} }, ...extra },
});
const key = (at: string, s: string) => `${at}[${JSON.stringify(s)}]`;
const plain = (param: string) => () => param;
const withUser = (messages: unknown[]) => [...messages, { role: 'user', content: 'abc' }];

const FIELDS: Record<string, Field> = {
  'completions model': { route: COMPLETIONS, build: (_, s) => completion(s, {}), param: plain('model'), control: 404 },
  'completions prompt': { route: COMPLETIONS, build: (m, s) => completion(m, { prompt: s }), param: plain('prompt') },
  'completions prompt[0]': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { prompt: [s] }),
    param: plain('prompt[0]'),
  },
  'completions prompt[1]': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { prompt: ['abc', s] }),
    param: plain('prompt[1]'),
  },
  'completions stop': { route: COMPLETIONS, build: (m, s) => completion(m, { stop: s }), param: plain('stop') },
  'completions stop[1]': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { stop: ['zz', s] }),
    param: plain('stop[1]'),
  },
  'completions suffix': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { suffix: s }),
    param: plain('suffix'),
    // Fill-in-the-middle needs FIM tokens: the qwen3 test model has them, `inpage-test` not.
    control: (model) => (model === 'inpage-test' ? 400 : 200),
  },
  'completions user': { route: COMPLETIONS, build: (m, s) => completion(m, { user: s }), param: plain('user') },
  'completions logit_bias key': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { logit_bias: { [s]: 1 } }),
    // The well-formed key is a text (llama-server's form): a 200.
    param: (s) => key('logit_bias', s),
  },
  'completions body key': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { [s]: 1 }),
    param: (s) => key('', s),
    control: 400,
  },
  'completions schema enum': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { response_format: jsonSchema(stringSchema({ enum: [s] })) }),
    param: plain('response_format.json_schema.schema.enum[0]'),
  },
  'completions schema description': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { response_format: jsonSchema(stringSchema({ description: s })) }),
    param: plain('response_format.json_schema.schema.description'),
  },
  'completions schema property key': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { json_schema: { type: 'object', properties: { [s]: { type: 'string' } } } }),
    param: (s) => key('json_schema.properties', s),
  },
  'completions schema as JSON text': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { json_schema: JSON.stringify(stringSchema({ enum: ['x', s] })) }),
    param: plain('json_schema'),
  },
  'completions grammar': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { grammar: `root ::= "${s}"` }),
    param: plain('grammar'),
  },
  'completions regex': { route: COMPLETIONS, build: (m, s) => completion(m, { regex: s }), param: plain('regex') },
  'completions guided_choice[1]': {
    route: COMPLETIONS,
    build: (m, s) => completion(m, { guided_choice: ['x', s] }),
    param: plain('guided_choice[1]'),
  },

  'chat model': { route: CHAT, build: (_, s) => chat(s, {}), param: plain('model'), control: 404 },
  'chat user content': {
    route: CHAT,
    build: (m, s) => chat(m, { messages: [{ role: 'user', content: s }] }),
    param: plain('messages[0].content'),
  },
  'chat content part': {
    route: CHAT,
    build: (m, s) => chat(m, { messages: [{ role: 'user', content: [{ type: 'text', text: s }] }] }),
    param: plain('messages[0].content[0].text'),
  },
  'chat second content part': {
    route: CHAT,
    build: (m, s) =>
      chat(m, {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'abc' },
              { type: 'text', text: s },
            ],
          },
        ],
      }),
    param: plain('messages[0].content[1].text'),
  },
  'chat role': {
    route: CHAT,
    build: (m, s) => chat(m, { messages: [{ role: s, content: 'abc' }] }),
    param: plain('messages[0].role'),
    control: 400,
  },
  'chat name': {
    route: CHAT,
    build: (m, s) => chat(m, { messages: [{ role: 'user', name: s, content: 'abc' }] }),
    param: plain('messages[0].name'),
  },
  'chat message key': {
    route: CHAT,
    build: (m, s) => chat(m, { messages: [{ role: 'user', content: 'abc', [s]: 1 }] }),
    param: (s) => key('messages[0]', s),
    control: 400,
  },
  'chat system content': {
    route: CHAT,
    build: (m, s) => chat(m, { messages: withUser([{ role: 'system', content: s }]) }),
    param: plain('messages[0].content'),
  },
  'chat developer content': {
    route: CHAT,
    build: (m, s) => chat(m, { messages: withUser([{ role: 'developer', content: s }]) }),
    param: plain('messages[0].content'),
  },
  'chat assistant content': {
    route: CHAT,
    build: (m, s) =>
      chat(m, {
        messages: withUser([
          { role: 'user', content: 'abc' },
          { role: 'assistant', content: s },
        ]),
      }),
    param: plain('messages[1].content'),
  },
  'chat tool call arguments': {
    route: CHAT,
    build: (m, s) =>
      chat(m, {
        messages: [
          { role: 'user', content: 'abc' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: `{"a":"${s}"}` } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'ok' },
        ],
      }),
    param: plain('messages[1].tool_calls[0].function.arguments'),
  },
  'chat tool content': {
    route: CHAT,
    build: (m, s) =>
      chat(m, {
        messages: [
          { role: 'user', content: 'abc' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: s },
        ],
      }),
    param: plain('messages[2].content'),
  },
  'chat stop': { route: CHAT, build: (m, s) => chat(m, { stop: s }), param: plain('stop') },
  'chat stop[1]': { route: CHAT, build: (m, s) => chat(m, { stop: ['zz', s] }), param: plain('stop[1]') },
  'chat tool description': {
    route: CHAT,
    build: (m, s) => chat(m, { tools: [fn({ description: s })] }),
    param: plain('tools[0].function.description'),
  },
  'chat tool name': {
    route: CHAT,
    build: (m, s) => chat(m, { tools: [fn({ name: s })] }),
    param: plain('tools[0].function.name'),
    control: 400,
  },
  'chat tool parameter description': {
    route: CHAT,
    build: (m, s) =>
      chat(m, { tools: [fn({ parameters: { type: 'object', properties: { x: stringSchema({ description: s }) } } })] }),
    param: plain('tools[0].function.parameters.properties.x.description'),
  },
  'chat tool parameter enum': {
    route: CHAT,
    build: (m, s) =>
      chat(m, { tools: [fn({ parameters: { type: 'object', properties: { x: stringSchema({ enum: ['a', s] }) } } })] }),
    param: plain('tools[0].function.parameters.properties.x.enum[1]'),
  },
  'chat tool parameter key': {
    route: CHAT,
    build: (m, s) =>
      chat(m, { tools: [fn({ parameters: { type: 'object', properties: { [s]: stringSchema({}) } } })] }),
    param: (s) => key('tools[0].function.parameters.properties', s),
  },
  'chat tool_choice name': {
    route: CHAT,
    build: (m, s) => chat(m, { tools: [fn({})], tool_choice: { type: 'function', function: { name: s } } }),
    param: plain('tool_choice.function.name'),
    control: 400,
  },
  'chat schema enum': {
    route: CHAT,
    build: (m, s) => chat(m, { response_format: jsonSchema(stringSchema({ enum: [s] })) }),
    param: plain('response_format.json_schema.schema.enum[0]'),
  },
  'chat schema const': {
    route: CHAT,
    build: (m, s) => chat(m, { response_format: jsonSchema(stringSchema({ const: s })) }),
    param: plain('response_format.json_schema.schema.const'),
  },
  'chat schema title': {
    route: CHAT,
    build: (m, s) => chat(m, { response_format: jsonSchema(stringSchema({ title: s })) }),
    param: plain('response_format.json_schema.schema.title'),
  },
  'chat user': { route: CHAT, build: (m, s) => chat(m, { user: s }), param: plain('user') },
  'chat logit_bias key': {
    route: CHAT,
    build: (m, s) => chat(m, { logit_bias: { [s]: 1 } }),
    // The well-formed key is a text (llama-server's form): a 200.
    param: (s) => key('logit_bias', s),
  },

  'responses model': { route: RESPONSES, build: (_, s) => response(s, {}), param: plain('model'), control: 404 },
  'responses input': { route: RESPONSES, build: (m, s) => response(m, { input: s }), param: plain('input') },
  'responses message content': {
    route: RESPONSES,
    build: (m, s) => response(m, { input: [{ role: 'user', content: s }] }),
    param: plain('input[0].content'),
  },
  'responses input_text': {
    route: RESPONSES,
    build: (m, s) => response(m, { input: [{ role: 'user', content: [{ type: 'input_text', text: s }] }] }),
    param: plain('input[0].content[0].text'),
  },
  'responses assistant content': {
    route: RESPONSES,
    build: (m, s) =>
      response(m, {
        input: [
          { role: 'user', content: 'abc' },
          { role: 'assistant', content: s },
          { role: 'user', content: 'abc' },
        ],
      }),
    param: plain('input[1].content'),
  },
  'responses instructions': {
    route: RESPONSES,
    build: (m, s) => response(m, { instructions: s }),
    param: plain('instructions'),
  },
  'responses schema enum': {
    route: RESPONSES,
    build: (m, s) =>
      response(m, { text: { format: { type: 'json_schema', name: 'answer', schema: stringSchema({ enum: [s] }) } } }),
    param: plain('text.format.schema.enum[0]'),
  },
  'responses schema description': {
    route: RESPONSES,
    build: (m, s) =>
      response(m, {
        text: { format: { type: 'json_schema', name: 'answer', schema: stringSchema({ description: s }) } },
      }),
    param: plain('text.format.schema.description'),
  },
  'responses tool description': {
    route: RESPONSES,
    build: (m, s) =>
      response(m, {
        tools: [{ type: 'function', name: 'f', description: s, parameters: { type: 'object', properties: {} } }],
      }),
    param: plain('tools[0].description'),
  },
  'responses tool parameter description': {
    route: RESPONSES,
    build: (m, s) =>
      response(m, {
        tools: [
          {
            type: 'function',
            name: 'f',
            parameters: { type: 'object', properties: { x: stringSchema({ description: s }) } },
          },
        ],
      }),
    param: plain('tools[0].parameters.properties.x.description'),
  },
  'responses user': { route: RESPONSES, build: (m, s) => response(m, { user: s }), param: plain('user') },
  'responses body key': {
    route: RESPONSES,
    build: (m, s) => response(m, { [s]: 1 }),
    param: (s) => key('', s),
    control: 400,
  },

  'embeddings model': {
    route: EMBEDDINGS,
    build: (_, s) => ({ model: s, input: 'ab' }),
    param: plain('model'),
    control: 404,
  },
  'embeddings input': { route: EMBEDDINGS, build: (m, s) => ({ model: m, input: s }), param: plain('input') },
  'embeddings input[1]': {
    route: EMBEDDINGS,
    build: (m, s) => ({ model: m, input: ['ab', s] }),
    param: plain('input[1]'),
  },
  'embeddings user': {
    route: EMBEDDINGS,
    build: (m, s) => ({ model: m, input: 'ab', user: s }),
    param: plain('user'),
  },
  'embeddings encoding_format': {
    route: EMBEDDINGS,
    build: (m, s) => ({ model: m, input: 'ab', encoding_format: s }),
    param: plain('encoding_format'),
    control: 400,
  },
  'embeddings body key': {
    route: EMBEDDINGS,
    build: (m, s) => ({ model: m, input: 'ab', [s]: 1 }),
    param: (s) => key('', s),
    control: 400,
  },
};

/** Six kinds of lone surrogate: high, low, a reversed pair, two highs, a low after a pair, a high before one. */
const KINDS: Record<string, string> = {
  high: '\uD83D',
  low: '\uDE00',
  reversed: '\uDE00\uD83D',
  'two highs': '\uDBFF\uD800',
  'pair + low': '\uD83D\uDE00\uDFFF',
  'high + pair': '\uD800\uD83D\uDE00',
};

/** At four places: the whole string, its start, middle and end. */
const PLACES: Record<string, (lone: string) => string> = {
  alone: (lone) => lone,
  start: (lone) => `${lone}ab`,
  middle: (lone) => `a${lone}b`,
  end: (lone) => `ab${lone}`,
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What `String.prototype.toWellFormed()` makes of `text`. */
export const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

/** Every case for `model`: fields x kinds x places x (JSON, SSE; embeddings JSON only), and the controls. */
export function surrogateCases(model: string): SurrogateCase[] {
  const cases: SurrogateCase[] = [];
  for (const [name, field] of Object.entries(FIELDS)) {
    const streams = field.route === EMBEDDINGS ? [false] : [false, true];
    for (const stream of streams) {
      const send = (s: string) => {
        const body = field.build(model, s);
        return JSON.stringify(stream ? { ...body, stream: true } : body);
      };
      for (const [kind, lone] of Object.entries(KINDS)) {
        for (const [place, put] of Object.entries(PLACES)) {
          const s = put(lone);
          const label = `${name}, ${kind} ${place}${stream ? ', SSE' : ''}`;
          cases.push({ route: field.route, label, body: send(s), stream, status: 400, param: field.param(s) });
        }
      }
      const control = wellFormed(PLACES.middle?.(KINDS.reversed ?? '') ?? '');
      cases.push({
        route: field.route,
        label: `${name}, well-formed control${stream ? ', SSE' : ''}`,
        body: send(control),
        stream,
        status: typeof field.control === 'function' ? field.control(model) : (field.control ?? 200),
        param: null,
      });
    }
  }
  return cases;
}

/**
 * The SDK / `fetch` code the code panel shows for each endpoint the playground covers: the
 * `openai` SDK's, and for Anthropic's `/v1/messages` the Anthropic SDK's (`@anthropic-ai/sdk`).
 */

/** The body of a request as the playground builds it (`stream` absent means not streamed). */
export type EndpointBody = Record<string, unknown> & { model: string };

/** The body of a `/v1/completions` request as the playground builds it. */
export type CompletionBody = EndpointBody & { prompt: string; stream: boolean };

export type Endpoint = 'completions' | 'chat' | 'responses' | 'messages' | 'embeddings';

interface EndpointCode {
  path: string;
  /** The SDK method, after `openai.`. */
  method: string;
  /** The answer's text, from a non-streamed result named `result`. */
  text: string;
  /** The text of one streamed chunk (completions, chat) named `chunk`. */
  delta: string;
}

export const ENDPOINTS: Record<Endpoint, EndpointCode> = {
  completions: {
    path: '/v1/completions',
    method: 'completions.create',
    text: 'completion.choices[0].text',
    delta: "chunk.choices[0]?.text ?? ''",
  },
  chat: {
    path: '/v1/chat/completions',
    method: 'chat.completions.create',
    text: 'completion.choices[0].message.content',
    delta: "chunk.choices[0]?.delta.content ?? ''",
  },
  responses: { path: '/v1/responses', method: 'responses.create', text: 'response.output_text', delta: '' },
  messages: {
    path: '/v1/messages',
    method: 'messages.create',
    text: "message.content.filter((block) => block.type === 'text').map((block) => block.text).join('')",
    delta: '',
  },
  embeddings: { path: '/v1/embeddings', method: 'embeddings.create', text: '', delta: '' },
};

/** The `openai` client options the playground uses (shown in the code, used for real). */
export function clientOptionsCode(apiKey: string | null = null): string {
  return `{ baseURL: location.origin + '/v1', apiKey: ${JSON.stringify(apiKey ?? 'unused')}, dangerouslyAllowBrowser: true, maxRetries: 0 }`;
}

/** The Anthropic SDK's client options for this page (its `baseURL` is the origin: it adds `/v1/messages`). */
export function anthropicOptionsCode(apiKey: string | null = null): string {
  return `{ baseURL: location.origin, apiKey: ${JSON.stringify(apiKey ?? 'unused')}, dangerouslyAllowBrowser: true, maxRetries: 0 }`;
}

/** A Messages stream's text: its `text_delta`s. */
const MESSAGES_DELTA =
  "if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') console.log(event.delta.text);";

function anthropicCode(body: EndpointBody, apiKey: string | null): string {
  const head = `import Anthropic from '@anthropic-ai/sdk';\n\nconst anthropic = new Anthropic(${anthropicOptionsCode(apiKey)});\n`;
  const call = `anthropic.messages.create(${literal(body)})`;
  if (body.stream) return `${head}const stream = await ${call};\nfor await (const event of stream) ${MESSAGES_DELTA}\n`;
  return `${head}const message = await ${call};\nconsole.log(${ENDPOINTS.messages.text});\n`;
}

function literal(body: EndpointBody): string {
  return JSON.stringify(body, null, 2);
}

/** The `openai` SDK code for `body` on `endpoint` (for completions and chat: what the playground runs). */
export function sdkCode(body: EndpointBody, apiKey: string | null = null, endpoint: Endpoint = 'completions'): string {
  if (endpoint === 'messages') return anthropicCode(body, apiKey);
  const head = `import OpenAI from 'openai';\n\nconst openai = new OpenAI(${clientOptionsCode(apiKey)});\n`;
  const { method, text, delta } = ENDPOINTS[endpoint];
  const call = `openai.${method}(${literal(body)})`;
  if (endpoint === 'embeddings')
    return `${head}const { data, usage } = await ${call};\nconsole.log(data[0].embedding.length, usage.prompt_tokens);\n`;
  if (endpoint === 'responses') {
    if (!body.stream) return `${head}const response = await ${call};\nconsole.log(${text});\n`;
    return `${head}const stream = await ${call};\nfor await (const event of stream) if (event.type === 'response.output_text.delta') console.log(event.delta);\n`;
  }
  if (body.stream)
    return `${head}const stream = await ${call};\nfor await (const chunk of stream) console.log(${delta});\n`;
  return `${head}const completion = await ${call};\nconsole.log(${text});\n`;
}

/** The same request with plain `fetch` (SSE parsed by hand when streaming). */
export function fetchCode(
  body: EndpointBody,
  apiKey: string | null = null,
  endpoint: Endpoint = 'completions',
): string {
  const { path, text, delta } = ENDPOINTS[endpoint];
  const auth = apiKey === null ? '' : `, authorization: ${JSON.stringify(`Bearer ${apiKey}`)}`;
  const version = endpoint === 'messages' ? `, 'anthropic-version': '2023-06-01'` : '';
  const request = `const response = await fetch('${path}', {\n  method: 'POST',\n  headers: { 'content-type': 'application/json'${version}${auth} },\n  body: JSON.stringify(${literal(body).replaceAll('\n', '\n  ')}),\n});\n`;
  if (endpoint === 'embeddings')
    return `${request}const { data, usage } = await response.json();\nconsole.log(data[0].embedding.length, usage.prompt_tokens);\n`;
  if (!body.stream) {
    const result = endpoint === 'responses' ? 'response' : endpoint === 'messages' ? 'message' : 'completion';
    return `${request}const ${result} = await response.json();\nconsole.log(${text});\n`;
  }
  // Responses and Messages frames are `event: <type>` + `data: <json>`, with no `[DONE]`.
  const named = `    const event = JSON.parse(frame.slice(frame.indexOf('data: ') + 6));\n`;
  const onEvent =
    endpoint === 'responses'
      ? named + `    if (event.type === 'response.output_text.delta') console.log(event.delta);\n`
      : endpoint === 'messages'
        ? named + `    ${MESSAGES_DELTA}\n`
        : `    const data = frame.replace(/^data: /, '');\n` +
          `    if (data === '[DONE]') continue;\n` +
          `    const chunk = JSON.parse(data);\n` +
          `    console.log(${delta});\n`;
  return (
    `${request}const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();\n` +
    `let buffer = '';\n` +
    `for (let read = await reader.read(); !read.done; read = await reader.read()) {\n` +
    `  const frames = (buffer += read.value).split('\\n\\n');\n` +
    `  buffer = frames.pop();\n` +
    `  for (const frame of frames) {\n` +
    onEvent +
    `  }\n` +
    `}\n`
  );
}

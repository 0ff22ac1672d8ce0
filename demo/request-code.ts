/** The body of a `/v1/completions` request as the playground builds it. */
export type CompletionBody = Record<string, unknown> & { model: string; prompt: string; stream: boolean };

/** The `openai` client options the playground uses (shown in the code, used for real). */
export function clientOptionsCode(apiKey: string | null = null): string {
  return `{ baseURL: location.origin + '/v1', apiKey: ${JSON.stringify(apiKey ?? 'unused')}, dangerouslyAllowBrowser: true, maxRetries: 0 }`;
}

function literal(body: CompletionBody): string {
  return JSON.stringify(body, null, 2);
}

/** The `openai` SDK code for `body`: what the playground runs. */
export function sdkCode(body: CompletionBody, apiKey: string | null = null): string {
  const head = `import OpenAI from 'openai';\n\nconst openai = new OpenAI(${clientOptionsCode(apiKey)});\n`;
  if (body.stream) {
    return `${head}const stream = await openai.completions.create(${literal(body)});\nfor await (const chunk of stream) console.log(chunk.choices[0]?.text ?? '');\n`;
  }
  return `${head}const completion = await openai.completions.create(${literal(body)});\nconsole.log(completion.choices[0].text);\n`;
}

/** The same request with plain `fetch` (SSE parsed by hand when streaming). */
export function fetchCode(body: CompletionBody, apiKey: string | null = null): string {
  const auth = apiKey === null ? '' : `, authorization: ${JSON.stringify(`Bearer ${apiKey}`)}`;
  const request = `const response = await fetch('/v1/completions', {\n  method: 'POST',\n  headers: { 'content-type': 'application/json'${auth} },\n  body: JSON.stringify(${literal(body).replaceAll('\n', '\n  ')}),\n});\n`;
  if (!body.stream) return `${request}console.log((await response.json()).choices[0].text);\n`;
  return (
    `${request}const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();\n` +
    `let buffer = '';\n` +
    `for (let read = await reader.read(); !read.done; read = await reader.read()) {\n` +
    `  const events = (buffer += read.value).split('\\n\\n');\n` +
    `  buffer = events.pop();\n` +
    `  for (const event of events) {\n` +
    `    const data = event.replace(/^data: /, '');\n` +
    `    if (data !== '[DONE]') console.log(JSON.parse(data).choices[0]?.text ?? '');\n` +
    `  }\n` +
    `}\n`
  );
}

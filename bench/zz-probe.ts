import { spawn } from 'node:child_process';
import { freePort, serverSkip } from '../test/e2e/llama-server';
serverSkip();
const port = await freePort();
const child = spawn('chroot', ['/var/cache/inpage-llm/sid-server', 'llama-server', '-m', '/tmp/inpage-llm-test/inpage-test.gguf', '--host', '127.0.0.1', '--port', String(port), '-t', '1', '--no-webui', ...process.argv.slice(2)], { stdio: ['ignore', 'ignore', 'pipe'] });
let log = ''; child.stderr.on('data', (c) => (log += c));
for (let i = 0; i < 100; i++) { if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) break; await new Promise((r) => setTimeout(r, 100)); }
const post = async (path: string, body: unknown) => { const r = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }); return `${r.status} ${[...r.headers].filter(([k]) => k === 'content-type')} ${(await r.text()).slice(0, 1500)}`; };
console.log('EMB', await post('/v1/embeddings', { model: 'x', input: ['ab', 'c'] }));
console.log('RESP', await post('/v1/responses', { model: 'x', input: 'abc', max_output_tokens: 5, temperature: 0 }));
console.log('RESPS', await post('/v1/responses', { model: 'x', input: 'abc', max_output_tokens: 5, temperature: 0, stream: true }));
console.log('CHAT', await post('/v1/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'abc' }], max_tokens: 5, temperature: 0 }));
console.log('MODELS', await (await fetch(`http://127.0.0.1:${port}/v1/models`)).text());
child.kill('SIGKILL');

// Compares two media-probe runs (native, then wasm) of the same graph, line by line: each node's
// relative difference of its absolute sum and its largest difference in the first values, each
// GELU value that differs by more than 1e-6, and the embeddings'.
//   usage: node compare.mjs NATIVE.txt WASM.txt
import { readFileSync } from 'node:fs';

const [native, wasm] = process.argv.slice(2).map((path) => readFileSync(path, 'utf8').trim().split('\n'));
const stats = (line) => {
  const match = / sum=(\S+)(?: asum=(\S+))? v=(\S+)/.exec(line);
  return match && { asum: Number(match[2] ?? match[1]), values: match[3].split(',').map(Number) };
};
if (native.length !== wasm.length) throw new Error(`the graphs differ: ${native.length} and ${wasm.length} lines`);
native.forEach((line, i) => {
  const other = wasm[i];
  if (line.startsWith('G ')) {
    const [, index, a] = line.split(' ');
    const b = Number(other.split(' ')[2]);
    if (Math.abs(Number(a) - b) > 1e-6) console.log(`  GELU value ${index}: ${a} native, ${b} wasm`);
    return;
  }
  const [x, y] = [stats(line), stats(other)];
  const name = line.slice(0, 41).trim();
  if (!x || !y) return console.log(`${name.padEnd(42)} (not F32 or a view)`);
  const rel = Math.abs(x.asum - y.asum) / Math.max(Math.abs(x.asum), 1e-30);
  const dv = Math.max(...x.values.map((v, j) => Math.abs(v - y.values[j])));
  console.log(`${name.padEnd(42)} |sum| rel. diff ${rel.toExponential(2)}  first values ${dv.toExponential(2)}`);
});

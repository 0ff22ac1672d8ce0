/**
 * Native llama.cpp's own measure of batched decode: Debian's `llama-batched-bench` (package
 * llama.cpp-tools-extra, installed in the server chroot on first use) on a GGUF placed there (`placeModel`), with one KV
 * cache stream per sequence as the page's slots and `llama-server -np N` have them. It decodes B
 * sequences a step with no server, sampling or page around it: the kernels' share of a batch's
 * gain. Its S_TG column: total decode tok/s of B sequences after a short prompt each.
 */
import { modelInChroot, runInServerChroot } from '../test/e2e/llama-server';

/** Decode tok/s for each B of `streams` (B sequences, `tokens` tokens each after a 16-token prompt). */
export async function nativeBatched(
  model: string,
  threads: number,
  streams: readonly number[],
  tokens: number,
): Promise<Map<number, number>> {
  const out = await runInServerChroot(
    'llama-batched-bench',
    [
      ...['-m', modelInChroot(model), '-c', '4096', '-b', '512', '-ub', '512'],
      ...[
        '-npp',
        '16',
        '-ntg',
        String(tokens),
        '-npl',
        streams.join(','),
        '-t',
        String(threads),
        '-tb',
        String(threads),
      ],
    ],
    'llama.cpp-tools-extra',
  );
  return parseBatchedBench(out);
}

/** llama-batched-bench's table: B -> S_TG t/s. */
export function parseBatchedBench(out: string): Map<number, number> {
  const rates = new Map<number, number>();
  for (const line of out.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | PP | TG | B | N_KV | T_PP s | S_PP t/s | T_TG s | S_TG t/s | T s | S t/s |
    if (cells.length < 10 || !/^\d+$/.test(cells[3] ?? '')) continue;
    rates.set(Number(cells[3]), Number(cells[8]));
  }
  if (rates.size === 0) throw new Error(`llama-batched-bench printed no table:\n${out.slice(-2000)}`);
  return rates;
}

/**
 * The GGUF fuzzer's unit tier: 300 files mutated from the two test models (gguf-mutants.ts),
 * each through the validator, which must refuse it with a GgufError that says what is wrong or
 * accept it; never throw anything else, never hang. A failing case prints its master seed,
 * id and mutation (`GGUF_FUZZ_SEED=<seed>` reproduces the whole set); the end prints the counts.
 */
import { describe, expect, it } from 'vitest';
import { buildInpageTestModel } from '../../../../src/builtin-model/inpage-test-model';
import { GgufError } from '../../../../src/gguf/gguf-error';
import { validateGguf } from '../../../../src/gguf/validate-gguf';
import { loadQwen3Tokenizer } from '../../../../scripts/load-qwen3-tokenizer';
import { buildInpageTestQwen3Model } from '../../../fixtures/inpage-test-qwen3-model';
import { ggufMutants, masterSeed, MUTATION_KINDS, type Mutant } from '../../../fixtures/gguf-mutants';

const seed = masterSeed();
const TINY = 10;
const QWEN3 = 2;
const tiny = buildInpageTestModel();
const qwen3 = buildInpageTestQwen3Model(await loadQwen3Tokenizer());

/** What the validator made of a mutant: accepted, or refused with this message. */
async function outcome(mutant: Mutant): Promise<{ accepted: true } | { accepted: false; message: string }> {
  try {
    await validateGguf(mutant.blob());
    return { accepted: true };
  } catch (error) {
    const where = `GGUF_FUZZ_SEED=${seed} ${mutant.id} (seed ${mutant.seed}): ${mutant.mutation}`;
    if (!(error instanceof GgufError)) throw new Error(`${where}: threw ${String(error)}`, { cause: error });
    return { accepted: false, message: error.message };
  }
}

describe('GGUF fuzzer (validator)', () => {
  it('the unmutated models pass', async () => {
    await expect(validateGguf(new Blob([tiny]))).resolves.toMatchObject({ architecture: 'llama' });
    await expect(validateGguf(new Blob([qwen3]))).resolves.toMatchObject({ architecture: 'qwen3' });
  });

  it('300 mutants of both models: each refused with a clear message, or accepted', { timeout: 240_000 }, async () => {
    // Fewer of the qwen3 model: each of its mutants reads a 151k-token vocabulary (~0.3 s here).
    const mutants = [
      ...ggufMutants('inpage-test', tiny, seed, TINY),
      ...ggufMutants('inpage-test-qwen3', qwen3, seed, QWEN3),
    ];
    expect(mutants.length).toBeGreaterThanOrEqual(300);
    const counts = new Map<string, number>();
    const refusedByKind = new Map<string, number>();
    for (const mutant of mutants) {
      const result = await outcome(mutant);
      const key = result.accepted ? 'accepted' : 'refused';
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (!result.accepted) {
        const kind = mutant.mutation.split(':')[0] ?? '';
        refusedByKind.set(kind, (refusedByKind.get(kind) ?? 0) + 1);
        // A precise message: it names what (a tensor, a key, the header) and is not a bare failure.
        expect(result.message, `${mutant.id} ${mutant.mutation}`).toMatch(/tensor|key|header|GGUF|token|alignment|\./);
        expect(result.message.length, `${mutant.id}`).toBeGreaterThan(20);
      }
    }
    console.log(`GGUF fuzz (seed ${seed}): ${mutants.length} mutants,`, Object.fromEntries(counts));
    // Mutations that always break the file are always refused.
    for (const kind of ['not a GGUF file', 'absurd count', 'offset past the end', 'duplicate tensor', 'duplicate key'])
      expect(refusedByKind.get(kind), kind).toBe(TINY + QWEN3);
    expect(mutants.length).toBe(MUTATION_KINDS.length * (TINY + QWEN3));
  });
});

import { describe, expect, it } from 'vitest';
import { validateInfill } from '../../../../../../worker/sw/routes/llama-server/validate-infill';

const base = { model: 'm', input_prefix: 'ab', input_suffix: 'yz' };

describe('validateInfill', () => {
  it("applies llama-server's defaults: up to the context, no files, no prompt, the table's sampling defaults", () => {
    const body = validateInfill(base);
    expect(body).toMatchObject({
      input_extra: [],
      prompt: '',
      max_tokens: null,
      stop: [],
      stream: false,
      return_tokens: false,
      cache_prompt: true,
      temperature: 1,
      grammar: null,
    });
  });

  it('reads n_predict (or max_tokens), files (filename tmp when left out), aliases; ignores unknown keys', () => {
    const body = validateInfill({
      ...base,
      n_predict: 5,
      input_extra: [{ text: 'x' }, { filename: 'a.py', text: 'y' }],
      repeat_penalty: 1.1,
      id_slot: 3,
      n_probs: 2,
      stop: ['\n'],
    });
    expect(body.max_tokens).toBe(5);
    expect(body.input_extra).toEqual([
      { filename: 'tmp', text: 'x' },
      { filename: 'a.py', text: 'y' },
    ]);
    expect(body.repetition_penalty).toBe(1.1);
    expect(body.stop).toEqual(['\n']);
    expect(validateInfill({ ...base, max_tokens: -1 }).max_tokens).toBeNull();
  });

  it('refuses what llama-server refuses, naming the field', () => {
    expect(() => validateInfill({ model: 'm', input_suffix: 'x' })).toThrow(/input_prefix/);
    expect(() => validateInfill({ model: 'm', input_prefix: 'x' })).toThrow(/input_suffix/);
    expect(() => validateInfill({ ...base, input_prefix: 1 })).toThrow(/input_prefix/);
    expect(() => validateInfill({ ...base, input_extra: 'x' })).toThrow(/input_extra/);
    expect(() => validateInfill({ ...base, input_extra: [{ filename: 'a' }] })).toThrow(/input_extra\[0\]\.text/);
    expect(() => validateInfill({ ...base, input_extra: [{ filename: 1, text: '' }] })).toThrow(/filename/);
    expect(() => validateInfill({ ...base, temperature: 'hot' })).toThrow(/temperature/);
    expect(() => validateInfill({ ...base, n_predict: -2 })).toThrow(/n_predict/);
    expect(() => validateInfill([])).toThrow(/JSON object/);
  });
});

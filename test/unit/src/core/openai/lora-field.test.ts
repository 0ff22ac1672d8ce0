import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { loraField, readLora } from '../../../../../src/core/openai/lora-field';

const parse = (input: unknown) => {
  const parsed = v.safeParse(loraField('lora'), input);
  return parsed.success ? { ok: readLora(parsed.output) } : { error: parsed.issues[0].message };
};

describe('lora field', () => {
  it('takes an array of {id, scale}, negative and zero scales too', () => {
    expect(
      parse([
        { id: 0, scale: 1 },
        { id: 3, scale: -0.5 },
        { id: 1, scale: 0 },
      ]),
    ).toEqual({
      ok: [
        { id: 0, scale: 1 },
        { id: 3, scale: -0.5 },
        { id: 1, scale: 0 },
      ],
    });
    expect(parse([])).toEqual({ ok: [] });
    expect(readLora(null)).toEqual([]);
  });

  it('refuses what is not an array of {id, scale}, naming the part', () => {
    expect(parse({ id: 0, scale: 1 }).error).toMatch(/^Invalid type for 'lora': expected an array of \{id, scale\}/);
    expect(parse([{ id: 0 }]).error).toBe("Missing 'lora[].scale': each entry is {id, scale}.");
    expect(parse([{ scale: 1 }]).error).toBe("Missing 'lora[].id': each entry is {id, scale}.");
    expect(parse([{ id: -1, scale: 1 }]).error).toMatch(/'lora\[\].id': expected a value >= 0/);
    expect(parse([{ id: 0.5, scale: 1 }]).error).toMatch(/'lora\[\].id': expected an integer/);
    expect(parse([{ id: 0, scale: '1' }]).error).toMatch(/'lora\[\].scale': expected a number/);
    expect(parse([{ id: 0, scale: Infinity }]).error).toMatch(/'lora\[\].scale': expected a finite number/);
    expect(parse(['a']).error).toMatch(/^Invalid type for 'lora'/);
  });
});

import { describe, expect, it } from 'vitest';
import { OpenAIError } from '../../../../../src/core/domain/errors';
import { checkWellFormed, findLoneSurrogate } from '../../../../../src/core/domain/lone-surrogate';

const HIGH = '\uD83D';
const LOW = '\uDE00';
const PAIR = HIGH + LOW; // 😀

/** Each way a surrogate can be alone: high or low, alone or reversed, at the start, middle or end. */
const LONE = [HIGH, LOW, LOW + HIGH];
const placements = (lone: string) => [lone, `${lone}ab`, `a${lone}b`, `ab${lone}`, `${PAIR}${lone}`, `${lone}${PAIR}`];

/** The body as a client sends it: `JSON.stringify` escapes each lone surrogate (`\ud83d`). */
const roundTrip = (value: unknown) => {
  const source = JSON.stringify(value);
  return { value: JSON.parse(source) as unknown, source };
};

describe('findLoneSurrogate', () => {
  for (const lone of LONE) {
    for (const text of placements(lone)) {
      it(`finds ${JSON.stringify(text)} in a value and in a key`, () => {
        const inValue = roundTrip({ prompt: text });
        expect(findLoneSurrogate(inValue.value, inValue.source)).toEqual({ path: 'prompt', inKey: false });
        const inKey = roundTrip({ logit_bias: { [text]: 1 } });
        expect(findLoneSurrogate(inKey.value, inKey.source)).toEqual({
          path: `logit_bias[${JSON.stringify(text)}]`,
          inKey: true,
        });
      });
    }
  }

  it('passes well-formed text: pairs, U+FFFD, astral characters, escaped backslashes', () => {
    for (const text of ['', 'abc', PAIR, `a${PAIR}b${PAIR}`, '\uFFFD', '𝔸 café 你好', '\\ud800']) {
      const { value, source } = roundTrip({ prompt: text, [text]: [text] });
      expect(findLoneSurrogate(value, source)).toBeUndefined();
      expect(findLoneSurrogate(value)).toBeUndefined();
    }
  });

  it('names nested fields as the validators do: arrays, content parts, tools, schemas', () => {
    const cases: Array<[unknown, string]> = [
      [{ prompt: ['ok', ['x'], `a${HIGH}`] }, 'prompt[2]'],
      [{ messages: [{ role: 'user', content: [{ type: 'text', text: LOW }] }] }, 'messages[0].content[0].text'],
      [{ stop: ['ok', `x${LOW}`] }, 'stop[1]'],
      [{ tools: [{ type: 'function', function: { name: 'f', description: HIGH } }] }, 'tools[0].function.description'],
      [
        { response_format: { json_schema: { schema: { properties: { 'a b': { enum: ['x', HIGH] } } } } } },
        'response_format.json_schema.schema.properties["a b"].enum[1]',
      ],
      [{ input: [{ role: 'user', content: [{ type: 'input_text', text: `z${HIGH}` }] }] }, 'input[0].content[0].text'],
      [[`${LOW}`], '[0]'],
    ];
    for (const [body, path] of cases) {
      const { value, source } = roundTrip(body);
      expect(findLoneSurrogate(value, source)?.path).toBe(path);
    }
  });

  it('reports the first in document order', () => {
    const { value, source } = roundTrip({ model: 'm', suffix: HIGH, prompt: LOW });
    expect(findLoneSurrogate(value, source)?.path).toBe('suffix');
  });

  it('walks any depth JSON.parse accepts without a stack overflow', () => {
    const depth = 100_000;
    const source = `${'['.repeat(depth)}"${'\\ud800'}"${']'.repeat(depth)}`;
    const found = findLoneSurrogate(JSON.parse(source), source);
    expect(found?.path.length).toBeGreaterThan(depth);
  });
});

describe('checkWellFormed', () => {
  it('is a 400 invalid_unicode naming the field', () => {
    const { value, source } = roundTrip({ messages: [{ role: 'user', content: `ab${HIGH}` }] });
    let thrown: unknown;
    try {
      checkWellFormed(value, source);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OpenAIError);
    const error = thrown as OpenAIError;
    expect([error.status, error.type, error.code, error.param]).toEqual([
      400,
      'invalid_request_error',
      'invalid_unicode',
      'messages[0].content',
    ]);
    expect(error.message).toMatch(/^Invalid value for 'messages\[0\]\.content': .*lone UTF-16 surrogate/);
  });

  it('says "key" for a key, and the body for a bare string; its error body is well-formed', () => {
    expect(() => checkWellFormed({ [`k${LOW}`]: 1 })).toThrow(/^Invalid key in '\["k\\udE00"\]'/i);
    expect(() => checkWellFormed(HIGH)).toThrow(/^Invalid value for the request body/);
    try {
      checkWellFormed({ [`k${LOW}`]: 1 });
    } catch (error) {
      expect(findLoneSurrogate(JSON.stringify((error as OpenAIError).toBody()))).toBeUndefined();
    }
  });

  it('names the field whose JSON text held it, and where inside', () => {
    const text = JSON.stringify({ type: 'string', enum: ['x', HIGH] });
    expect(() => checkWellFormed(JSON.parse(text), text, 'json_schema')).toThrow(
      /^Invalid value for 'json_schema' \(its JSON text, at 'enum\[1\]'\)/,
    );
  });

  it('lets a well-formed body through', () => {
    expect(() => checkWellFormed({ prompt: PAIR, stop: ['\uFFFD'] })).not.toThrow();
  });
});

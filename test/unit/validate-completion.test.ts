import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/core/errors';
import { validateCompletion } from '../../src/core/openai/validate-completion';

const base = { model: 'inpage-test', prompt: 'Hello' };

/** Runs `validateCompletion` and returns the InvalidRequestError it throws (fails otherwise). */
function rejection(body: unknown): InvalidRequestError {
  try {
    validateCompletion(body);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    if (error instanceof InvalidRequestError) {
      expect(error.status).toBe(400);
      expect(error.type).toBe('invalid_request_error');
      return error;
    }
  }
  throw new Error(`expected a 400 for ${JSON.stringify(body)}`);
}

describe('validateCompletion: defaults', () => {
  it('applies every default to a minimal body', () => {
    expect(validateCompletion(base)).toEqual({
      model: 'inpage-test', prompt: 'Hello', max_tokens: 16, temperature: 1, top_p: 1,
      stop: [], seed: null, stream: false, include_usage: false,
    });
  });

  it('treats null values as absent', () => {
    const nulls = { max_tokens: null, temperature: null, top_p: null, stop: null, seed: null, stream: null, stream_options: null, user: null };
    expect(validateCompletion({ ...base, ...nulls })).toEqual(validateCompletion(base));
  });

  it('keeps explicit values', () => {
    const out = validateCompletion({
      ...base, max_tokens: 3, temperature: 0, top_p: 0.5, stop: ['a', 'b'], seed: -7, stream: true,
      stream_options: { include_usage: true }, user: 'u',
    });
    expect(out).toEqual({
      model: 'inpage-test', prompt: 'Hello', max_tokens: 3, temperature: 0, top_p: 0.5,
      stop: ['a', 'b'], seed: -7, stream: true, include_usage: true,
    });
  });

  it('turns a stop string into an array', () => {
    expect(validateCompletion({ ...base, stop: '\n' }).stop).toEqual(['\n']);
  });

  it('accepts an empty prompt', () => {
    expect(validateCompletion({ ...base, prompt: '' }).prompt).toBe('');
  });
});

describe('validateCompletion: invalid fields', () => {
  const cases: Array<[string, unknown]> = [
    ['model', 5], ['model', ''], ['model', null],
    ['prompt', 5], ['prompt', null],
    ['max_tokens', 'x'], ['max_tokens', 0], ['max_tokens', 1.5], ['max_tokens', -1],
    ['temperature', -0.1], ['temperature', 2.1], ['temperature', '1'],
    ['top_p', 0], ['top_p', 1.1], ['top_p', '0.5'],
    ['stop', 5], ['stop', ['']], ['stop', [1]],
    ['seed', 1.5], ['seed', '1'],
    ['stream', 'yes'],
    ['stream_options', 'x'],
    ['user', 5],
  ];
  it.each(cases)('%s = %j -> 400 naming the field', (param, value) => {
    const error = rejection({ ...base, stream: true, [param]: value });
    expect(error.param).toBe(param);
    expect(error.message).toContain(param);
  });

  it('names the nested field of stream_options', () => {
    expect(rejection({ ...base, stream: true, stream_options: { include_usage: 'yes' } }).param).toBe('stream_options.include_usage');
  });

  it.each(['model', 'prompt'])('missing %s -> missing_required_parameter', (param) => {
    const body: Record<string, unknown> = { ...base };
    delete body[param];
    const error = rejection(body);
    expect(error.param).toBe(param);
    expect(error.code).toBe('missing_required_parameter');
  });

  it('rejects an unknown key', () => {
    const error = rejection({ ...base, foo: 1 });
    expect(error.message).toBe('Unrecognized request argument supplied: foo');
    expect(error.param).toBe('foo');
  });

  it('rejects an array prompt', () => {
    expect(rejection({ ...base, prompt: ['a', 'b'] }).param).toBe('prompt');
    expect(rejection({ ...base, prompt: [1, 2] }).param).toBe('prompt');
  });

  it('rejects stream_options without stream: true', () => {
    expect(rejection({ ...base, stream_options: { include_usage: true } }).param).toBe('stream_options');
    expect(rejection({ ...base, stream: false, stream_options: {} }).param).toBe('stream_options');
  });

  it.each([null, [], 'x', 3, undefined])('rejects the non-object body %j', (body) => {
    expect(rejection(body).param).toBeNull();
  });
});

describe('validateCompletion: unsupported parameters', () => {
  const nonDefault: Array<[string, unknown]> = [
    ['n', 2], ['best_of', 2], ['echo', true], ['logprobs', 1], ['logprobs', 0], ['suffix', 'x'],
    ['presence_penalty', 0.5], ['frequency_penalty', 1], ['logit_bias', { '1': 5 }],
  ];
  it.each(nonDefault)('%s = %j -> unsupported_parameter', (param, value) => {
    const error = rejection({ ...base, [param]: value });
    expect(error.param).toBe(param);
    expect(error.code).toBe('unsupported_parameter');
  });

  it('accepts their defaults', () => {
    const defaults = { n: 1, best_of: 1, echo: false, logprobs: null, suffix: '', presence_penalty: 0, frequency_penalty: 0, logit_bias: {} };
    expect(validateCompletion({ ...base, ...defaults })).toEqual(validateCompletion(base));
  });
});

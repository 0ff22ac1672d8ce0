import { describe, expect, it } from 'vitest';
import {
  InternalServerError,
  InvalidRequestError,
  NotFoundError,
  OpenAIError,
  ServiceUnavailableError,
  MAX_MESSAGE_LENGTH,
  MAX_PARAM_LENGTH,
  isWireError,
  toOpenAIError,
} from '../../../../../src/core/domain/errors';

describe('OpenAIError subclasses', () => {
  it.each([
    [
      'InvalidRequestError',
      new InvalidRequestError('bad', 'prompt'),
      400,
      'invalid_request_error',
      'prompt',
      'invalid_value',
    ],
    ['NotFoundError', new NotFoundError('no model', 'model'), 404, 'invalid_request_error', 'model', 'model_not_found'],
    ['ServiceUnavailableError', new ServiceUnavailableError('down'), 503, 'server_error', null, 'engine_unavailable'],
    ['InternalServerError', new InternalServerError('boom'), 500, 'server_error', null, 'internal_error'],
  ])('%s has its status, type, param and default code', (_name, error, status, type, param, code) => {
    expect(error).toBeInstanceOf(OpenAIError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(status);
    expect(error.type).toBe(type);
    expect(error.param).toBe(param);
    expect(error.code).toBe(code);
  });

  it('takes an explicit code', () => {
    expect(new InvalidRequestError('m', 'x', 'unsupported_parameter').code).toBe('unsupported_parameter');
    expect(new InvalidRequestError('m', null, null).code).toBeNull();
    expect(new ServiceUnavailableError('m', 'no_engine').code).toBe('no_engine');
  });

  it('defaults param and code to null on the base class', () => {
    const error = new OpenAIError(418, 'teapot', 'custom');
    expect(error.param).toBeNull();
    expect(error.code).toBeNull();
    expect(error.name).toBe('OpenAIError');
  });
});

describe('toBody / toResponse', () => {
  it('has exactly the OpenAI error shape', () => {
    const body = new InvalidRequestError("Invalid 'top_p'", 'top_p').toBody();
    expect(body).toStrictEqual({
      error: { message: "Invalid 'top_p'", type: 'invalid_request_error', param: 'top_p', code: 'invalid_value' },
    });
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  });

  it('keeps null param and code as null keys', () => {
    expect(new InternalServerError('x', null).toBody()).toStrictEqual({
      error: { message: 'x', type: 'server_error', param: null, code: null },
    });
  });

  it('builds a JSON response with the status', async () => {
    const error = new NotFoundError("The model 'x' does not exist", 'model');
    const response = error.toResponse({ 'x-extra': '1' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-extra')).toBe('1');
    expect(await response.json()).toStrictEqual(error.toBody());
  });

  it('uses application/json without extra headers', async () => {
    const response = new ServiceUnavailableError('down').toResponse();
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(
      JSON.stringify({ error: { message: 'down', type: 'server_error', param: null, code: 'engine_unavailable' } }),
    );
  });
});

describe('toWire / fromWire', () => {
  it('round-trips through structuredClone', () => {
    const original = new InvalidRequestError("Invalid 'seed'", 'seed', 'invalid_type');
    const wire = structuredClone(original.toWire());
    expect(isWireError(wire)).toBe(true);
    const back = OpenAIError.fromWire(wire);
    expect(back).toBeInstanceOf(OpenAIError);
    expect(back.status).toBe(400);
    expect(back.message).toBe("Invalid 'seed'");
    expect(back.type).toBe('invalid_request_error');
    expect(back.param).toBe('seed');
    expect(back.code).toBe('invalid_type');
    expect(back.toBody()).toStrictEqual(original.toBody());
  });

  it('has the { status, body } wire shape', () => {
    expect(new InternalServerError('x').toWire()).toStrictEqual({
      status: 500,
      body: { error: { message: 'x', type: 'server_error', param: null, code: 'internal_error' } },
    });
  });
});

describe('toOpenAIError', () => {
  it('maps an Error to a 500 with its message', () => {
    const error = toOpenAIError(new TypeError('kaput'));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(500);
    expect(error.message).toBe('kaput');
  });

  it('maps a string to a 500 with that message', () => {
    const error = toOpenAIError('plain');
    expect(error.status).toBe(500);
    expect(error.message).toBe('plain');
  });

  it('gives an empty message a fallback', () => {
    expect(toOpenAIError(new Error('')).message).toBe('Internal error');
  });

  it('returns an OpenAIError unchanged', () => {
    const error = new NotFoundError('gone');
    expect(toOpenAIError(error)).toBe(error);
  });
});

describe('isWireError', () => {
  it('accepts wire errors', () => {
    expect(isWireError(new NotFoundError('x').toWire())).toBe(true);
    expect(isWireError({ status: 500, body: { error: { message: 'm' } } })).toBe(true);
  });

  it.each([
    null,
    undefined,
    'error',
    42,
    [],
    { status: '500', body: { error: {} } },
    { body: { error: {} } },
    { status: 500, body: { error: {} } },
    { status: 500, body: { error: null } },
    { status: 500 },
    { status: 500, body: null },
    { status: 500, body: 'x' },
    { status: 500, body: {} },
  ])('rejects %j', (value) => {
    expect(isWireError(value)).toBe(false);
  });
});

describe('bounded echo of user input', () => {
  it('cuts a long message and param, saying how long they were', () => {
    const name = 'm'.repeat(5_000_000);
    const error = new NotFoundError(`The model '${name}' does not exist.`, name);
    expect(error.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(error.message).toMatch(/^The model 'mmm/);
    expect(error.message).toContain('5000028 characters in all');
    expect(error.param?.length).toBeLessThanOrEqual(MAX_PARAM_LENGTH);
    expect(JSON.stringify(error.toBody()).length).toBeLessThan(2000);
  });

  it('keeps short messages as they are and never ends on half a surrogate pair', () => {
    expect(new InvalidRequestError('short', 'p').message).toBe('short');
    const emoji = new InvalidRequestError('😀'.repeat(2000)).message;
    expect(emoji).not.toMatch(/[\uD800-\uDBFF]\.\.\./);
  });
});

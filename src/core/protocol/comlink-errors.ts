import { transferHandlers, type TransferHandler } from 'comlink';
import { InternalServerError, isWireError, OpenAIError, toOpenAIError, type WireError } from '../domain/errors';

/**
 * Comlink's default 'throw' handler keeps only message/stack; this one (same `canHandle`,
 * which checks comlink's private thrown marker) sends every error as an `OpenAIError` wire
 * value so status, type and code survive the hop. Register it on both sides.
 */
export function registerErrorTransfer(): void {
  const base = transferHandlers.get('throw');
  if (!base) throw new InternalServerError('comlink has no throw handler to extend');
  const handler: TransferHandler<unknown, WireError> = {
    canHandle: (value): value is unknown => base.canHandle(value),
    serialize: (thrown) => {
      const value: unknown = typeof thrown === 'object' && thrown !== null ? Reflect.get(thrown, 'value') : thrown;
      return [toOpenAIError(value).toWire(), []];
    },
    deserialize: (wire) => {
      throw isWireError(wire) ? OpenAIError.fromWire(wire) : toOpenAIError(wire);
    },
  };
  transferHandlers.set('throw', handler);
}

/**
 * OpenAI's dialect: `Authorization: Bearer <key>`, errors as `{"error":{message,type,param,code}}`,
 * and a failed stream ends with that object as one `data:` frame (the SDKs JSON-parse every
 * `data:` line), without `[DONE]`.
 */
import type { OpenAIError } from '#core/domain/errors';
import { sseFrame } from '../sse';
import type { Dialect } from './dialect';

export const OPENAI_DIALECT: Dialect = {
  name: 'openai',
  apiKeyOf: (request) => /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1],
  missingKey: "You didn't provide an API key. Provide it in an Authorization header (Bearer auth).",
  errorBody: (error: OpenAIError) => error.toBody(),
  errorFrame: (error: OpenAIError) => sseFrame(error.toBody()),
};

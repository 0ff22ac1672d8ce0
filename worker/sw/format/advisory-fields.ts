/**
 * Request fields OpenAI accepts that cannot change the generated text here, so the chat and
 * Responses validators type-check them and then drop them: storage and bookkeeping (`store`,
 * `metadata`, `safety_identifier`), billing and OpenAI's prompt cache (`service_tier`,
 * `prompt_cache_key`, `prompt_cache_retention`). Clients send them from their settings (the AI
 * SDK's `providerOptions.openai`, LlamaIndex's `store`), and rejecting them would break those
 * clients for nothing. Fields that would change the answer stay 400s.
 */
import * as v from 'valibot';
import { describeValue } from '#core/openai/describe-value';
import { booleanField, stringField } from '#core/openai/fields';

const metadataField = v.record(
  v.string(),
  v.string(),
  (issue) =>
    `Invalid type for 'metadata': expected an object of string values, but got ${describeValue(issue.input)} instead.`,
);

/** Each advisory field's schema (null or absent is accepted too). */
export const ADVISORY_FIELDS = {
  store: v.nullish(booleanField('store')),
  metadata: v.nullish(metadataField),
  service_tier: v.nullish(stringField('service_tier')),
  prompt_cache_key: v.nullish(stringField('prompt_cache_key')),
  prompt_cache_retention: v.nullish(stringField('prompt_cache_retention')),
  safety_identifier: v.nullish(stringField('safety_identifier')),
};

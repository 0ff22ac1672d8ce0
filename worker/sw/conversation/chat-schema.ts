/**
 * The valibot schema of a `/v1/chat/completions` body's scalar fields. The sampler fields and the
 * llama.cpp/vLLM extras are the completions endpoint's own field schemas (`CHAT_SHARED_FIELDS`);
 * messages, tools, tool_choice and response_format are shape-checked by their own validators.
 */
import * as v from 'valibot';
import { completionSchema } from '#core/openai/completion-schema';
import { booleanField, integerField, stringField } from '#core/openai/fields';
import { MAX_REASONING_BUDGET } from '#core/domain/reasoning-budget';
import { PARAMETER_NAMES } from '#core/domain/parameters';
import { llamaServerFields } from '#core/openai/llama-server-fields';
import { ADVISORY_FIELDS } from '../format/advisory-fields';

/**
 * Fields a chat body accepts exactly as `/v1/completions` does (same names, ranges, messages;
 * aliases via `resolveAliases`): chat's share of the completions fields, then every row of the
 * parameter table.
 */
export const CHAT_SHARED_FIELDS = [
  'model',
  'n',
  'stop',
  'stream',
  'stream_options',
  'user',
  'cache_prompt',
  ...PARAMETER_NAMES,
  ...(Object.keys(llamaServerFields) as Array<keyof typeof llamaServerFields>),
] as const satisfies ReadonlyArray<keyof typeof completionSchema.entries>;

export const MAX_TOP_LOGPROBS = 20;

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;

export const VERBOSITIES = ['low', 'medium', 'high'] as const;

/** llama-server's `reasoning_format`: `none` leaves the reasoning in the content; the others split it out. */
export const REASONING_FORMATS = ['none', 'auto', 'deepseek', 'deepseek-legacy'] as const;

const nullish = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

export const chatSchema = v.object({
  ...v.pick(completionSchema, CHAT_SHARED_FIELDS).entries,
  messages: v.optional(v.unknown()),
  max_tokens: nullish(integerField('max_tokens', -1)),
  max_completion_tokens: nullish(integerField('max_completion_tokens', -1)),
  logprobs: nullish(booleanField('logprobs')),
  top_logprobs: nullish(integerField('top_logprobs', 0, MAX_TOP_LOGPROBS)),
  tools: v.optional(v.unknown()),
  tool_choice: v.optional(v.unknown()),
  parallel_tool_calls: nullish(booleanField('parallel_tool_calls')),
  response_format: v.optional(v.unknown()),
  continue_final_message: v.optional(v.unknown()),
  add_generation_prompt: nullish(booleanField('add_generation_prompt')),
  chat_template_kwargs: nullish(
    v.record(v.string(), v.unknown(), "Invalid type for 'chat_template_kwargs': expected an object."),
  ),
  reasoning_effort: nullish(
    v.picklist(
      REASONING_EFFORTS,
      (issue) =>
        `Invalid value for 'reasoning_effort': expected one of ${REASONING_EFFORTS.map((e) => `'${e}'`).join(', ')}, but got ${JSON.stringify(issue.input)}.`,
    ),
  ),
  // llama-server's reasoning budget (reasoning-budget.ts); thinking_budget_tokens is its older name.
  reasoning_budget_tokens: nullish(integerField('reasoning_budget_tokens', -1, MAX_REASONING_BUDGET)),
  thinking_budget_tokens: nullish(integerField('thinking_budget_tokens', -1, MAX_REASONING_BUDGET)),
  reasoning_budget_message: nullish(stringField('reasoning_budget_message')),
  reasoning_control: nullish(booleanField('reasoning_control')),
  reasoning_format: nullish(
    v.picklist(
      REASONING_FORMATS,
      (issue) =>
        `Invalid value for 'reasoning_format': expected one of ${REASONING_FORMATS.map((f) => `'${f}'`).join(', ')}, but got ${JSON.stringify(issue.input)}.`,
    ),
  ),
  // Accepted and ignored: they cannot change the text (see advisory-fields.ts). `verbosity` is a
  // length hint for OpenAI's reasoning models (Responses takes it as `text.verbosity`);
  // `prediction` (Predicted Outputs) only speeds OpenAI up.
  ...ADVISORY_FIELDS,
  verbosity: nullish(
    v.picklist(
      VERBOSITIES,
      (issue) =>
        `Invalid value for 'verbosity': expected one of 'low', 'medium', 'high', but got ${JSON.stringify(issue.input)}.`,
    ),
  ),
  prediction: nullish(
    v.object(
      {
        type: v.literal('content', "Invalid value for 'prediction.type': expected 'content'."),
        content: v.union(
          [v.string(), v.array(v.unknown())],
          "Invalid type for 'prediction.content': expected a string or an array of content parts.",
        ),
      },
      "Invalid type for 'prediction': expected an object.",
    ),
  ),
});

export type ChatBody = v.InferOutput<typeof chatSchema>;

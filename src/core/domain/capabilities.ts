/**
 * What a loaded model can honour, carried on its model card so that the Service Worker refuses
 * what it cannot (a 400 naming the parameter) and over-long prompts before the engine is woken.
 * The engine runs the same check for requests that come without the SW (the direct API).
 */
import type { CapabilityName } from './capability-name';
import { InvalidRequestError } from './errors';
import { hasMedia, isChatPrompt, type GenerationRequest, type RequestPrompt } from './generation';
import { isActive, PARAMETERS, type ParameterName } from './parameters';
import { resolveSpeculative } from './speculative';
import { checkLoraScales } from './lora';
import { budgetActive } from './reasoning-budget';

/** A model's limits and the parameters and features it cannot honour. */
export interface ModelCapabilities {
  /** Table parameters and features (`FEATURES` in `capability-name.ts`). */
  unsupported: CapabilityName[];
  context_length: number;
  vocab_size: number;
  /** The longest token in UTF-8 bytes: a text prompt has at least bytes / this many tokens. */
  max_token_bytes: number;
  /** What it reads besides text, through its projector (issue 32); absent: text only. */
  modalities?: { vision: boolean; audio: boolean };
  /** How many LoRA adapters it has loaded (ids 0 to n - 1: lora.ts); absent: none. */
  lora_adapters?: number;
}

const FEATURE_MESSAGES: Partial<Record<CapabilityName, [string, string]>> = {
  generation: [
    'model',
    'This model is an embedding model or a reranker: it cannot generate text. Use /v1/embeddings (or /v1/rerank).',
  ],
  token_ids: ['prompt', "Token-id prompts are not supported by this model's backend."],
  prompt_logprobs: ['echo', "'echo' with 'logprobs' is not supported by this model's backend."],
  suffix: ['suffix', "'suffix' (fill-in-the-middle) is not supported by this model."],
  chat: [
    'model',
    'This model has no chat template (tokenizer.chat_template), so it cannot answer conversations; use /v1/completions with a prompt.',
  ],
  tools: ['tools', "'tools' (function calling) is not supported by this model's backend."],
  chat_template_kwargs: ['chat_template_kwargs', "'chat_template_kwargs' is not supported by this model's backend."],
  reasoning_effort: ['reasoning_effort', "'reasoning_effort' is not supported by this model's backend."],
  reasoning_budget: [
    'reasoning_budget_tokens',
    "A reasoning budget ('reasoning_budget_tokens', 'reasoning_control') is not supported by this model's backend.",
  ],
  logit_bias_text: [
    'logit_bias',
    "'logit_bias' with a text (llama-server's form) is not supported by this model's backend: name token ids.",
  ],
  speculative: [
    'speculative.type',
    "Speculative decoding ('speculative.type') is not supported by this model's backend.",
  ],
};

/** Why a backend may refuse a constraint feature, for the 400's message. */
const CONSTRAINT_REASONS: Partial<Record<CapabilityName, string>> = {
  grammar: '',
  gbnf_constraint: ' as a grammar (only JSON and JSON-schema constraints are)',
  prompt_constraint: ' with a text prompt (use /v1/chat/completions)',
};

/** The features and table parameters a request uses (beyond their "off" values). */
function used(request: GenerationRequest): CapabilityName[] {
  const names = Object.keys(PARAMETERS) as ParameterName[];
  const params: CapabilityName[] = ['generation', ...names.filter((name) => isActive(name, request[name]))];
  if (request.prompts.some((prompt) => Array.isArray(prompt))) params.push('token_ids');
  const chats = request.prompts.filter(isChatPrompt).map((prompt) => prompt.chat);
  if (chats.length > 0) params.push('chat');
  if (chats.some((chat) => chat.tools.length > 0)) params.push('tools');
  if (chats.some((chat) => Object.keys(chat.chat_template_kwargs).length > 0)) params.push('chat_template_kwargs');
  if (chats.some((chat) => chat.reasoning_effort !== null)) params.push('reasoning_effort');
  if (budgetActive(request.reasoning_budget) && !request.reasoning_budget.advisory) params.push('reasoning_budget');
  if (request.echo && request.logprobs !== null) params.push('prompt_logprobs');
  const speculative = request.speculative;
  if (speculative?.type === 'ngram-simple' || speculative?.type === 'draft-simple') params.push('speculative');
  if (speculative?.type === 'draft-simple' || (speculative?.type == null && (speculative?.p_min ?? 0) !== 0))
    params.push('draft_model');
  if (request.suffix !== null) params.push('suffix');
  if (request.logit_bias.some(([token]) => typeof token === 'string')) params.push('logit_bias_text');
  if (request.grammar !== null) {
    params.push('grammar');
    if (request.grammar.schema === undefined) params.push('gbnf_constraint');
    if (chats.length < request.prompts.length) params.push('prompt_constraint');
  }
  return params;
}

/** A prompt's fewest possible tokens: exact for ids, bytes / longest token for text. */
export function minPromptTokens(prompt: RequestPrompt, capabilities: ModelCapabilities): number {
  if (Array.isArray(prompt)) return prompt.length;
  // A conversation's size is known once the engine rendered it (the engine checks it then).
  if (typeof prompt !== 'string') return 0;
  // Encoding a huge prompt is linear and cheap next to tokenizing it in the engine.
  return Math.ceil(new TextEncoder().encode(prompt).length / Math.max(1, capabilities.max_token_bytes));
}

/**
 * Refuses, before any generation, what this model cannot honour: a 400 naming the parameter,
 * token ids outside the vocabulary, and prompts that cannot fit the context.
 */
export function checkCapabilities(capabilities: ModelCapabilities, request: GenerationRequest): void {
  if (request.grammar !== null && request.min_tokens > 0) {
    // A generation with min_tokens runs in two parts, and a grammar's state cannot cross them.
    throw new InvalidRequestError(
      `'min_tokens' cannot be combined with an output constraint ('${request.grammar.param}').`,
      'min_tokens',
      'unsupported_parameter',
    );
  }
  for (const name of used(request)) {
    if (!capabilities.unsupported.includes(name)) continue;
    const reason = CONSTRAINT_REASONS[name];
    if (reason !== undefined && request.grammar) {
      throw new InvalidRequestError(
        `'${request.grammar.param}' (constrained output) is not supported by this model's backend${reason}.`,
        request.grammar.param,
        'unsupported_parameter',
      );
    }
    // Its 400 names the field that asked for a draft model (`type`, or `p_min`): speculative.ts says which.
    if (name === 'draft_model') resolveSpeculative(request.speculative, false);
    const [param, message] = FEATURE_MESSAGES[name] ?? [name, `'${name}' is not supported by this model's backend.`];
    throw new InvalidRequestError(message, param, 'unsupported_parameter');
  }
  const idsByParam: Array<[string, number[]]> = [
    ['prompt', request.prompts.flatMap((prompt) => (Array.isArray(prompt) ? prompt : []))],
    ['stop_token_ids', request.stop_token_ids],
    ['logit_bias', request.logit_bias.flatMap(([token]) => (typeof token === 'number' ? [token] : []))],
  ];
  for (const [param, ids] of idsByParam) {
    const outside = ids.find((id) => id >= capabilities.vocab_size);
    if (outside !== undefined) {
      throw new InvalidRequestError(
        `Token id ${outside} in '${param}' is outside the vocabulary (size ${capabilities.vocab_size}).`,
        param,
        'invalid_token_id',
      );
    }
  }
  checkMedia(capabilities, request);
  checkLoraScales(request.lora, capabilities.lora_adapters ?? 0);
  for (const prompt of request.prompts) {
    const least = minPromptTokens(prompt, capabilities);
    if (least >= capabilities.context_length) {
      throw new InvalidRequestError(
        `The prompt is longer than the model's context: at least ${least} tokens, and the context holds ${capabilities.context_length}.`,
        'prompt',
        'context_length_exceeded',
      );
    }
  }
}

/**
 * Media the model cannot read, refused as llama-server refuses them: by the part's type on the
 * chat routes ("image input is not supported", naming the part), and `/completion`'s
 * `multimodal_data` on a model without a projector. Bytes that turn out to be the other kind
 * are refused by the engine, naming the part too.
 */
function checkMedia(capabilities: ModelCapabilities, request: GenerationRequest): void {
  for (const { media } of request.prompts.filter(hasMedia)) {
    const { modalities } = capabilities;
    if (!modalities && media.marker === null)
      throw new InvalidRequestError(
        'Multimodal data provided, but model does not support multimodal requests.',
        media.items[0]?.param ?? 'prompt',
      );
    for (const item of media.items) checkModality(capabilities, item);
  }
}

/** A media part of `kind` at `param` the model's projector cannot read: llama-server's 400, naming it. */
export function checkModality(
  { modalities }: ModelCapabilities,
  { kind, param }: { kind: 'image' | 'audio'; param: string },
): void {
  if (kind === 'image' ? modalities?.vision : modalities?.audio) return;
  throw new InvalidRequestError(
    `${kind} input is not supported - hint: if this is unexpected, you may need to load the model with its mmproj ('${param}').`,
    param,
  );
}

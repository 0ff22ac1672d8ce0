/**
 * Checks the metadata keys llama.cpp reads to build a model: present where it requires them,
 * of the exact type it reads them as (its loader refuses any other, even for an optional key),
 * and within the ranges past which it aborts instead of refusing (`block_count` over 512,
 * expert counts that do not add up, an unknown rope scaling type, a negative or NaN norm epsilon).
 */
import { GgufError } from './gguf-error';
import { GGUF_TYPE, ggufTypeName } from './gguf-types';
import type { GgufEntry, GgufHeader } from './read-gguf-header';

const { uint16: U16, uint32: U32, int32: I32, float32: F32, bool: BOOL, string: STR, array: ARR } = GGUF_TYPE;

/** A key's allowed shapes: a scalar of `type`, or an array of `items`. */
interface KeyRule {
  readonly scalar?: number;
  readonly items?: readonly number[];
}

const scalar = (type: number): KeyRule => ({ scalar: type });
const arrayOf = (...items: number[]): KeyRule => ({ items });
const ID = scalar(U32);

const GENERAL_KEYS: Record<string, KeyRule> = {
  'general.architecture': scalar(STR),
  'general.name': scalar(STR),
  'general.file_type': scalar(U32),
  'split.count': scalar(U16),
  'tokenizer.ggml.model': scalar(STR),
  'tokenizer.ggml.pre': scalar(STR),
  'tokenizer.ggml.tokens': arrayOf(STR),
  'tokenizer.ggml.token_type': arrayOf(I32),
  'tokenizer.ggml.token_type_count': scalar(U32),
  'tokenizer.ggml.scores': arrayOf(F32, I32),
  'tokenizer.ggml.merges': arrayOf(STR),
  'tokenizer.ggml.add_bos_token': scalar(BOOL),
  'tokenizer.ggml.add_eos_token': scalar(BOOL),
  'tokenizer.ggml.add_space_prefix': scalar(BOOL),
  'tokenizer.ggml.remove_extra_whitespaces': scalar(BOOL),
  'tokenizer.chat_template': scalar(STR),
  ...Object.fromEntries(
    ['bos', 'eos', 'eot', 'eom', 'unknown', 'seperator', 'padding', 'mask', 'fim_pre', 'fim_suf', 'fim_mid'].map(
      (name) => [`tokenizer.ggml.${name}_token_id`, ID],
    ),
  ),
};

const PER_LAYER = arrayOf(U32, I32, BOOL);

/** Keys under the architecture's prefix (`llama.`, `qwen3.`, ...). */
const ARCH_KEYS: Record<string, KeyRule & { perLayer?: boolean }> = {
  vocab_size: scalar(U32),
  context_length: scalar(U32),
  embedding_length: scalar(U32),
  block_count: scalar(U32),
  feed_forward_length: { ...PER_LAYER, scalar: U32, perLayer: true },
  'attention.head_count': { ...PER_LAYER, scalar: U32, perLayer: true },
  'attention.head_count_kv': { ...PER_LAYER, scalar: U32, perLayer: true },
  'attention.key_length': scalar(U32),
  'attention.value_length': scalar(U32),
  'attention.layer_norm_rms_epsilon': scalar(F32),
  'attention.layer_norm_epsilon': scalar(F32),
  'rope.dimension_count': scalar(U32),
  'rope.freq_base': scalar(F32),
  'rope.scaling.type': scalar(STR),
  'rope.scaling.factor': scalar(F32),
  expert_count: scalar(U32),
  expert_used_count: scalar(U32),
};

const REQUIRED_ARCH_KEYS = ['context_length', 'embedding_length', 'block_count'];
const MAX_LAYERS = 512;
const MAX_EXPERTS = 1024;
const ROPE_SCALING = new Set(['none', 'linear', 'yarn', 'longrope']);

/** The architecture's name (`general.architecture`), after checking the keys. */
export function checkModelKeys(header: GgufHeader): string {
  const { metadata } = header;
  const arch = metadata.get('general.architecture');
  if (arch === undefined) throw new GgufError('the required key general.architecture is missing');
  checkRule('general.architecture', arch, scalar(STR));
  const name = String(arch.value);
  if (name === '') throw new GgufError('general.architecture is empty');
  for (const [key, rule] of Object.entries(GENERAL_KEYS)) {
    const entry = metadata.get(key);
    if (entry) checkRule(key, entry, rule);
  }
  for (const [suffix, rule] of Object.entries(ARCH_KEYS)) {
    const entry = metadata.get(`${name}.${suffix}`);
    if (entry) checkRule(`${name}.${suffix}`, entry, rule);
  }
  for (const suffix of REQUIRED_ARCH_KEYS)
    if (!metadata.has(`${name}.${suffix}`)) throw new GgufError(`the required key ${name}.${suffix} is missing`);
  const layers = Number(metadata.get(`${name}.block_count`)?.value);
  if (layers < 1 || layers > MAX_LAYERS)
    throw new GgufError(`${name}.block_count is ${layers} (llama.cpp takes 1 to ${MAX_LAYERS} layers)`);
  for (const [suffix, rule] of Object.entries(ARCH_KEYS)) {
    const entry = metadata.get(`${name}.${suffix}`);
    if (rule.perLayer && Array.isArray(entry?.value) && entry.value.length !== layers)
      throw new GgufError(`${name}.${suffix} has ${entry.value.length} values for ${layers} layers`);
  }
  checkExperts(metadata, name);
  for (const suffix of ['attention.layer_norm_rms_epsilon', 'attention.layer_norm_epsilon']) {
    const eps = metadata.get(`${name}.${suffix}`)?.value;
    if (typeof eps === 'number' && !(eps >= 0))
      throw new GgufError(`${name}.${suffix} is ${eps} (llama.cpp's norm aborts unless it is at least 0)`);
  }
  const scaling = metadata.get(`${name}.rope.scaling.type`)?.value;
  if (scaling !== undefined && !ROPE_SCALING.has(String(scaling)))
    throw new GgufError(`${name}.rope.scaling.type '${String(scaling)}' is not one of ${[...ROPE_SCALING].join(', ')}`);
  return name;
}

function checkRule(key: string, entry: GgufEntry, rule: KeyRule): void {
  if (entry.type === ARR && entry.itemType !== null && rule.items?.includes(entry.itemType)) return;
  if (entry.type !== ARR && entry.type === rule.scalar) return;
  const expected = [
    ...(rule.scalar === undefined ? [] : [`a ${ggufTypeName(rule.scalar)}`]),
    ...(rule.items ?? []).map((item) => `an array of ${ggufTypeName(item)}`),
  ].join(' or ');
  throw new GgufError(`${key} must be ${expected}, it is ${describe(entry)}`);
}

function describe(entry: GgufEntry): string {
  return entry.type === ARR ? `an array of ${ggufTypeName(entry.itemType ?? -1)}` : `a ${ggufTypeName(entry.type)}`;
}

/** llama.cpp asserts (aborts) on expert counts out of line; here they are an error. */
function checkExperts(metadata: ReadonlyMap<string, GgufEntry>, arch: string): void {
  const experts = Number(metadata.get(`${arch}.expert_count`)?.value ?? 0);
  const used = Number(metadata.get(`${arch}.expert_used_count`)?.value ?? 0);
  if (experts > MAX_EXPERTS) throw new GgufError(`${arch}.expert_count is ${experts} (at most ${MAX_EXPERTS})`);
  if (used > experts || (experts > 0 && used === 0))
    throw new GgufError(`${arch}.expert_used_count is ${used} for ${experts} experts`);
}

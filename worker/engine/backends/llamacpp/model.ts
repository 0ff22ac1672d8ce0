import { InvalidRequestError } from '#core/domain/errors';
import { unsupportedOn } from '#core/domain/parameters';
import type { ModelCapabilities } from '#core/domain/capabilities';
import type { CapabilityName } from '#core/domain/capability-name';
import type { PromptInput } from '#core/domain/generation';
import type { ChatTemplate, ChatTemplateOrigin } from '#gguf/chat-template';
import type { Vocabulary } from '#gguf/vocabulary';
import type { EmbeddingResult } from '#core/domain/embedding';
import type { RerankResult } from '#core/domain/rerank';
import type { ThreadCounts } from '#core/domain/threads';
import type { Accelerator, AcceleratorChoice, AcceleratorReason } from '#core/domain/accelerator';
import type { KvCacheType } from '#core/domain/tokenize';
import type {
  ChoiceRequest,
  ChoiceRunner,
  GenerationEnd,
  GenerationEvent,
  LoadedModel,
  MediaPrompt,
  PromptToken,
  TokenInfo,
} from '../../backend';
import type { PromptSegment } from '../../chat/prompt-segments';
import { Utf8Hold } from '../../utf8-hold';
import type { Projector } from './projector';
import { EngineError, EngineInputError, SamplerError } from './engine-error';
import { RANK_POOLING, type LlamaWasm, type ModelNumbers, type RawCandidate, type SampledToken } from './llama-wasm';
import { samplerSpec } from './sampler-spec';
import { tokenSpelling } from './token-spelling';
import { Pacer } from './yield-to-events';
import { DECODE_COST_IN_PROMPT_TOKENS, PrefillSteps } from './prefill-steps';
import type { EngineGuard } from './engine-guard';
import { testTrapPoint } from './test-trap';
import { infillFim, plainFim, type FimModel } from './fim-prompt';
import type { SlotActionRequest, SlotActionResult } from '#core/domain/slots';
import type { FoundPrefix, PromptCache } from '../../prompt-cache/prompt-cache';
import { SavedContext } from './saved-context';
import { SlotFiles } from './slot-files';
import { DraftBatch, type Drafter } from './draft-batch';
import type { DraftModel } from './draft-model';
import { resolveSpeculative, type SpeculativeParams } from '#core/domain/speculative';
import { announceBusy } from '../../request-control';
import { SlotTasks } from '../../slot-tasks';
import type { GgufMeta } from '#gguf/model-meta';
import type { ModelCard, ModelMeta } from '#core/domain/model-card';
import { SlotSteps, type SampleSpec, type StepResult, type TokensResult } from './slot-steps';
import { LoraAdapters } from './lora-adapters';
import { EMBED_SEQS, inputBatches } from './input-batches';
import type { LoraAdapterInfo, LoraScale } from '#core/domain/lora';

/** True only in test builds (vite.config.ts; the package's bundles define it false): see test-trap.ts. */
declare const __INPAGE_TEST_HOOKS__: boolean;

/** A choice's prompt as it goes into a slot: token ids, or text whose markers stand for media the projector reads. */
type SlotPrompt = { ids: number[] } | { media: MediaPrompt };

/** Any choice request: its prompt is in its `SlotPrompt`. */
type AnyChoice = ChoiceRequest<unknown>;

/** The most tokens one input may have for embeddings (each input runs in one batch). */
export const EMBEDDING_BATCH = 1024;

const decoder = new TextDecoder();

/**
 * A model loaded in the project's llama.cpp engine (native/, built from llama.cpp's source).
 * The loop is here: the prompt in batches (reusing the cached prefix), then one token at a
 * time, sampled by llama.cpp's common sampler, with the raw distribution's logprobs as
 * llama-server reports them.
 */
export class LlamaCppModel implements LoadedModel {
  readonly capabilities: ModelCapabilities;
  readonly kvCacheType: KvCacheType;
  /** Whether its memory can take back a rejected draft (ModelNumbers' `partialRemoval`). */
  private readonly partialRemoval: boolean;
  /**
   * Its card shows the threads it runs on (1 and 1 where the page is not isolated), its slots, its
   * chat template's origin, and llama-server's `meta` and `architecture`.
   */
  readonly details: {
    threads: ThreadCounts;
    slots: number;
    chat_template: ChatTemplateOrigin;
    draft_model?: string;
    mmproj?: string;
    mmproj_accelerator?: Accelerator;
    modalities?: { vision: boolean; audio: boolean };
    accelerator: Accelerator;
    accelerator_reason?: AcceleratorReason;
    meta?: ModelMeta;
    architecture: NonNullable<ModelCard['architecture']>;
  };
  readonly mediaMarker?: string;
  readonly media?: ChoiceRunner<MediaPrompt>;
  private readonly steps = new PrefillSteps();
  private readonly pieces = new Map<number, number[]>();
  private readonly saved: SavedContext;
  private readonly slotFiles: SlotFiles;
  /** With more than one slot: the requests' sequences, decoded together (slot-steps.ts). */
  private readonly batch: SlotSteps | null;
  /** With one slot: told when a generation starts and ends (watchSlots). */
  private onBusy: ((busy: number[]) => void) | null = null;
  readonly slotTasks: SlotTasks;

  constructor(
    private readonly engine: LlamaWasm,
    private readonly guard: EngineGuard,
    private readonly vocab: Vocabulary,
    private readonly contextLength: number,
    readonly chatTemplate: ChatTemplate,
    threads: ThreadCounts,
    promptCache: PromptCache | null,
    slots: number,
    private readonly draft: DraftModel | null,
    projector: Projector | null,
    placement: AcceleratorChoice,
    private readonly encoder = false,
    private readonly lora = new LoraAdapters(),
    file: GgufMeta | null = null,
  ) {
    const unsupported: CapabilityName[] = unsupportedOn('llamacpp');
    // An encoder (attention not causal: BERT's) embeds and reranks; it continues no text (encoder-model.ts).
    if (encoder) unsupported.push('generation');
    if (!draft) unsupported.push('draft_model');
    if (!vocab.fim) unsupported.push('suffix');
    const info = engine.info();
    const { pooling, kvCacheType, partialRemoval } = info;
    // A reranker (rank pooling) pools to its classification head's scores, not an embedding.
    unsupported.push(pooling === RANK_POOLING ? 'embeddings' : 'rerank');
    this.capabilities = {
      unsupported,
      context_length: contextLength,
      vocab_size: vocab.size,
      max_token_bytes: vocab.maxTokenBytes,
      ...(projector ? { modalities: projector.modalities } : {}),
      ...(lora.count > 0 ? { lora_adapters: lora.count } : {}),
    };
    this.kvCacheType = kvCacheType;
    this.partialRemoval = partialRemoval;
    this.details = {
      threads,
      slots,
      chat_template: chatTemplate.origin,
      ...(draft ? { draft_model: draft.id } : {}),
      ...(projector
        ? { mmproj: projector.id, mmproj_accelerator: projector.accelerator, modalities: projector.modalities }
        : {}),
      accelerator: placement.accelerator,
      ...(placement.accelerator === 'cpu' ? { accelerator_reason: placement.reason } : {}),
      ...(file ? { meta: modelMeta(file, info, contextLength) } : {}),
      architecture: {
        input_modalities: [
          'text',
          ...(projector?.modalities.vision ? ['image' as const] : []),
          ...(projector?.modalities.audio ? ['audio' as const] : []),
        ],
        output_modalities: ['text'],
      },
    };
    if (projector) {
      this.mediaMarker = projector.marker;
      this.media = {
        generate: (request, signal) => this.start(() => ({ media: request.prompt }), request, signal),
        countPromptTokens: (prompt) => this.countMediaTokens(prompt),
      };
    }
    this.saved = new SavedContext(engine, guard, promptCache, contextLength);
    this.slotFiles = new SlotFiles(engine, guard);
    this.batch = slots > 1 ? new SlotSteps(engine, guard, slots) : null;
    this.slotTasks = new SlotTasks(slots);
  }

  /**
   * One tiny evaluation, before the model is reported ready: a one-token prompt read and one
   * token sampled greedily. A model that loads but cannot run (a crash on its first decode)
   * fails its load here instead of its first request.
   */
  async firstEvaluation(): Promise<void> {
    await this.guard.section(async () => {
      const ids = this.engine.tokenize(' ', true, false);
      await this.engine.begin(ids.length > 0 ? ids : [0], false);
      while ((await this.prefillStep()) > 0);
      this.engine.sampler({ temperature: 0 });
      if (__INPAGE_TEST_HOOKS__) await testTrapPoint(this.engine);
      await this.engine.sample(0, false);
    });
  }

  generate(request: ChoiceRequest, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    return this.start(() => ({ ids: this.promptIds(request.prompt, request.suffix, request) }), request, signal);
  }

  /** One choice of `request` on its prompt (made in the guard: tokenizing may fail), alone or in a slot. */
  private start(prompt: () => SlotPrompt, request: AnyChoice, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    const events = this.guard.stream(() => {
      const own = prompt();
      return this.batch ? this.inSlot(this.batch, request, own, signal) : this.alone(request, own, signal);
    });
    return samplerRefusal(events, request);
  }

  decodeCounts(): { decodes: number; decodedSlots: number } {
    return this.engine.decodeCounts();
  }

  watchSlots(listener: (busy: number[]) => void): void {
    if (this.batch) this.batch.onBusy = listener;
    else this.onBusy = listener;
  }

  /** One choice on the one slot, which is busy meanwhile. */
  private async *alone(request: AnyChoice, prompt: SlotPrompt, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    this.onBusy?.([0]);
    try {
      yield* this.run(request, prompt, signal);
    } finally {
      this.onBusy?.([]);
    }
  }

  /** Token ids for a rendered conversation: only the template's markup holds control tokens. */
  async tokenizeSegments(segments: PromptSegment[]): Promise<number[]> {
    return this.guard.call(() => this.engine.tokenizeMixed(segments, true));
  }

  /** llama-server's `/tokenize`: the ids of `text` and each one's bytes (control tokens as their text). */
  async tokenize(text: string, addSpecial: boolean, parseSpecial: boolean) {
    return this.guard.call(() => {
      const tokens = this.engine.tokenize(text, addSpecial, parseSpecial);
      return { tokens, pieces: tokens.map((id) => this.engine.piece(id, true)) };
    });
  }

  async promptText(prompt: PromptInput): Promise<string> {
    if (typeof prompt === 'string') return prompt;
    return this.guard.call(() => decoder.decode(new Uint8Array(prompt.flatMap((id) => this.engine.piece(id, true)))));
  }

  async countPromptTokens(prompt: PromptInput): Promise<number> {
    return this.guard.call(() => this.promptIds(prompt, null).length);
  }

  async scorePrompt(
    prompt: PromptInput,
    top: number,
    _signal: AbortSignal,
    lora: readonly LoraScale[] = [],
  ): Promise<PromptToken[]> {
    this.saved.drop();
    const ids = this.guard.call(() => this.promptIds(prompt, null));
    this.checkLength(ids.length, 'prompt');
    const scales = this.lora.scalesFor(lora);
    return this.onFreeSlot((slot) => this.scored(ids, top, slot, scales), this.lora.group(scales));
  }

  /**
   * Runs `work` on a slot no request holds (the one slot without slots), which it then gives
   * back; with slots, once the running requests are at the LoRA scales of `group` (slot-steps.ts);
   * `wanted`: that slot only (a slot action).
   */
  private async onFreeSlot<T>(
    work: (slot: number) => T,
    group: string | null = null,
    wanted: number | null = null,
  ): Promise<Awaited<T>> {
    const slot = this.batch ? await this.batch.acquire([], new AbortController().signal, wanted, group) : 0;
    try {
      return await work(slot ?? 0);
    } finally {
      if (this.batch && slot !== null) this.batch.release(slot);
    }
  }

  private scored(ids: number[], top: number, slot: number, scales: readonly number[]): Promise<PromptToken[]> {
    return this.guard.onSlot(slot, async () => {
      // Scoring reads the prompt whole (its cells are dropped first): only the scales matter.
      this.lora.use(slot, scales, (at) => this.engine.loraScales(at));
      const scored = ids.length > 1 ? await this.engine.score(ids, top) : [];
      return ids.map((id, i): PromptToken => {
        const bytes = this.engine.piece(id, true);
        const own = { id, text: tokenSpelling(bytes), bytes };
        const entry = i === 0 ? undefined : scored[i - 1];
        if (!entry) return { ...own, logprob: null, top: null };
        return { ...own, logprob: entry.logprob, top: entry.top.map((c) => this.candidate(c)) };
      });
    });
  }

  async embed(inputs: PromptInput[], signal: AbortSignal): Promise<EmbeddingResult> {
    const { outputs, promptTokens, cachedTokens } = await this.poolEach(
      inputs,
      (input) => this.promptIds(input, null),
      { empty: 'An input is empty (it has no tokens).', long: 'An input', param: 'input' },
      signal,
    );
    return { vectors: outputs, promptTokens, cachedTokens };
  }

  /**
   * A reranker's score of each document against the query, as llama-server's `/rerank`: the
   * pair's prompt (native/embed.cpp) pooled through the classification head, its first output.
   */
  async rerank(query: string, documents: string[], signal: AbortSignal): Promise<RerankResult> {
    const { outputs, promptTokens, cachedTokens } = await this.poolEach(
      documents,
      (document) => this.engine.rerankPrompt(query, document),
      {
        empty: 'A query and document are empty together (they have no tokens).',
        long: 'A document with the query',
        param: 'documents',
      },
      signal,
    );
    return { scores: outputs.map((output) => output[0] ?? 0), promptTokens, cachedTokens };
  }

  /**
   * The pooled output of each item's ids (`idsOf`, all made first: a 400 comes before any
   * decode), each in one batch of at most EMBEDDING_BATCH tokens, yielding between batches; the
   * items' tokens, and those kept from the item before (native/embed.cpp). An encoder's items go
   * several to a batch (input-batches.ts); the others' one after another. `text` names an item in
   * a 400: empty, or too long.
   */
  private async poolEach<T>(
    items: readonly T[],
    idsOf: (item: T) => number[],
    text: { empty: string; long: string; param: string },
    signal: AbortSignal,
  ): Promise<{ outputs: number[][]; promptTokens: number; cachedTokens: number }> {
    const outputs: number[][] = [];
    let promptTokens = 0;
    let cachedTokens = 0;
    const pacer = new Pacer();
    const most = Math.min(EMBEDDING_BATCH, this.contextLength);
    const inputs = items.map((item) => {
      const ids = this.guard.call(() => idsOf(item));
      if (ids.length === 0) throw new InvalidRequestError(text.empty, text.param);
      if (ids.length > most)
        throw new InvalidRequestError(
          `${text.long} is ${ids.length} tokens, longer than this backend embeds at once (${most} tokens).`,
          text.param,
          'context_length_exceeded',
        );
      return ids;
    });
    if (this.encoder) {
      const lengths = inputs.map((ids) => ids.length);
      for (const batch of inputBatches(lengths, most)) {
        if (signal.aborted) break;
        const group = batch.map((index) => inputs[index] ?? []);
        const tokens = group.reduce((sum, ids) => sum + ids.length, 0);
        announceBusy(this.steps.expectedMs(tokens));
        const vectors = await this.guard.section(() => {
          this.lora.useOwn((scales) => this.engine.loraScales(scales, true));
          return this.engine.embedBatch(group, most, EMBED_SEQS);
        });
        outputs.push(...vectors);
        promptTokens += tokens;
        await pacer.maybeYield();
      }
      return { outputs, promptTokens, cachedTokens };
    }
    for (const ids of inputs) {
      if (signal.aborted) break;
      announceBusy(this.steps.expectedMs(ids.length));
      const { vector, kept } = await this.guard.section(() => {
        this.lora.useOwn((scales) => this.engine.loraScales(scales, true));
        return this.engine.embed(ids, most);
      });
      outputs.push(vector);
      promptTokens += ids.length;
      cachedTokens += kept;
      await pacer.maybeYield();
    }
    return { outputs, promptTokens, cachedTokens };
  }

  /**
   * Restores the state a page load read for it (saved-context.ts), before its first request: at
   * the load's LoRA scales, which the engine takes first (the first evaluation's cells go).
   */
  async warmStart(found: FoundPrefix | null): Promise<void> {
    if (!found) return;
    await this.guard.section(() => this.useLora(this.lora.loadScales, 0));
    await this.saved.warmStart(found);
  }

  /** llama-server's slot actions (slot-files.ts). */
  async slotAction(request: SlotActionRequest): Promise<SlotActionResult> {
    this.saved.drop();
    const slot = request.slot;
    if (slot < 0 || slot >= this.details.slots)
      throw new InvalidRequestError('Invalid slot ID', 'id_slot', 'invalid_value');
    // It waits for the slot's request to end, as llama-server defers a task for a busy slot.
    const result = await this.onFreeSlot(() => this.slotFiles.run(request, slot), null, slot);
    // What `GET /slots` says the slot holds: nothing once erased, the file's tokens once restored.
    if (request.action !== 'save') this.slotTasks.holds(slot, request.action === 'erase' ? 0 : result.tokens);
    return result;
  }

  async unload(): Promise<void> {
    this.saved.drop();
    this.guard.retire();
    this.engine.dispose();
    this.draft?.dispose();
  }

  /** Reads one prompt step, sized by time (prefill-steps.ts); returns the tokens still pending. */
  private async prefillStep(): Promise<number> {
    const pending = await this.steps.read(this.engine);
    // One slot: a prompt shorter than the context always has room.
    if (pending === null) throw new EngineError('the context has no room for the prompt');
    return pending;
  }

  /** A prompt as ids: text is tokenized as llama-server does (BOS/EOS as the model asks, special tokens parsed). */
  private promptIds(prompt: PromptInput, suffix: string | null, request?: ChoiceRequest): number[] {
    if (suffix !== null) return this.fimIds(prompt, suffix, request);
    if (typeof prompt !== 'string') return prompt;
    return this.engine.tokenize(prompt, true, true);
  }

  /** Fill-in-the-middle with the model's FIM tokens: `suffix`'s plain layout, or llama-server's `/infill`. */
  private fimIds(prefix: PromptInput, suffix: string, request?: ChoiceRequest): number[] {
    const fim = this.vocab.fim;
    if (!fim)
      throw new InvalidRequestError(
        "'suffix' (fill-in-the-middle) is not supported by this model.",
        'suffix',
        'unsupported_parameter',
      );
    const { addBos, bos } = this.engine.info();
    const model: FimModel = {
      tokens: { ...fim, ...this.vocab.fimFiles },
      tokenize: (text) => this.engine.tokenize(text, false, false),
      bos: addBos ? bos : null,
      contextLength: this.contextLength,
    };
    if (request?.infill && typeof prefix === 'string')
      return infillFim(model, prefix, suffix, request.infill, request.max_tokens);
    return plainFim(model, typeof prefix === 'string' ? model.tokenize(prefix) : prefix, suffix);
  }

  /**
   * A prompt must leave room for at least one generated token: one that fills the context is
   * refused, as llama-server refuses it ("request (256 tokens) exceeds the available context
   * size (256 tokens)"), with a 400 `context_length_exceeded`.
   */
  private checkLength(tokens: number, param: string): void {
    if (tokens >= this.contextLength)
      throw new InvalidRequestError(
        tokens === this.contextLength
          ? `The prompt is ${tokens} tokens, as many as the model's context holds (${this.contextLength}): no room is left to generate.`
          : `The prompt is ${tokens} tokens, longer than the model's context of ${this.contextLength} tokens.`,
        param,
        'context_length_exceeded',
      );
  }

  /**
   * One choice, with the prompt cache across page loads (saved-context.ts) on either side where
   * the request allows it (`cache_prompt`): a saved state holding more of the prompt than the
   * context is restored first, and the context's state is saved after.
   */
  private async *run(request: AnyChoice, prompt: SlotPrompt, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    this.saved.drop();
    const scales = this.lora.scalesFor(request.lora);
    // Media positions match no saved prefix (media.cpp): such prompts are neither restored nor saved.
    if (!('ids' in prompt)) return yield* this.choice(request, prompt, scales, signal);
    const { ids } = prompt;
    if (ids.length === 0) throw new InvalidRequestError('The prompt is empty (it has no tokens).', 'prompt');
    this.checkLength(ids.length, 'prompt');
    // Saved states hold what the load's LoRA scales gave (lora-adapters.ts): restored and saved at those only.
    if (!request.cache_prompt || !this.lora.savesAt(scales)) return yield* this.choice(request, prompt, scales, signal);
    await this.guard.section(() => this.useLora(scales, 0));
    await this.saved.restoreFor(ids);
    try {
      yield* this.choice(request, prompt, scales, signal);
    } finally {
      this.saved.saveAfter(ids.length);
    }
  }

  /**
   * Starts the selected slot's generation on `prompt`; returns its ids (-1 at media positions)
   * and how many came from the slot's cached prefix. The projector's refusals of a media item
   * are 400s naming the request's part (its `param`); a prompt with media too long for the
   * context is known only here, once the projector counted its tokens.
   */
  private async begin(prompt: SlotPrompt, reuse: boolean): Promise<{ ids: number[]; cached: number }> {
    if ('ids' in prompt) return { ids: prompt.ids, cached: await this.engine.begin(prompt.ids, reuse) };
    const begun = await this.beginMedia(prompt.media, reuse);
    this.checkLength(begun.ids.length, 'prompt');
    return begun;
  }

  private async beginMedia({ text, items }: MediaPrompt, reuse: boolean): Promise<{ ids: number[]; cached: number }> {
    try {
      return await this.engine.beginWithMedia(
        text,
        items.map((item) => item.bytes),
        reuse,
        true,
        true,
      );
    } catch (error) {
      if (!(error instanceof EngineInputError)) throw error;
      const param = error.item === null ? undefined : items[error.item]?.param;
      const why = param === undefined ? error.message : error.message.replace(/^media item \d+/, `'${param}'`);
      throw new InvalidRequestError(sentence(why), param ?? 'prompt');
    }
  }

  /** A prompt with media's tokens (each media item's as the projector counts them), on a free slot. */
  private countMediaTokens(prompt: MediaPrompt): Promise<number> {
    return this.onFreeSlot((slot) =>
      this.guard.onSlot(slot, async () => {
        this.saved.drop(slot);
        return (await this.beginMedia(prompt, true)).ids.length;
      }),
    );
  }

  /**
   * One choice on one of the model's slots (slot-steps.ts), whose tokens are decoded with the
   * other slots' in one batch: the prompt (reusing what the slot kept of it), then tokens until
   * an end-of-generation token, max_tokens, the context's end, the shared cache's end or an abort.
   * Every per-slot engine call selects the slot first (`use`): other requests run between awaits.
   */
  private async *inSlot(
    batch: SlotSteps,
    request: AnyChoice,
    prompt: SlotPrompt,
    signal: AbortSignal,
  ): AsyncIterable<GenerationEvent> {
    const ids = 'ids' in prompt ? prompt.ids : null;
    if (ids) {
      if (ids.length === 0) throw new InvalidRequestError('The prompt is empty (it has no tokens).', 'prompt');
      this.checkLength(ids.length, 'prompt');
    }
    const scales = this.lora.scalesFor(request.lora);
    // llama-server's `id_slot` wraps around the slots; a negative one asks for none in particular.
    const pinned = request.id_slot !== undefined && request.id_slot >= 0 ? request.id_slot % batch.count : null;
    const slot = await batch.acquire(ids ?? [], signal, pinned, this.lora.group(scales));
    if (slot === null) return;
    // The slot's context changes now: a save of its last request not made yet is not made.
    this.saved.drop(slot);
    try {
      yield* this.slotChoice(batch, slot, request, prompt, scales, signal);
    } finally {
      batch.release(slot);
      // Media positions match no saved prefix (media.cpp): such prompts are not saved.
      if (request.cache_prompt && ids && this.lora.savesAt(scales)) this.saved.saveAfter(ids.length, slot);
    }
  }

  private async *slotChoice(
    batch: SlotSteps,
    slot: number,
    request: AnyChoice,
    prompt: SlotPrompt,
    scales: readonly number[],
    signal: AbortSignal,
  ): AsyncIterable<GenerationEvent> {
    await this.guard.onSlot(slot, () => this.useLora(scales, slot));
    // A prompt another slot is reading now is copied from it, not read again (slot-steps.ts);
    // else a saved state that holds more of it than the slot does is restored (saved-context.ts).
    if (request.cache_prompt && 'ids' in prompt) {
      await batch.share(slot, prompt.ids, signal);
      if (!signal.aborted && this.lora.savesAt(scales)) await this.saved.restoreFor(prompt.ids, slot);
    }
    if (signal.aborted) return;
    const generating = request.max_tokens !== 0;
    const { ids, cached: cachedTokens } = await this.guard.onSlot(slot, async () => {
      const begun = await this.begin(prompt, request.cache_prompt);
      if (generating) this.setSampler(request);
      return begun;
    });
    const promptTokens = ids.length;
    const laidOut = request.infill
      ? decoder.decode(new Uint8Array(ids.flatMap((id) => this.engine.piece(id, true))))
      : null;
    yield { type: 'prompt', promptTokens, cachedTokens, slot, ...(laidOut === null ? {} : { text: laidOut }) };
    const wantTokens = request.token_info !== null;
    const top = wantTokens ? Math.max(1, request.token_info ?? 0) : 0;
    const spec = (generated: number): SampleSpec => ({
      top,
      banEog: generated < request.min_tokens,
      endReasoning: request.reasoning?.ended() ?? false,
    });
    // Drafts, checked on the slot alone (slot-steps.ts).
    const speculative = this.speculative(request, prompt);
    const draftModel = speculative?.type === 'draft-simple' ? this.draft : null;
    const drafter: Drafter | null = draftModel && {
      draft: (context, most, pMin) => draftModel.draft(context, most, pMin, slot),
    };
    const drafts = speculative ? new DraftBatch(this.engine, speculative, drafter) : null;
    const end = ender(promptTokens, cachedTokens, () => (drafts ? { draft: { ...drafts.counts } } : {}));
    if (generating && draftModel) {
      // The draft model reads the prompt too, into the slot's own sequence, in steps.
      const pacer = new Pacer();
      await draftModel.beginPrompt(ids, slot);
      while ((await draftModel.readStep(slot)) > 0) {
        await pacer.maybeYield();
        if (signal.aborted) return;
      }
    }
    const first: StepResult | null = await batch.prefill(slot, generating ? spec(0) : null, signal);
    if (!generating) {
      // Only the prompt (now kept by the slot): a FIM request with nothing to generate.
      if (!signal.aborted) yield end('length', 0);
      return;
    }
    const text = new Utf8Hold();
    let next: TokensResult | null = first === null || first === 'aborted' ? first : [first];
    let generated = 0;
    // Tokens a step sampled after the one the choice ended at (draft tokens taken past a stop, an abort).
    let unused = 0;
    try {
      for (;;) {
        if (next === null || next === 'aborted' || signal.aborted) return;
        let last: SampledToken | null = null;
        for (const [k, sampled] of next.entries()) {
          generated += 1;
          unused = next.length - 1 - k;
          if (yield* this.tokenEvents(sampled, generated, { request, promptTokens, text, end })) return;
          if (signal.aborted) return;
          last = sampled;
        }
        unused = 0;
        if (last === null) return;
        if (__INPAGE_TEST_HOOKS__) await testTrapPoint(this.engine);
        // A draft's tokens all get sampled after it, so each needs room for one more token.
        const left = request.max_tokens === null ? Infinity : request.max_tokens - generated;
        const room = Math.min(this.contextLength - promptTokens - generated, left) - 1;
        const done = generated;
        next = await batch.token(slot, last.id, (k) => spec(done + k), signal, drafts && { batch: drafts, room });
      }
    } finally {
      // As alone (draft-batch.ts's finish): the slot keeps only the choice's own tokens' cells.
      if (unused > 0) await this.keepOnSlot(slot, promptTokens + generated - 1);
    }
  }

  /**
   * A request's LoRA scales (`scalesFor`) on the engine before the selected `slot` decodes for
   * it; the cells the slot kept from other scales are dropped (lora-adapters.ts). In a section.
   */
  private useLora(scales: readonly number[], slot: number): void {
    if (!this.lora.use(slot, scales, (at) => this.engine.loraScales(at))) this.engine.keep(0);
  }

  /** `GET /lora-adapters` (`set` null) and `POST /lora-adapters` (the model's scales now): its adapters. */
  loraAdapters(set: readonly LoraScale[] | null): LoraAdapterInfo[] {
    if (set) this.lora.setOwn(set);
    return this.lora.list();
  }

  /** Drops `slot`'s cells after its first `n`. */
  private keepOnSlot(slot: number, n: number): Promise<void> {
    return this.guard.onSlot(slot, () => this.engine.keep(n));
  }

  /**
   * The request's speculative decoding, or null: off for a prompt with media (drafts read token
   * ids; media positions have none) and on a model whose memory cannot take back a rejected draft
   * (a recurrent state: `partialRemoval`), where it changes nothing but the speed.
   */
  private speculative(request: AnyChoice, prompt: SlotPrompt): SpeculativeParams | null {
    if (!('ids' in prompt)) return null;
    // Checked (its 400s) either way.
    const params = resolveSpeculative(request.speculative, this.draft !== null);
    return this.partialRemoval ? params : null;
  }

  /** The request's sampler on the selected slot; a grammar llama.cpp cannot read is a 400. */
  private setSampler(request: AnyChoice): void {
    try {
      this.engine.sampler(samplerSpec(request, (text) => this.engine.tokenize(text, false, false)));
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      throw new InvalidRequestError(`${error.message}.`, request.grammar?.param ?? null, 'invalid_grammar');
    }
  }

  /**
   * One choice: the prompt, then tokens until an end-of-generation token, max_tokens, the
   * context's end (prompt + completion = the context's size) or an abort; at the request's LoRA
   * `scales` (`scalesFor`, made once by `run`).
   */
  private async *choice(
    request: AnyChoice,
    prompt: SlotPrompt,
    scales: readonly number[],
    signal: AbortSignal,
  ): AsyncIterable<GenerationEvent> {
    const pacer = new Pacer();
    const { ids, cached: cachedTokens } = await this.guard.section(() => {
      this.useLora(scales, 0);
      return this.begin(prompt, request.cache_prompt);
    });
    const promptTokens = ids.length;
    // `/infill` answers with the prompt it laid out (llama-server's `prompt`: the ids' pieces, control tokens as text).
    const laidOut = request.infill
      ? decoder.decode(new Uint8Array(ids.flatMap((id) => this.engine.piece(id, true))))
      : null;
    yield { type: 'prompt', promptTokens, cachedTokens, slot: 0, ...(laidOut === null ? {} : { text: laidOut }) };
    while ((await this.guard.section(() => this.prefillStep())) > 0) {
      await pacer.maybeYield();
      if (signal.aborted) return;
    }
    if (request.max_tokens === 0) {
      // Only the prompt (now in the prefix cache): a FIM request with nothing to generate.
      yield { type: 'end', finishReason: 'length', promptTokens, completionTokens: 0, cachedTokens };
      return;
    }
    const speculative = this.speculative(request, prompt);
    if (speculative?.type === 'draft-simple' && this.draft) {
      // The draft model reads the prompt too, in steps, before the first token is drafted.
      await this.draft.beginPrompt(ids);
      while ((await this.draft.readStep()) > 0) {
        await pacer.maybeYield();
        if (signal.aborted) return;
      }
    }
    await this.guard.section(() => this.setSampler(request));
    const drafts = new DraftBatch(this.engine, speculative, this.draft);
    const end = ender(promptTokens, cachedTokens, () => (speculative ? { draft: { ...drafts.counts } } : {}));
    let failed = false;
    try {
      yield* this.tokens(request, promptTokens, drafts, end, signal);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // Ended inside a draft (a stop, an abort, an error): the cells of its untaken tokens go.
      // After an engine failure its first error is the one reported (the engine is replaced).
      try {
        await this.guard.section(() => drafts.finish());
      } catch (error) {
        if (!failed) throw error;
      }
    }
  }

  /**
   * The choice's tokens, one sample each (at a draft's positions while one is checked:
   * draft-batch.ts), until an end-of-generation token, max_tokens, the context's end or an abort.
   */
  private async *tokens(
    request: AnyChoice,
    promptTokens: number,
    drafts: DraftBatch,
    end: (finishReason: 'stop' | 'length', completionTokens: number) => GenerationEnd,
    signal: AbortSignal,
  ): AsyncIterable<GenerationEvent> {
    const pacer = new Pacer();
    const wantTokens = request.token_info !== null;
    const top = wantTokens ? Math.max(1, request.token_info ?? 0) : 0;
    const text = new Utf8Hold();
    // A token's decode costs about what a few prompt tokens do, until one is measured.
    let tokenMs = this.steps.expectedMs(DECODE_COST_IN_PROMPT_TOKENS);
    for (let generated = 0; ;) {
      if (signal.aborted) return;
      if (__INPAGE_TEST_HOOKS__) await testTrapPoint(this.engine);
      announceBusy(tokenMs);
      const started = performance.now();
      const banEog = generated < request.min_tokens;
      const sampled = await this.guard.section(async () => {
        if (request.reasoning?.ended()) this.engine.reasoningEnd();
        const token = await this.engine.sample(top, banEog, drafts.position);
        this.engine.accept(token.id);
        return token;
      });
      generated += 1;
      if (yield* this.tokenEvents(sampled, generated, { request, promptTokens, text, end })) return;
      // A draft's tokens all get sampled after it, so each needs room for one more token.
      const left = request.max_tokens === null ? Infinity : request.max_tokens - generated;
      const room = Math.min(this.contextLength - promptTokens - generated, left) - 1;
      const next = this.steps.next();
      // A token the draft had is in the context already; any other is decoded (with a draft where one is found).
      if (!(await this.guard.section(async () => drafts.taken(sampled.id) || drafts.push(sampled.id, room, next)))) {
        yield withTail(end('length', generated), text);
        return;
      }
      tokenMs = performance.now() - started;
      await pacer.maybeYield();
    }
  }

  /**
   * The events of the choice's `generated`-th token `sampled`: its text (held while it ends in
   * part of a character) or, where the request wants tokens, its token; then the choice's end
   * where it ends here: an end-of-generation token, max_tokens, or the context's end, as
   * llama-server has it (prompt + completion = n_ctx at most: the last token sampled is never
   * read back, so it needs no room in the cache). Returns whether the choice ended.
   */
  private *tokenEvents(
    sampled: SampledToken,
    generated: number,
    { request, promptTokens, text, end }: TokenContext,
  ): Generator<GenerationEvent, boolean> {
    const done = this.engine.isEndOfGeneration(sampled.id);
    const bytes = done ? [] : this.piece(sampled.id);
    if (request.token_info !== null)
      yield { type: 'text', text: '', tokens: [this.tokenInfo(sampled, bytes)], generated };
    else {
      const piece = text.push(bytes);
      if (piece) yield { type: 'text', text: piece, tokens: null, generated };
    }
    const finish = done
      ? 'stop'
      : (request.max_tokens !== null && generated >= request.max_tokens) ||
          promptTokens + generated >= this.contextLength
        ? 'length'
        : null;
    if (finish) yield withTail(end(finish, generated), text);
    return finish !== null;
  }

  /** A generated token's bytes (control tokens have none, as llama-server renders them). */
  private piece(id: number): number[] {
    let bytes = this.pieces.get(id);
    if (!bytes) {
      bytes = this.engine.piece(id, false);
      this.pieces.set(id, bytes);
    }
    return bytes;
  }

  private candidate(raw: RawCandidate) {
    const bytes = this.piece(raw.id);
    return { id: raw.id, text: tokenSpelling(bytes), bytes, logprob: raw.logprob };
  }

  private tokenInfo(sampled: SampledToken, bytes: number[]): TokenInfo {
    return {
      id: sampled.id,
      text: tokenSpelling(bytes),
      bytes,
      logprob: sampled.logprob,
      top: sampled.top.map((c) => this.candidate(c)),
    };
  }
}

/** What a choice's token events need besides the token (tokenEvents). */
interface TokenContext {
  request: AnyChoice;
  promptTokens: number;
  text: Utf8Hold;
  end: (finishReason: 'stop' | 'length', completionTokens: number) => GenerationEnd;
}

/** A choice's end events: its finish reason and count, with the prompt's counts and `extra`'s fields (read at the end). */
const ender =
  (promptTokens: number, cachedTokens: number, extra: () => Pick<GenerationEnd, 'draft'> = () => ({})) =>
  (finishReason: 'stop' | 'length', completionTokens: number): GenerationEnd => ({
    type: 'end',
    finishReason,
    promptTokens,
    completionTokens,
    cachedTokens,
    ...extra(),
  });

/** `end` with the text `text` still holds (a character the generation ended inside, as U+FFFD). */
function withTail(end: GenerationEnd, text: Utf8Hold): GenerationEnd {
  const tail = text.flush();
  return tail ? { ...end, tail } : end;
}

/** llama-server's `meta`: the file's (model-meta.ts) with what the engine loaded (a request's context: a slot's). */
function modelMeta(file: GgufMeta, info: ModelNumbers, contextLength: number): ModelMeta {
  return {
    vocab_type: file.vocab_type,
    n_vocab: info.vocabSize,
    n_ctx: contextLength,
    n_ctx_train: info.trainedContext,
    n_embd: info.embeddingSize,
    n_params: file.n_params,
    size: file.size,
    ftype: file.ftype,
  };
}

/**
 * `events`, where a sampler failure (SamplerError: a grammar that cannot take the token the
 * sampler chose) ends the choice with a 400 naming the request's output constraint; llama-server
 * answers it with a 500.
 */
async function* samplerRefusal(
  events: AsyncIterable<GenerationEvent>,
  request: AnyChoice,
): AsyncIterable<GenerationEvent> {
  try {
    yield* events;
  } catch (error) {
    if (!(error instanceof SamplerError)) throw error;
    throw new InvalidRequestError(sentence(error.message), request.grammar?.param ?? null, 'invalid_grammar');
  }
}

/** The glue's message as an error's sentence: capitalized, with a full stop. */
const sentence = (why: string) => `${why[0]?.toUpperCase() ?? ''}${why.slice(1)}.`;

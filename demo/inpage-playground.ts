import { css, html, LitElement, nothing } from 'lit';
import type { Inpage, LoadProgress, ModelCard } from '../src/index';
import { CATALOGUE } from './catalogue';
import type { ChatAttachment } from './chat-attachment';
import { pendingConversation, toChatBody, toEmbeddingsBody, toMessagesBody, toResponsesBody } from './chat-body';
import { ChatSession, type Runner } from './chat-session';
import {
  BUSY_NOTICE,
  describeLoadFailure,
  describeRequestFailure,
  NO_WEBGPU_NOTICE,
  type Notice,
} from './describe-failure';
import { DEFAULT_PARAMS, toRequestBody, type SamplingParams } from './request-body';
import type { Endpoint, EndpointBody } from './request-code';
import { runRequest, type RunStats } from './run-request';
import { fetchServedModels } from './served-models';
import { controls } from './theme';
import './chat-view';
import './code-panel';
import './completion-output';
import './load-progress';
import './model-picker';
import './notice-banner';
import './request-form';
import './stored-models';

type Tab = 'completions' | 'chat';

/**
 * The playground: picks and loads a model, runs requests against the page's own endpoint from its
 * Completions and Chat tabs (one request at a time; the sampling controls are shared), shows
 * the code for them and the models this browser has stored.
 */
export class InpagePlayground extends LitElement {
  static override properties = {
    runtime: { attribute: false },
    model: {},
    startNotice: { attribute: false },
    state: { state: true },
    progress: { state: true },
    webgpu: { state: true },
    served: { state: true },
    cached: { state: true },
    params: { state: true },
    output: { state: true },
    status: { state: true },
    stats: { state: true },
    busy: { state: true },
    requestNotice: { state: true },
    tab: { state: true },
    codeEndpoint: { state: true },
  };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
        max-width: 72rem;
        margin: 0 auto;
        padding: 1rem;
      }
      header p {
        margin-top: 0;
      }
      h1 {
        margin-bottom: 0.25rem;
        color: var(--accent);
      }
      section.panel {
        margin: 0.75rem 0;
      }
      .columns {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr));
        gap: 0.75rem;
      }
      .columns section.panel {
        margin: 0;
      }
      load-progress {
        margin-bottom: 0.75rem;
      }
      [role='tablist'] {
        display: flex;
        gap: 0.25rem;
        margin-bottom: 0.5rem;
      }
      [role='tab'][aria-selected='true'] {
        background: var(--accent);
        color: #fff;
      }
    `,
  ];

  declare runtime: Inpage | undefined;
  declare model: string;
  /** A notice from start-up (why the default model, or why the model could not start). */
  declare startNotice: Notice | undefined;
  declare state: 'loading' | 'ready' | 'failed';
  declare progress: LoadProgress | undefined;
  declare webgpu: boolean;
  declare served: ModelCard[];
  declare cached: ReadonlySet<string>;
  declare params: SamplingParams;
  declare output: string;
  declare status: string;
  declare stats: RunStats | undefined;
  declare busy: boolean;
  declare requestNotice: Notice | undefined;
  declare tab: Tab;
  /** The endpoint the code panel shows: the active tab's, unless picked in the panel. */
  declare codeEndpoint: Endpoint;
  private abort: AbortController | undefined;
  private readonly chat = new ChatSession(this);

  constructor() {
    super();
    this.model = '';
    this.state = 'loading';
    this.webgpu = true;
    this.served = [];
    this.cached = new Set();
    this.params = DEFAULT_PARAMS;
    this.output = '';
    this.status = '';
    this.busy = false;
    this.tab = 'completions';
    this.codeEndpoint = 'completions';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void Promise.all(CATALOGUE.map(async (entry) => ((await entry.isCached()) ? [entry.id] : []))).then(
      (ids) => (this.cached = new Set(ids.flat())),
    );
  }

  override updated(changed: Map<string, unknown>): void {
    if (!changed.has('runtime') || !this.runtime) return;
    const runtime = this.runtime;
    this.model = runtime.model;
    runtime.onProgress((progress) => (this.progress = progress));
    runtime.ready.then(
      () => {
        this.state = 'ready';
        void this.refreshModels();
      },
      (error: unknown) => {
        this.state = 'failed';
        this.startNotice = describeLoadFailure(error, runtime.model, navigator.onLine);
        void this.refreshModels();
      },
    );
  }

  override render() {
    const note = CATALOGUE.find((entry) => entry.id === this.model)?.promptNote ?? '';
    const notices = [this.webgpu ? undefined : NO_WEBGPU_NOTICE, this.startNotice, this.requestNotice].filter(
      (notice) => notice !== undefined,
    );
    return html`<header>
        <h1>inpage-llm playground</h1>
        <p class="muted">
          An OpenAI-compatible endpoint inside this page: <code>POST /v1/completions</code> and
          <code>/v1/chat/completions</code> are answered by a Service Worker and a model running in a Web Worker.
        </p>
      </header>
      <div @use-test-model=${() => this.loadModel('inpage-test')}>
        ${notices.map((notice) => html`<notice-banner .notice=${notice}></notice-banner>`)}
      </div>
      <section class="panel" aria-label="Model">
        ${this.model ? html`<load-progress .progress=${this.progress} state=${this.state} model=${this.model}></load-progress>` : nothing}
        <model-picker
          .entries=${CATALOGUE}
          .cached=${this.cached}
          .served=${this.served}
          current=${this.model}
          ?webgpu=${this.webgpu}
          @load-model=${(event: CustomEvent<string>) => this.loadModel(event.detail)}
        ></model-picker>
      </section>
      <div role="tablist" aria-label="Endpoint">
        ${this.tabButton('completions', 'Completions')} ${this.tabButton('chat', 'Chat')}
      </div>
      <div role="tabpanel" id="tabpanel" aria-labelledby="tab-${this.tab}">
        ${this.tab === 'chat' ? this.renderChat(note) : this.renderCompletions(note)}
      </div>
      <section class="panel" aria-label="Code">
        <code-panel
          .bodies=${this.codeBodies()}
          endpoint=${this.codeEndpoint}
          .apiKey=${this.runtime?.apiKey ?? null}
          @endpoint-change=${(event: CustomEvent<Endpoint>) => (this.codeEndpoint = event.detail)}
        ></code-panel>
      </section>
      <section class="panel" aria-label="Stored models">
        <stored-models .runtime=${this.runtime}></stored-models>
      </section>`;
  }

  private tabButton(tab: Tab, label: string) {
    return html`<button
      role="tab"
      id="tab-${tab}"
      aria-controls="tabpanel"
      aria-selected=${this.tab === tab ? 'true' : 'false'}
      @click=${() => this.selectTab(tab)}
      @keydown=${this.onTabKey}
    >
      ${label}
    </button>`;
  }

  private renderCompletions(note: string) {
    return html`<div class="columns">
      <section class="panel" aria-label="Request">
        <request-form
          .params=${this.params}
          ?ready=${this.state === 'ready'}
          ?busy=${this.busy}
          note=${note}
          @params-change=${(event: CustomEvent<SamplingParams>) => (this.params = event.detail)}
          @generate=${this.generate}
          @stop=${this.stop}
        ></request-form>
      </section>
      <section class="panel" aria-label="Response">
        <completion-output
          .text=${this.output}
          .stats=${this.stats}
          status=${this.status}
          ?streaming=${this.busy}
        ></completion-output>
      </section>
    </div>`;
  }

  private renderChat(note: string) {
    const chatNote =
      this.model === 'inpage-test' ? `${note} Its chat template concatenates the messages' contents.` : note;
    const chat = this.chat;
    return html`<chat-view
      .turns=${chat.turns}
      .params=${this.params}
      .stats=${chat.stats}
      system=${chat.system}
      draft=${chat.draft}
      .attachments=${chat.attachments}
      .modalities=${this.served.find((card) => card.id === this.model)?.modalities}
      status=${chat.status}
      note=${chatNote}
      ?ready=${this.state === 'ready'}
      ?busy=${this.busy}
      @params-change=${(event: CustomEvent<SamplingParams>) => (this.params = event.detail)}
      @system-change=${(event: CustomEvent<string>) => chat.set({ system: event.detail })}
      @draft-change=${(event: CustomEvent<string>) => chat.set({ draft: event.detail })}
      @attachments-change=${(event: CustomEvent<ChatAttachment[]>) => chat.set({ attachments: event.detail })}
      @send=${(event: CustomEvent<string>) =>
        chat.send(event.detail, this.model, this.params, this.run, () => (this.requestNotice = BUSY_NOTICE))}
      @stop=${this.stop}
      @clear=${() => chat.clear()}
    ></chat-view>`;
  }

  /** The request on each endpoint: completions from the form, the others from the chat. */
  private codeBodies(): Record<Endpoint, EndpointBody> {
    const model = this.model || 'inpage-test';
    const conversation = pendingConversation(this.chat.conversation(), this.chat.draft, this.chat.attachments);
    const about = this.tab === 'chat' ? conversation : { system: '', turns: [] };
    return {
      completions: toRequestBody(model, this.params),
      chat: toChatBody(model, this.params, conversation),
      responses: toResponsesBody(model, this.params, conversation),
      messages: toMessagesBody(model, this.params, conversation),
      embeddings: toEmbeddingsBody(model, about, this.params.prompt),
    };
  }

  private selectTab(tab: Tab): void {
    this.tab = tab;
    this.codeEndpoint = tab;
  }

  /** Left / Right move between the two tabs (the ARIA tabs pattern). */
  private onTabKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next: Tab = this.tab === 'chat' ? 'completions' : 'chat';
    this.selectTab(next);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#tab-${next}`)?.focus());
  }

  private async generate(): Promise<void> {
    this.output = '';
    this.stats = undefined;
    await this.run(
      (status) => (this.status = status),
      (signal) =>
        runRequest(toRequestBody(this.model, this.params), signal, {
          onText: (text) => (this.output += text),
          onStats: (stats) => (this.stats = stats),
          onWaiting: () => (this.requestNotice = BUSY_NOTICE),
        }),
    );
  }

  /** One request at a time: busy, Stop, status and the failure notice. False when it failed. */
  private readonly run: Runner = async (setStatus, request) => {
    const abort = new AbortController();
    this.abort = abort;
    this.busy = true;
    this.requestNotice = undefined;
    setStatus('Generating…');
    try {
      const finish = await request(abort.signal);
      setStatus(finish === null ? 'Stopped.' : `Done: finish_reason ${finish}.`);
      return true;
    } catch (error) {
      if (abort.signal.aborted) {
        setStatus('Stopped.');
        return true;
      }
      this.requestNotice = describeRequestFailure(error);
      setStatus('Failed.');
      return false;
    } finally {
      if (this.requestNotice === BUSY_NOTICE) this.requestNotice = undefined;
      this.busy = false;
    }
  };

  private stop(): void {
    this.abort?.abort();
  }

  private async refreshModels(): Promise<void> {
    this.served = await fetchServedModels();
  }

  private loadModel(source: string): void {
    const url = new URL(location.href);
    url.searchParams.set('model', source);
    // A WebLLM catalogue model runs with `auto`: without WebGPU it falls back to inpage-test.
    if (CATALOGUE.find((entry) => entry.source === source)?.backend === 'webllm')
      url.searchParams.set('backend', 'auto');
    else url.searchParams.delete('backend');
    location.assign(url.href);
  }
}

customElements.define('inpage-playground', InpagePlayground);

declare global {
  interface HTMLElementTagNameMap {
    'inpage-playground': InpagePlayground;
  }
}

import { css, html, LitElement, nothing } from 'lit';
import type { Inpage, LoadProgress, ModelCard } from '../src/index';
import { CATALOGUE } from './catalogue';
import {
  BUSY_NOTICE,
  describeLoadFailure,
  describeRequestFailure,
  NO_WEBGPU_NOTICE,
  type Notice,
} from './describe-failure';
import { DEFAULT_PARAMS, toRequestBody, type SamplingParams } from './request-body';
import { runRequest, type RunStats } from './run-request';
import { fetchServedModels } from './served-models';
import { controls } from './theme';
import './code-panel';
import './completion-output';
import './load-progress';
import './model-picker';
import './notice-banner';
import './request-form';

/** The playground: picks and loads a model, runs requests against the page's own endpoint. */
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
  private abort: AbortController | undefined;

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
    const notices = [this.webgpu ? undefined : NO_WEBGPU_NOTICE, this.startNotice, this.requestNotice].filter(
      (notice) => notice !== undefined,
    );
    return html`<header>
        <h1>inpage-llm playground</h1>
        <p class="muted">
          An OpenAI-compatible endpoint inside this page: <code>POST /v1/completions</code> is answered by a Service
          Worker and a model running in a Web Worker.
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
      <div class="columns">
        <section class="panel" aria-label="Request">
          <request-form
            .params=${this.params}
            ?ready=${this.state === 'ready'}
            ?busy=${this.busy}
            note=${CATALOGUE.find((entry) => entry.id === this.model)?.promptNote ?? ''}
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
      </div>
      <section class="panel" aria-label="Code">
        <code-panel
          .body=${toRequestBody(this.model || 'inpage-test', this.params)}
          .apiKey=${this.runtime?.apiKey ?? null}
        ></code-panel>
      </section>`;
  }

  private async generate(): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    this.busy = true;
    this.output = '';
    this.stats = undefined;
    this.requestNotice = undefined;
    this.status = 'Generating…';
    try {
      const finish = await runRequest(toRequestBody(this.model, this.params), abort.signal, {
        onText: (text) => (this.output += text),
        onStats: (stats) => (this.stats = stats),
        onWaiting: () => (this.requestNotice = BUSY_NOTICE),
      });
      this.status = finish === null ? 'Stopped.' : `Done: finish_reason ${finish}.`;
    } catch (error) {
      if (abort.signal.aborted) this.status = 'Stopped.';
      else {
        this.requestNotice = describeRequestFailure(error);
        this.status = 'Failed.';
      }
    } finally {
      if (this.requestNotice === BUSY_NOTICE) this.requestNotice = undefined;
      this.busy = false;
    }
  }

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

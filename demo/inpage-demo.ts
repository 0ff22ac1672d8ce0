import { css, html, LitElement } from 'lit';
import type { Inpage, LoadProgress } from '../src/index';
import { streamCompletion } from './stream-completion';

type Phase = 'loading' | 'ready' | 'failed';

/** The minimal demo: model status, a prompt box and the streamed completion. */
export class InpageDemo extends LitElement {
  static override properties = {
    runtime: { attribute: false },
    phase: { state: true },
    progress: { state: true },
    output: { state: true },
    status: { state: true },
    busy: { state: true },
  };

  static override styles = css`
    :host { display: block; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
    textarea { width: 100%; min-height: 5rem; font: inherit; box-sizing: border-box; }
    pre { white-space: pre-wrap; background: #fff; border: 1px solid #ccc; padding: 1rem; min-height: 4rem; }
    .row { display: flex; gap: 0.5rem; align-items: center; margin: 0.5rem 0; }
    progress { width: 100%; }
    .failed { color: #a00000; }
  `;

  declare runtime: Inpage | undefined;
  declare phase: Phase;
  declare progress: LoadProgress | undefined;
  declare output: string;
  declare status: string;
  declare busy: boolean;
  private abort: AbortController | undefined;

  constructor() {
    super();
    this.phase = 'loading';
    this.output = '';
    this.status = 'Starting…';
    this.busy = false;
  }

  override updated(changed: Map<string, unknown>): void {
    if (!changed.has('runtime') || !this.runtime) return;
    const runtime = this.runtime;
    runtime.onProgress((progress) => (this.progress = progress));
    runtime.ready.then(
      () => {
        this.phase = 'ready';
        this.status = `Ready: ${runtime.model}`;
      },
      (error: unknown) => {
        this.phase = 'failed';
        this.status = `Failed to start: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
  }

  override render() {
    return html`
      <h1>inpage-llm</h1>
      <p class=${this.phase} role="status">${this.status}</p>
      ${this.phase === 'loading' ? html`<progress aria-label="Model load progress" max="1" .value=${this.progress?.fraction ?? 0}></progress>` : null}
      <label for="prompt">Prompt</label>
      <textarea id="prompt" .value=${'abc'}></textarea>
      <div class="row">
        <label for="max-tokens">max_tokens</label>
        <input id="max-tokens" type="number" min="1" value="32" />
        <button id="generate" ?disabled=${this.phase !== 'ready' || this.busy} @click=${this.generate}>Generate</button>
        <button id="stop" ?disabled=${!this.busy} @click=${this.stop}>Stop</button>
      </div>
      <pre id="output" aria-live="polite">${this.output}</pre>
    `;
  }

  private async generate(): Promise<void> {
    const prompt = this.renderRoot.querySelector<HTMLTextAreaElement>('#prompt')?.value ?? '';
    const maxTokens = Number(this.renderRoot.querySelector<HTMLInputElement>('#max-tokens')?.value ?? 32);
    this.abort = new AbortController();
    this.busy = true;
    this.output = '';
    try {
      const body = { model: this.runtime?.model, prompt, max_tokens: maxTokens };
      const finish = await streamCompletion(body, (text) => (this.output += text), this.abort.signal);
      this.status = `Done (finish_reason: ${finish ?? 'none'})`;
    } catch (error) {
      this.status = this.abort.signal.aborted ? 'Stopped' : `Error: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.busy = false;
    }
  }

  private stop(): void {
    this.abort?.abort();
  }
}

customElements.define('inpage-demo', InpageDemo);

declare global {
  interface HTMLElementTagNameMap {
    'inpage-demo': InpageDemo;
  }
}

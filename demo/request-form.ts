import { css, html, LitElement } from 'lit';
import { DEFAULT_PARAMS, type SamplingParams } from './request-body';
import './sampling-controls';
import { controls } from './theme';

/** The prompt, the sampling controls, and Generate / Stop (Ctrl+Enter generates). */
export class RequestForm extends LitElement {
  static override properties = {
    params: { attribute: false },
    ready: { type: Boolean },
    busy: { type: Boolean },
    note: {},
  };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      textarea {
        width: 100%;
        min-height: 6rem;
        resize: vertical;
      }
      .hint {
        font-size: 0.8rem;
      }
      .actions {
        display: flex;
        gap: 0.5rem;
        align-items: center;
      }
    `,
  ];

  declare params: SamplingParams;
  declare ready: boolean;
  declare busy: boolean;
  /** What to expect from the running model (the test model's rule), under the prompt. */
  declare note: string;

  constructor() {
    super();
    this.note = '';
    this.params = DEFAULT_PARAMS;
    this.ready = false;
    this.busy = false;
  }

  override render() {
    return html`<label for="prompt">Prompt</label>
      <textarea
        id="prompt"
        .value=${this.params.prompt}
        @input=${this.onPrompt}
        @keydown=${this.onKey}
        aria-describedby="prompt-hint"
      ></textarea>
      <div id="prompt-hint" class="hint muted">
        ${this.note ? html`<span id="model-note">${this.note}</span> ` : ''}Ctrl+Enter generates.
      </div>
      <sampling-controls .params=${this.params}></sampling-controls>
      <div class="actions">
        <button id="generate" class="primary" ?disabled=${!this.ready || this.busy} @click=${this.generate}>
          Generate
        </button>
        <button id="stop-button" ?disabled=${!this.busy} @click=${this.stop}>Stop</button>
      </div>`;
  }

  private onPrompt(event: Event): void {
    if (!(event.target instanceof HTMLTextAreaElement)) return;
    this.params = { ...this.params, prompt: event.target.value };
    this.dispatchEvent(new CustomEvent('params-change', { detail: this.params, bubbles: true, composed: true }));
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (this.ready && !this.busy) this.generate();
    }
  }

  private generate(): void {
    this.dispatchEvent(new CustomEvent('generate', { bubbles: true, composed: true }));
  }

  private stop(): void {
    this.dispatchEvent(new CustomEvent('stop', { bubbles: true, composed: true }));
  }
}

customElements.define('request-form', RequestForm);

declare global {
  interface HTMLElementTagNameMap {
    'request-form': RequestForm;
  }
}

import { css, html, LitElement } from 'lit';
import { DEFAULT_PARAMS, type SamplingParams } from './request-body';
import { controls } from './theme';

/** The prompt, the sampling controls that matter, and Generate / Stop (Ctrl+Enter generates). */
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
      .grid {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr));
        gap: 0.75rem;
        margin: 0.75rem 0;
      }
      .field {
        display: flex;
        flex-direction: column;
        gap: 0.25rem;
      }
      .field input {
        width: 100%;
      }
      .check input {
        width: auto;
      }
      .check {
        flex-direction: row;
        align-items: center;
        justify-content: flex-start;
        align-self: end;
        gap: 0.5rem;
        padding-bottom: 0.4rem;
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
    const p = this.params;
    return html`<label for="prompt">Prompt</label>
      <textarea
        id="prompt"
        .value=${p.prompt}
        @input=${this.onInput('prompt')}
        @keydown=${this.onKey}
        aria-describedby="prompt-hint"
      ></textarea>
      <div id="prompt-hint" class="hint muted">
        ${this.note ? html`<span id="model-note">${this.note}</span> ` : ''}Ctrl+Enter generates.
      </div>
      <div class="grid">
        ${this.number('max_tokens', 'maxTokens', 1, 4096, 1)} ${this.number('temperature', 'temperature', 0, 2, 0.1)}
        ${this.number('top_p', 'topP', 0.01, 1, 0.05)}
        <div class="field">
          <label for="seed">seed</label
          ><input
            id="seed"
            type="number"
            step="1"
            placeholder="random"
            .value=${p.seed}
            @input=${this.onInput('seed')}
          />
        </div>
        <div class="field">
          <label for="stop">stop</label>
          <textarea
            id="stop"
            rows="1"
            placeholder="one per line, \\n = newline"
            .value=${p.stop}
            @input=${this.onInput('stop')}
          ></textarea>
        </div>
        <div class="field check">
          <input id="stream" type="checkbox" .checked=${p.stream} @change=${this.onStream} /><label for="stream"
            >stream</label
          >
        </div>
      </div>
      <div class="actions">
        <button id="generate" class="primary" ?disabled=${!this.ready || this.busy} @click=${this.generate}>
          Generate
        </button>
        <button id="stop-button" ?disabled=${!this.busy} @click=${this.stop}>Stop</button>
      </div>`;
  }

  private number(label: string, key: 'maxTokens' | 'temperature' | 'topP', min: number, max: number, step: number) {
    return html`<div class="field">
      <label for=${label}>${label}</label>
      <input
        id=${label}
        type="number"
        min=${min}
        max=${max}
        step=${step}
        .value=${String(this.params[key])}
        @input=${this.onNumber(key)}
      />
    </div>`;
  }

  private onInput(key: 'prompt' | 'seed' | 'stop') {
    return (event: Event) => {
      const target = event.target;
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)
        this.change({ [key]: target.value });
    };
  }

  private onNumber(key: 'maxTokens' | 'temperature' | 'topP') {
    return (event: Event) => {
      const target = event.target;
      if (target instanceof HTMLInputElement && target.value !== '' && Number.isFinite(target.valueAsNumber))
        this.change({ [key]: target.valueAsNumber });
    };
  }

  private onStream(event: Event): void {
    if (event.target instanceof HTMLInputElement) this.change({ stream: event.target.checked });
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (this.ready && !this.busy) this.generate();
    }
  }

  private change(change: Partial<SamplingParams>): void {
    this.params = { ...this.params, ...change };
    this.dispatchEvent(new CustomEvent('params-change', { detail: this.params, bubbles: true, composed: true }));
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

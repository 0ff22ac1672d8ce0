import { css, html, LitElement } from 'lit';
import { DEFAULT_PARAMS, type SamplingParams } from './request-body';
import { controls } from './theme';

/**
 * The sampling controls that matter (max_tokens, temperature, top_p, seed, stop, stream), shared
 * by the Completions and Chat tabs; each change sends the whole `params-change`.
 */
export class SamplingControls extends LitElement {
  static override properties = { params: { attribute: false } };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
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
      #stop {
        min-height: 3.6rem;
        resize: vertical;
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
    `,
  ];

  declare params: SamplingParams;

  constructor() {
    super();
    this.params = DEFAULT_PARAMS;
  }

  override render() {
    const p = this.params;
    return html`<div class="grid">
      ${this.number('max_tokens', 'maxTokens', 1, 4096, 1)} ${this.number('temperature', 'temperature', 0, 2, 0.1)}
      ${this.number('top_p', 'topP', 0.01, 1, 0.05)}
      <div class="field">
        <label for="seed">seed</label
        ><input id="seed" type="number" step="1" placeholder="random" .value=${p.seed} @input=${this.onText('seed')} />
      </div>
      <div class="field">
        <label for="stop">stop</label>
        <textarea
          id="stop"
          rows="1"
          placeholder="one per line, \\n = newline"
          .value=${p.stop}
          @input=${this.onText('stop')}
        ></textarea>
      </div>
      <div class="field check">
        <input id="stream" type="checkbox" .checked=${p.stream} @change=${this.onStream} /><label for="stream"
          >stream</label
        >
      </div>
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

  private onText(key: 'seed' | 'stop') {
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

  private change(change: Partial<SamplingParams>): void {
    this.params = { ...this.params, ...change };
    this.dispatchEvent(new CustomEvent('params-change', { detail: this.params, bubbles: true, composed: true }));
  }
}

customElements.define('sampling-controls', SamplingControls);

declare global {
  interface HTMLElementTagNameMap {
    'sampling-controls': SamplingControls;
  }
}

import { css, html, LitElement } from 'lit';
import type { RunStats } from './run-request';
import { controls } from './theme';

/**
 * The completion as plain text (never parsed as HTML), with time to first token and the prefill
 * and decode rates apart (run-stats.ts says how each is measured).
 */
export class CompletionOutput extends LitElement {
  static override properties = { text: {}, status: {}, stats: { attribute: false }, streaming: { type: Boolean } };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      pre {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        min-height: 6rem;
        max-height: 24rem;
        overflow: auto;
        margin: 0.5rem 0;
        font:
          0.95rem/1.45 ui-monospace,
          monospace;
      }
      dl {
        display: flex;
        gap: 1.5rem;
        margin: 0;
        flex-wrap: wrap;
      }
      dt {
        font-size: 0.8rem;
        color: var(--muted);
      }
      dd {
        margin: 0;
        font-weight: 600;
        font-variant-numeric: tabular-nums;
      }
    `,
  ];

  declare text: string;
  declare status: string;
  declare stats: RunStats | undefined;
  declare streaming: boolean;

  constructor() {
    super();
    this.text = '';
    this.status = '';
    this.streaming = false;
  }

  override render() {
    const stats = this.stats;
    const approx = stats && !stats.exact ? '≈ ' : '';
    return html`<h2 id="output-heading">Output</h2>
      <pre
        id="output"
        class="panel"
        tabindex="0"
        aria-labelledby="output-heading"
        aria-busy=${this.streaming ? 'true' : 'false'}
      >
${this.text}</pre>
      <dl>
        <div>
          <dt>time to first token</dt>
          <dd id="ttft">${stats?.ttftMs == null ? '–' : `${Math.round(stats.ttftMs)} ms`}</dd>
        </div>
        <div>
          <dt>prompt tokens</dt>
          <dd id="prompt-tokens">${stats?.promptTokens == null ? '–' : stats.promptTokens}</dd>
        </div>
        <div>
          <dt>tokens</dt>
          <dd id="tokens">${stats ? `${approx}${stats.tokens}` : '–'}</dd>
        </div>
        <div title="prompt tokens ÷ time to first token">
          <dt>prefill tok/s</dt>
          <dd id="prefill-tps">${rate(stats?.prefillTokensPerSecond)}</dd>
        </div>
        <div title="tokens after the first ÷ time from the first to the last">
          <dt>decode tok/s</dt>
          <dd id="decode-tps">
            ${stats?.decodeTokensPerSecond == null ? '–' : `${approx}${rate(stats.decodeTokensPerSecond)}`}
          </dd>
        </div>
      </dl>
      <p id="run-status" role="status" class="muted">${this.status}</p>`;
  }
}

/** `–` when unmeasured (a non-streamed request, a single token), else a whole number. */
const rate = (value: number | null | undefined) => (value == null ? '–' : value.toFixed(0));

customElements.define('completion-output', CompletionOutput);

declare global {
  interface HTMLElementTagNameMap {
    'completion-output': CompletionOutput;
  }
}

import { css, html, LitElement } from 'lit';
import type { RunStats } from './run-stats';
import { controls } from './theme';

/**
 * A request's figures: time to first token, prompt and completion tokens, and the prefill and
 * decode rates apart (run-stats.ts says how each is measured). `≈` until `usage` makes them exact.
 */
export class RunFigures extends LitElement {
  static override properties = { stats: { attribute: false } };

  static override styles = [
    controls,
    css`
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

  declare stats: RunStats | undefined;

  override render() {
    const stats = this.stats;
    const approx = stats && !stats.exact ? '≈ ' : '';
    return html`<dl>
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
    </dl>`;
  }
}

/** `–` when unmeasured (a non-streamed request, a single token), else a whole number. */
const rate = (value: number | null | undefined) => (value == null ? '–' : value.toFixed(0));

customElements.define('run-figures', RunFigures);

declare global {
  interface HTMLElementTagNameMap {
    'run-figures': RunFigures;
  }
}

import { css, html, LitElement } from 'lit';
import './run-figures';
import type { RunStats } from './run-request';
import { controls } from './theme';

/** The completion as plain text (never parsed as HTML), with its figures and status. */
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
    return html`<h2 id="output-heading">Output</h2>
      <pre
        id="output"
        class="panel"
        tabindex="0"
        aria-labelledby="output-heading"
        aria-busy=${this.streaming ? 'true' : 'false'}
      >
${this.text}</pre>
      <run-figures .stats=${this.stats}></run-figures>
      <p id="run-status" role="status" class="muted">${this.status}</p>`;
  }
}

customElements.define('completion-output', CompletionOutput);

declare global {
  interface HTMLElementTagNameMap {
    'completion-output': CompletionOutput;
  }
}

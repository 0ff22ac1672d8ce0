import { css, html, LitElement } from 'lit';
import { fetchCode, sdkCode, type CompletionBody } from './request-code';
import { controls } from './theme';

type Flavour = 'sdk' | 'fetch';

/** The exact `openai` SDK / `fetch` code for the current request, copyable. */
export class CodePanel extends LitElement {
  static override properties = {
    body: { attribute: false },
    apiKey: { attribute: false },
    flavour: { state: true },
    copied: { state: true },
  };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      [role='tablist'] {
        display: flex;
        gap: 0.25rem;
      }
      [role='tab'][aria-selected='true'] {
        background: var(--accent);
        color: #fff;
      }
      pre {
        white-space: pre;
        overflow: auto;
        max-height: 22rem;
        font:
          0.85rem/1.4 ui-monospace,
          monospace;
        background: #0f172a;
        color: #e2e8f0;
        padding: 0.75rem;
        border-radius: 6px;
      }
      .bar {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 0.5rem;
        flex-wrap: wrap;
      }
    `,
  ];

  declare body: CompletionBody | undefined;
  /** The key the runtime requires (shown in the code), or null. */
  declare apiKey: string | null;
  declare flavour: Flavour;
  declare copied: string;

  constructor() {
    super();
    this.flavour = 'sdk';
    this.copied = '';
  }

  override render() {
    const code = this.code();
    return html`<h2>Code for this request</h2>
      <p class="muted" id="code-note">
        The playground runs the <code>openai</code> SDK version of this against its own endpoint. It is the README's
        snippet plus
        ${
          this.body?.stream
            ? html`<code>stream_options: { include_usage: true }</code> (usage in the last chunk, for the token counts
                and the prefill rate; that chunk has no choices, hence <code>choices[0]?.</code>) and `
            : ''
        }<code>maxRetries: 0</code> (an error shows at once; the SDK would retry a 503 twice).
      </p>
      <div class="bar">
        <div role="tablist" aria-label="Code flavour">
          ${this.tab('sdk', 'openai SDK')} ${this.tab('fetch', 'fetch')}
        </div>
        <span
          ><button id="copy" @click=${this.copy}>Copy</button>
          <span role="status" class="muted">${this.copied}</span></span
        >
      </div>
      <pre id="code" role="tabpanel" tabindex="0" aria-label="${this.flavour === 'sdk' ? 'openai SDK' : 'fetch'} code">
${code}</pre>`;
  }

  private tab(flavour: Flavour, label: string) {
    const selected = this.flavour === flavour;
    return html`<button
      role="tab"
      id="tab-${flavour}"
      aria-selected=${selected ? 'true' : 'false'}
      @click=${() => this.select(flavour)}
    >
      ${label}
    </button>`;
  }

  private select(flavour: Flavour): void {
    this.flavour = flavour;
    this.copied = '';
  }

  private code(): string {
    if (!this.body) return '';
    return this.flavour === 'sdk' ? sdkCode(this.body, this.apiKey ?? null) : fetchCode(this.body, this.apiKey ?? null);
  }

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.code());
      this.copied = 'Copied';
    } catch {
      const range = document.createRange();
      const pre = this.renderRoot.querySelector('pre');
      if (pre) range.selectNodeContents(pre);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      this.copied = 'Selected: press Ctrl+C to copy';
    }
  }
}

customElements.define('code-panel', CodePanel);

declare global {
  interface HTMLElementTagNameMap {
    'code-panel': CodePanel;
  }
}

import { css, html, LitElement } from 'lit';
import { abbreviateMedia } from './abbreviate-media';
import { ENDPOINTS, fetchCode, sdkCode, type Endpoint, type EndpointBody } from './request-code';
import { controls } from './theme';

type Flavour = 'sdk' | 'fetch';

/**
 * The exact `openai` SDK / `fetch` code for the current request, copyable, for the endpoint the
 * active tab uses or, picked here, the same request on another endpoint (`endpoint-change`).
 * Media base64 shows shortened (abbreviate-media.ts); Copy copies the whole request.
 */
export class CodePanel extends LitElement {
  static override properties = {
    bodies: { attribute: false },
    endpoint: {},
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
      .bar select {
        margin-left: 0.5rem;
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

  /** The request on each endpoint. */
  declare bodies: Partial<Record<Endpoint, EndpointBody>>;
  declare endpoint: Endpoint;
  /** The key the runtime requires (shown in the code), or null. */
  declare apiKey: string | null;
  declare flavour: Flavour;
  declare copied: string;

  constructor() {
    super();
    this.bodies = {};
    this.endpoint = 'completions';
    this.flavour = 'sdk';
    this.copied = '';
  }

  override render() {
    const code = this.code(true);
    const shortened = code !== this.code(false);
    return html`<h2>Code for this request</h2>
      <p class="muted" id="code-note">${this.note()}</p>
      ${
        shortened
          ? html`<p class="muted" id="code-media-note">
              The media's base64 is shortened here (…); Copy copies the whole request.
            </p>`
          : ''
      }
      <div class="bar">
        <div role="tablist" aria-label="Code flavour">
          ${this.tab('sdk', this.sdkName())} ${this.tab('fetch', 'fetch')}
        </div>
        <span
          ><label for="code-endpoint">Endpoint</label
          ><select id="code-endpoint" .value=${this.endpoint} @change=${this.onEndpoint}>
            ${Object.entries(ENDPOINTS).map(
              ([endpoint, { path }]) =>
                html`<option value=${endpoint} ?selected=${endpoint === this.endpoint}>${path}</option>`,
            )}
          </select></span
        >
        <span
          ><button id="copy" @click=${this.copy}>Copy</button>
          <span role="status" class="muted">${this.copied}</span></span
        >
      </div>
      <pre
        id="code"
        role="tabpanel"
        tabindex="0"
        aria-label="${this.flavour === 'sdk' ? this.sdkName() : 'fetch'} code"
      >
${code}</pre>`;
  }

  /** The SDK the panel's first tab shows: Anthropic's for `/v1/messages`, else `openai`. */
  private sdkName(): string {
    return this.endpoint === 'messages' ? 'Anthropic SDK' : 'openai SDK';
  }

  private note() {
    const retries = html`<code>maxRetries: 0</code> (an error shows at once; the SDK would retry a 503 twice).`;
    if (this.endpoint === 'responses')
      return html`The Chat tab's request on <code>/v1/responses</code> (stateless: the whole conversation goes in
        <code>input</code>, the system prompt in <code>instructions</code>); the playground does not send it, but it
        runs as is in this page. Client options: the README's plus ${retries}`;
    if (this.endpoint === 'messages')
      return html`The Chat tab's request on Anthropic's <code>/v1/messages</code> with the Anthropic SDK
        (<code>@anthropic-ai/sdk</code>; its <code>baseURL</code> is the page's origin); the playground does not send
        it, but it runs as is in this page. Client options: ${retries}`;
    if (this.endpoint === 'embeddings')
      return html`The embedding of the current text (the prompt, or the Chat tab's last message); the playground does
      not send it, but it runs as is in this page. Client options: the README's plus ${retries}`;
    return html`The playground runs the <code>openai</code> SDK version of this against its own endpoint. It is the
      README's snippet plus
      ${
        this.bodies[this.endpoint]?.stream
          ? html`<code>stream_options: { include_usage: true }</code> (usage in the last chunk, for the token counts and
              the prefill rate; that chunk has no choices, hence <code>choices[0]?.</code>) and `
          : ''
      }${retries}`;
  }

  private onEndpoint(event: Event): void {
    const value = event.target instanceof HTMLSelectElement ? event.target.value : '';
    const endpoint = Object.keys(ENDPOINTS).find((key): key is Endpoint => key === value);
    if (!endpoint) return;
    this.endpoint = endpoint;
    this.copied = '';
    this.dispatchEvent(new CustomEvent('endpoint-change', { detail: endpoint, bubbles: true, composed: true }));
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

  /** The code, `shown` (media base64 shortened) or whole. */
  private code(shown: boolean): string {
    const body = this.bodies[this.endpoint];
    if (!body) return '';
    const code = this.flavour === 'sdk' ? sdkCode : fetchCode;
    return code(shown ? abbreviateMedia(body) : body, this.apiKey ?? null, this.endpoint);
  }

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.code(false));
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

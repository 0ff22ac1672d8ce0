import { css, html, LitElement, type PropertyValues } from 'lit';
import { attachmentMedia, mediaStyles } from './attachment-media';
import type { ChatTurn } from './chat-body';
import { controls } from './theme';

/**
 * The Chat tab's messages as plain text (never parsed as HTML): user and assistant bubbles (a user
 * turn's images as thumbnails, its sounds as audio controls, under its text), the assistant's
 * `reasoning_content` collapsed in a `<details>` above its answer. Keeps the newest
 * message in view while it streams.
 */
export class ChatTranscript extends LitElement {
  static override properties = { turns: { attribute: false }, streaming: { type: Boolean } };

  static override styles = [
    controls,
    mediaStyles,
    css`
      :host {
        display: block;
      }
      .log {
        min-height: 8rem;
        max-height: 28rem;
        overflow: auto;
        padding: 0.5rem;
      }
      ol {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: 0.5rem;
      }
      li {
        max-width: 85%;
        border-radius: 8px;
        padding: 0.4rem 0.65rem;
        border: 1px solid #d1d5db;
      }
      li[data-role='user'] {
        align-self: flex-end;
        background: #e0e7ff;
      }
      li[data-role='assistant'] {
        align-self: flex-start;
        background: #f9fafb;
      }
      .who {
        font-size: 0.75rem;
        font-weight: 600;
        color: var(--muted);
      }
      .content,
      details pre {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        margin: 0;
        font:
          0.95rem/1.45 ui-monospace,
          monospace;
      }
      details {
        margin: 0.25rem 0;
        color: var(--muted);
      }
      .media {
        display: flex;
        flex-wrap: wrap;
        gap: 0.35rem;
        margin-top: 0.3rem;
      }
      figure {
        margin: 0;
        font-size: 0.75rem;
        color: var(--muted);
      }
      summary {
        cursor: pointer;
        font-size: 0.85rem;
      }
    `,
  ];

  declare turns: ChatTurn[];
  declare streaming: boolean;

  constructor() {
    super();
    this.turns = [];
    this.streaming = false;
  }

  override render() {
    const last = this.turns.length - 1;
    return html`<div class="log panel" id="messages" role="region" aria-label="Messages" tabindex="0">
      ${
        this.turns.length === 0
          ? html`<p class="muted">No messages yet: type one below. Enter sends, Shift+Enter adds a line.</p>`
          : html`<ol>
              ${this.turns.map(
                (turn, i) =>
                  html`<li data-role=${turn.role} aria-busy=${this.streaming && i === last ? 'true' : 'false'}>
                    <div class="who">${turn.role === 'user' ? 'You' : 'Assistant'}</div>
                    ${
                      turn.reasoning
                        ? html`<details class="reasoning">
                            <summary>Reasoning</summary>
                            <pre>${turn.reasoning}</pre>
                          </details>`
                        : ''
                    }
                    <div class="content">${turn.content}</div>
                    ${
                      turn.attachments?.length
                        ? html`<div class="media">
                            ${turn.attachments.map((attachment) =>
                              attachment.kind === 'image'
                                ? attachmentMedia(attachment)
                                : html`<figure>
                                    ${attachmentMedia(attachment)}
                                    <figcaption>${attachment.name}</figcaption>
                                  </figure>`,
                            )}
                          </div>`
                        : ''
                    }
                  </li>`,
              )}
            </ol>`
      }
    </div>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('turns')) return;
    const log = this.renderRoot.querySelector('.log');
    if (log) log.scrollTop = log.scrollHeight;
  }
}

customElements.define('chat-transcript', ChatTranscript);

declare global {
  interface HTMLElementTagNameMap {
    'chat-transcript': ChatTranscript;
  }
}

import { css, html, LitElement } from 'lit';
import { attachmentMedia, mediaStyles } from './attachment-media';
import type { ChatAttachment } from './chat-attachment';
import { readAttachment, type Modalities } from './read-attachment';
import { controls } from './theme';

/**
 * The attachments of the next Chat tab message: an "Attach" button (a file picker for the images
 * and sounds the model takes), the files with a Remove button each, and why a file was refused.
 * Files dropped on the message box come in through `add`. Emits `attachments-change` with the
 * new list; disabled with a hint when the model takes text only.
 */
export class ChatAttachments extends LitElement {
  static override properties = {
    attachments: { attribute: false },
    modalities: { attribute: false },
    disabled: { type: Boolean },
    refused: { state: true },
  };

  static override styles = [
    controls,
    mediaStyles,
    css`
      :host {
        display: block;
      }
      .bar {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        flex-wrap: wrap;
      }
      ul {
        list-style: none;
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        margin: 0.5rem 0 0;
        padding: 0;
      }
      li {
        display: flex;
        flex-direction: column;
        gap: 0.25rem;
        font-size: 0.8rem;
        overflow-wrap: anywhere;
        max-width: 16rem;
      }
      .hint {
        font-size: 0.8rem;
      }
    `,
  ];

  declare attachments: ChatAttachment[];
  /** What the model takes besides text (its card's `modalities`); undefined: text only. */
  declare modalities: Modalities | undefined;
  declare disabled: boolean;
  declare refused: string;

  constructor() {
    super();
    this.attachments = [];
    this.disabled = false;
    this.refused = '';
  }

  override render() {
    const media = this.modalities;
    const takes = media ? [media.vision ? 'image/*' : '', media.audio ? 'audio/*' : ''].filter(Boolean) : [];
    const textOnly = takes.length === 0;
    const hint = textOnly ? 'This model takes text only.' : `Pick or drop ${describe(media)} for the next message.`;
    return html`<div class="bar">
        <input
          id="chat-attach"
          type="file"
          multiple
          hidden
          accept=${takes.join(',')}
          ?disabled=${textOnly || this.disabled}
          @change=${this.onPick}
        />
        <button
          id="chat-attach-button"
          title=${hint}
          aria-describedby="attach-hint"
          ?disabled=${textOnly || this.disabled}
          @click=${() => this.renderRoot.querySelector<HTMLInputElement>('#chat-attach')?.click()}
        >
          Attach…
        </button>
        <span id="attach-hint" class="hint muted">${hint}</span>
      </div>
      ${this.refused ? html`<p id="attach-refused" class="hint" role="alert">${this.refused}</p>` : ''}
      ${
        this.attachments.length === 0
          ? ''
          : html`<ul id="attachments" aria-label="Attachments">
              ${this.attachments.map(
                (attachment, i) =>
                  html`<li>
                    ${attachmentMedia(attachment)}
                    <span>${attachment.name}</span>
                    <button
                      aria-label="Remove ${attachment.name}"
                      ?disabled=${this.disabled}
                      @click=${() => this.removeAt(i)}
                    >
                      Remove
                    </button>
                  </li>`,
              )}
            </ul>`
      }`;
  }

  /** Reads `files` and adds those the model takes; says why the others were refused. */
  async add(files: Iterable<File>): Promise<void> {
    const media = this.modalities;
    if (!media || this.disabled) return;
    const results = await Promise.all([...files].map((file) => readAttachment(file, media)));
    const added = results.flatMap((result) => ('attachment' in result ? [result.attachment] : []));
    this.refused = results.flatMap((result) => ('refused' in result ? [result.refused] : [])).join(' ');
    if (added.length > 0) this.emit([...this.attachments, ...added]);
  }

  private onPick(event: Event): void {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.files) return;
    const files = [...input.files];
    input.value = '';
    void this.add(files);
  }

  private removeAt(index: number): void {
    this.refused = '';
    this.emit(this.attachments.filter((_, i) => i !== index));
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#chat-attach-button')?.focus());
  }

  private emit(attachments: ChatAttachment[]): void {
    this.dispatchEvent(new CustomEvent('attachments-change', { detail: attachments, bubbles: true, composed: true }));
  }
}

function describe(media: Modalities | undefined): string {
  return media?.vision && media.audio ? 'images or sounds (WAV, MP3)' : media?.vision ? 'images' : 'sounds (WAV, MP3)';
}

customElements.define('chat-attachments', ChatAttachments);

declare global {
  interface HTMLElementTagNameMap {
    'chat-attachments': ChatAttachments;
  }
}

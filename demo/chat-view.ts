import { css, html, LitElement } from 'lit';
import type { ChatAttachment } from './chat-attachment';
import './chat-attachments';
import type { ChatTurn } from './chat-body';
import './chat-transcript';
import type { Modalities } from './read-attachment';
import { DEFAULT_PARAMS, type SamplingParams } from './request-body';
import './run-figures';
import type { RunStats } from './run-stats';
import './sampling-controls';
import { controls } from './theme';

/**
 * The Chat tab: an optional system prompt and the shared sampling controls beside the messages,
 * the message box (Enter sends, Shift+Enter adds a line; images and sounds dropped on it, or
 * picked, go with the message), Send / Stop / Clear, the figures and the finish reason. It holds no conversation: the playground does, and sends the requests.
 */
export class ChatView extends LitElement {
  static override properties = {
    turns: { attribute: false },
    params: { attribute: false },
    stats: { attribute: false },
    system: {},
    draft: {},
    attachments: { attribute: false },
    modalities: { attribute: false },
    status: {},
    note: {},
    ready: { type: Boolean },
    busy: { type: Boolean },
  };

  static override styles = [
    controls,
    css`
      :host {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr));
        gap: 0.75rem;
      }
      textarea {
        width: 100%;
        resize: vertical;
      }
      .hint {
        font-size: 0.8rem;
      }
      .actions {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        margin: 0.5rem 0 0.75rem;
      }
      chat-transcript {
        margin: 0.5rem 0 0.75rem;
      }
    `,
  ];

  declare turns: ChatTurn[];
  declare params: SamplingParams;
  declare stats: RunStats | undefined;
  declare system: string;
  declare draft: string;
  /** Images and sounds to go with the next message. */
  declare attachments: ChatAttachment[];
  /** What the model takes besides text (its card's `modalities`); undefined: text only. */
  declare modalities: Modalities | undefined;
  declare status: string;
  /** What to expect from the running model (the test model's rule). */
  declare note: string;
  declare ready: boolean;
  declare busy: boolean;

  constructor() {
    super();
    this.turns = [];
    this.params = DEFAULT_PARAMS;
    this.system = '';
    this.draft = '';
    this.attachments = [];
    this.status = '';
    this.note = '';
    this.ready = false;
    this.busy = false;
  }

  override render() {
    const canSend = this.canSend();
    return html`<section class="panel" aria-label="Chat settings">
        <label for="chat-system">System prompt (optional)</label>
        <textarea id="chat-system" rows="3" .value=${this.system} @input=${this.onText('system-change')}></textarea>
        <sampling-controls .params=${this.params}></sampling-controls>
      </section>
      <section class="panel" aria-label="Conversation">
        <h2>Conversation</h2>
        <chat-transcript .turns=${this.turns} ?streaming=${this.busy}></chat-transcript>
        <label for="chat-input">Message</label>
        <textarea
          id="chat-input"
          rows="2"
          .value=${this.draft}
          @input=${this.onText('draft-change')}
          @keydown=${this.onKey}
          @dragover=${this.onDragOver}
          @drop=${this.onDrop}
          aria-describedby="chat-hint"
        ></textarea>
        <div id="chat-hint" class="hint muted">
          ${this.note ? html`${this.note} ` : ''}Enter sends, Shift+Enter adds a line.
        </div>
        <chat-attachments
          .attachments=${this.attachments}
          .modalities=${this.modalities}
          ?disabled=${this.busy}
        ></chat-attachments>
        <div class="actions">
          <button id="chat-send" class="primary" ?disabled=${!canSend} @click=${this.send}>Send</button>
          <button id="chat-stop" ?disabled=${!this.busy} @click=${() => this.emit('stop')}>Stop</button>
          <button id="chat-clear" ?disabled=${this.busy || this.turns.length === 0} @click=${() => this.emit('clear')}>
            Clear
          </button>
        </div>
        <run-figures .stats=${this.stats}></run-figures>
        <p id="chat-status" role="status" class="muted">${this.status}</p>
      </section>`;
  }

  private onText(name: 'system-change' | 'draft-change') {
    return (event: Event) => {
      if (event.target instanceof HTMLTextAreaElement) this.emit(name, event.target.value);
    };
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    this.send();
  }

  /** A file dragged over the message box may be dropped there. */
  private onDragOver(event: DragEvent): void {
    if (this.modalities && event.dataTransfer?.types.includes('Files')) event.preventDefault();
  }

  private onDrop(event: DragEvent): void {
    const files = event.dataTransfer?.files;
    if (!files || files.length === 0) return;
    event.preventDefault();
    void this.renderRoot.querySelector('chat-attachments')?.add(files);
  }

  private canSend(): boolean {
    return this.ready && !this.busy && (this.draft.trim() !== '' || this.attachments.length > 0);
  }

  private send(): void {
    if (this.canSend()) this.emit('send', this.draft);
  }

  private emit(name: string, detail?: string): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }
}

customElements.define('chat-view', ChatView);

declare global {
  interface HTMLElementTagNameMap {
    'chat-view': ChatView;
  }
}

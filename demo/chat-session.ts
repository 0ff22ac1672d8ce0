import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatAttachment } from './chat-attachment';
import { toChatBody, type ChatTurn, type Conversation } from './chat-body';
import type { SamplingParams } from './request-body';
import { runChat } from './run-chat';
import type { RunStats } from './run-stats';

/** Runs one request for the playground (busy, Stop, notices), setting the status; false when it failed. */
export type Runner = (
  setStatus: (status: string) => void,
  request: (signal: AbortSignal) => Promise<string | null>,
) => Promise<boolean>;

/**
 * The Chat tab's state, kept by the playground across tab switches (a Lit reactive controller):
 * the system prompt, the message box and its attachments, the turns, and the last request's
 * status and figures.
 */
export class ChatSession implements ReactiveController {
  system = '';
  draft = 'abc';
  /** Images and sounds to go with the next message. */
  attachments: ChatAttachment[] = [];
  turns: ChatTurn[] = [];
  status = '';
  stats: RunStats | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Nothing to start: the session only asks its host to render again when it changes. */
  hostConnected(): void {}

  conversation(): Conversation {
    return { system: this.system, turns: this.turns };
  }

  set(change: { system?: string; draft?: string; attachments?: ChatAttachment[] }): void {
    Object.assign(this, change);
    this.host.requestUpdate();
  }

  /** Sends the conversation plus `text` and the attachments; the answer streams into a new assistant turn. */
  async send(text: string, model: string, params: SamplingParams, run: Runner, onWaiting: () => void): Promise<void> {
    const before = this.turns;
    const attachments = this.attachments;
    const turn: ChatTurn = attachments.length
      ? { role: 'user', content: text, attachments }
      : { role: 'user', content: text };
    const conversation: Conversation = { system: this.system, turns: [...before, turn] };
    const answer: ChatTurn = { role: 'assistant', content: '' };
    const show = () => {
      this.turns = [...conversation.turns, { ...answer }];
      this.host.requestUpdate();
    };
    this.draft = '';
    this.attachments = [];
    this.stats = undefined;
    show();
    const ok = await run(
      (status) => {
        this.status = status;
        this.host.requestUpdate();
      },
      (signal) =>
        runChat(toChatBody(model, params, conversation), signal, {
          onText: (piece) => {
            answer.content += piece;
            show();
          },
          onReasoning: (piece) => {
            answer.reasoning = (answer.reasoning ?? '') + piece;
            show();
          },
          onStats: (stats) => {
            this.stats = stats;
            this.host.requestUpdate();
          },
          onWaiting,
        }),
    );
    // A failed turn goes back into the message box, to send again.
    if (!ok) {
      this.turns = before;
      this.set({ draft: text, attachments });
    }
  }

  clear(): void {
    this.turns = [];
    this.status = '';
    this.stats = undefined;
    this.host.requestUpdate();
  }
}

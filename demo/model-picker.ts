import { css, html, LitElement, nothing } from 'lit';
import type { ModelCard } from '../src/index';
import type { CatalogueEntry } from './catalogue';
import { describeAccelerator } from './describe-accelerator';
import { describeEntry } from './describe-entry';
import { controls } from './theme';

/**
 * Picks another catalogue model to load (size, cached, backend; Load is offered only for a
 * model other than the running one) and shows what `GET /v1/models` returns.
 */
export class ModelPicker extends LitElement {
  static override properties = {
    entries: { attribute: false },
    cached: { attribute: false },
    served: { attribute: false },
    current: {},
    webgpu: { type: Boolean },
    selected: { state: true },
  };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      .row {
        display: flex;
        gap: 0.5rem;
        align-items: end;
        flex-wrap: wrap;
      }
      .field {
        display: flex;
        flex-direction: column;
        gap: 0.25rem;
        flex: 1;
        min-width: 16rem;
      }
      table {
        border-collapse: collapse;
        width: 100%;
        font-size: 0.85rem;
        margin-top: 0.5rem;
      }
      th,
      td {
        text-align: left;
        border-bottom: 1px solid #e5e7eb;
        padding: 0.25rem 0.4rem;
      }
      caption {
        text-align: left;
        font-weight: 600;
        font-size: 0.85rem;
        padding: 0.25rem 0;
      }
    `,
  ];

  declare entries: readonly CatalogueEntry[];
  declare cached: ReadonlySet<string>;
  declare served: ModelCard[];
  declare current: string;
  declare webgpu: boolean;
  /** The option chosen in the select (its `source`), until a new `current` arrives. */
  declare selected: string | undefined;

  constructor() {
    super();
    this.entries = [];
    this.cached = new Set();
    this.served = [];
    this.current = '';
    this.webgpu = false;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('current')) this.selected = undefined;
  }

  override render() {
    const running = this.entries.find((entry) => entry.id === this.current);
    const choice = this.selected ?? running?.source ?? this.entries[0]?.source ?? '';
    const isRunning = running !== undefined && choice === running.source;
    return html`<div class="row">
        <div class="field">
          <label for="model">Load another model</label>
          <select id="model" @change=${this.onChange}>
            ${this.entries.map(
              (entry) =>
                html`<option
                  value=${entry.source}
                  ?selected=${entry.source === choice}
                  ?disabled=${entry.requires === 'webgpu' && !this.webgpu}
                >
                  ${describeEntry(entry, this.cached.has(entry.id), this.webgpu)}${entry === running ? ' (running)' : ''}
                </option>`,
            )}
          </select>
        </div>
        <button
          id="load"
          ?disabled=${isRunning}
          title=${isRunning ? 'This model is running; pick another one to load it' : ''}
          @click=${this.load}
        >
          ${isRunning ? 'Running' : 'Load'}
        </button>
      </div>
      ${
        this.served.length > 0
          ? html`<table>
              <caption>
                GET /v1/models
              </caption>
              <thead>
                <tr>
                  <th scope="col">id</th>
                  <th scope="col">backend</th>
                  <th scope="col">status</th>
                  <th scope="col">context</th>
                  <th scope="col">runs on</th>
                </tr>
              </thead>
              <tbody>
                ${this.served.map(
                  (card) =>
                    html`<tr>
                      <td>${card.id}</td>
                      <td>${card.backend}</td>
                      <td>${card.status}</td>
                      <td>${card.context_length ?? ''}</td>
                      <td>${describeAccelerator(card)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : nothing
      }`;
  }

  private onChange(event: Event): void {
    if (event.target instanceof HTMLSelectElement) this.selected = event.target.value;
  }

  private load(): void {
    const select = this.renderRoot.querySelector('select');
    if (select)
      this.dispatchEvent(new CustomEvent('load-model', { detail: select.value, bubbles: true, composed: true }));
  }
}

customElements.define('model-picker', ModelPicker);

declare global {
  interface HTMLElementTagNameMap {
    'model-picker': ModelPicker;
  }
}

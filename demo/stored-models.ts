import { css, html, LitElement, nothing } from 'lit';
import type { Inpage, StoredModelInfo, StoredModelsUsage } from '../src/index';
import { describeLastUsed, describeSize, describeState, describeUsage } from './describe-storage';
import { controls } from './theme';

/**
 * The models this browser keeps (`inpage.models`): size, complete or partial, last use, a Delete
 * button each, and the origin's storage. Read again when a model finished loading (it may just
 * have been stored) and after a delete.
 */
export class StoredModels extends LitElement {
  static override properties = {
    runtime: { attribute: false },
    models: { state: true },
    usage: { state: true },
    status: { state: true },
    deleting: { state: true },
  };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      table {
        border-collapse: collapse;
        width: 100%;
        font-size: 0.85rem;
      }
      th,
      td {
        text-align: left;
        border-bottom: 1px solid #e5e7eb;
        padding: 0.25rem 0.4rem;
        overflow-wrap: anywhere;
      }
      button {
        padding: 0.2rem 0.6rem;
      }
    `,
  ];

  declare runtime: Inpage | undefined;
  declare models: StoredModelInfo[];
  declare usage: StoredModelsUsage | undefined;
  declare status: string;
  /** The id being deleted (its button is disabled meanwhile). */
  declare deleting: string | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor() {
    super();
    this.models = [];
    this.status = '';
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (!changed.has('runtime')) return;
    this.unsubscribe?.();
    const runtime = this.runtime;
    this.unsubscribe = runtime?.onProgress((progress) => {
      if (progress.phase === 'ready') void this.refresh();
    });
    void this.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Reads the store again. */
  async refresh(): Promise<void> {
    const manager = this.runtime?.models;
    if (!manager) return;
    try {
      [this.models, this.usage] = await Promise.all([manager.list(), manager.usage()]);
    } catch (error) {
      this.status = `Could not read the stored models: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  override render() {
    return html`<h2 id="stored-heading">Stored models</h2>
      <p id="storage-usage" class="muted">${this.usage ? describeUsage(this.usage) : ''}</p>
      ${
        this.models.length === 0
          ? html`<p id="stored-empty" class="muted">No model is stored in this browser.</p>`
          : html`<table aria-labelledby="stored-heading">
              <thead>
                <tr>
                  <th scope="col">id</th>
                  <th scope="col">size</th>
                  <th scope="col">state</th>
                  <th scope="col">last used</th>
                  <th scope="col">action</th>
                </tr>
              </thead>
              <tbody>
                ${this.models.map(
                  (model) =>
                    html`<tr>
                      <td title=${model.source || nothing}>${model.id}</td>
                      <td>${describeSize(model)}</td>
                      <td>${describeState(model)}</td>
                      <td>${describeLastUsed(model)}</td>
                      <td>
                        <button
                          class="delete"
                          aria-label="Delete ${model.id}"
                          ?disabled=${this.deleting === model.id}
                          @click=${() => this.deleteModel(model.id)}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      <p id="stored-status" role="status" class="muted">${this.status}</p>`;
  }

  private async deleteModel(id: string): Promise<void> {
    const manager = this.runtime?.models;
    if (!manager) return;
    this.deleting = id;
    try {
      this.status = (await manager.delete(id)) ? `Deleted ${id}.` : `${id} was not stored.`;
    } catch (error) {
      this.status = error instanceof Error ? error.message : String(error);
    } finally {
      this.deleting = undefined;
    }
    await this.refresh();
  }
}

customElements.define('stored-models', StoredModels);

declare global {
  interface HTMLElementTagNameMap {
    'stored-models': StoredModels;
  }
}

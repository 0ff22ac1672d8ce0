import { css, html, LitElement, nothing } from 'lit';
import type { ModelCard } from '../src/index';
import { formatBytes, type CatalogueEntry } from './catalogue';
import { controls } from './theme';

/** Picks a catalogue model (size, cached, backend) and shows what `GET /v1/models` returns. */
export class ModelPicker extends LitElement {
  static override properties = {
    entries: { attribute: false },
    cached: { attribute: false },
    served: { attribute: false },
    current: {},
    webgpu: { type: Boolean },
  };

  static override styles = [
    controls,
    css`
      :host { display: block; }
      .row { display: flex; gap: 0.5rem; align-items: end; flex-wrap: wrap; }
      .field { display: flex; flex-direction: column; gap: 0.25rem; flex: 1; min-width: 16rem; }
      table { border-collapse: collapse; width: 100%; font-size: 0.85rem; margin-top: 0.5rem; }
      th, td { text-align: left; border-bottom: 1px solid #e5e7eb; padding: 0.25rem 0.4rem; }
      caption { text-align: left; font-weight: 600; font-size: 0.85rem; padding: 0.25rem 0; }
    `,
  ];

  declare entries: readonly CatalogueEntry[];
  declare cached: ReadonlySet<string>;
  declare served: ModelCard[];
  declare current: string;
  declare webgpu: boolean;

  constructor() {
    super();
    this.entries = [];
    this.cached = new Set();
    this.served = [];
    this.current = '';
    this.webgpu = false;
  }

  override render() {
    return html`<div class="row">
        <div class="field">
          <label for="model">Model</label>
          <select id="model">
            ${this.entries.map(
              (entry) => html`<option value=${entry.source} ?selected=${entry.id === this.current} ?disabled=${entry.requires === 'webgpu' && !this.webgpu}>
                ${this.describe(entry)}
              </option>`,
            )}
          </select>
        </div>
        <button @click=${this.load}>Load</button>
      </div>
      ${this.served.length > 0
        ? html`<table>
            <caption>GET /v1/models</caption>
            <thead><tr><th scope="col">id</th><th scope="col">backend</th><th scope="col">status</th><th scope="col">context</th></tr></thead>
            <tbody>${this.served.map((card) => html`<tr><td>${card.id}</td><td>${card.backend}</td><td>${card.status}</td><td>${card.context_length ?? ''}</td></tr>`)}</tbody>
          </table>`
        : nothing}`;
  }

  private describe(entry: CatalogueEntry): string {
    const size = entry.downloadBytes === 0 ? 'no download' : `${formatBytes(entry.downloadBytes)} download`;
    const cached = entry.downloadBytes === 0 ? 'built in' : this.cached.has(entry.id) ? 'cached' : 'not cached';
    const needs = entry.requires === 'webgpu' && !this.webgpu ? ' · needs WebGPU' : '';
    return `${entry.label} · ${entry.backend} · ${size} · ${cached}${needs}`;
  }

  private load(): void {
    const select = this.renderRoot.querySelector('select');
    if (select) this.dispatchEvent(new CustomEvent('load-model', { detail: select.value, bubbles: true, composed: true }));
  }
}

customElements.define('model-picker', ModelPicker);

declare global {
  interface HTMLElementTagNameMap {
    'model-picker': ModelPicker;
  }
}

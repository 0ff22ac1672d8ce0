import { css, html, LitElement, nothing } from 'lit';
import type { LoadProgress } from '../src/index';
import { formatBytes } from './catalogue';
import { controls } from './theme';

/** The model's download/load progress: a bar, the phase and the bytes. */
export class LoadProgressBar extends LitElement {
  static override properties = { progress: { attribute: false }, state: {}, model: {} };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      progress {
        width: 100%;
        height: 0.9rem;
        accent-color: var(--accent);
      }
      .line {
        display: flex;
        justify-content: space-between;
        gap: 1rem;
        font-size: 0.9rem;
      }
    `,
  ];

  declare progress: LoadProgress | undefined;
  declare state: 'loading' | 'ready' | 'failed';
  declare model: string;

  override render() {
    const progress = this.progress;
    // null: how far it has come is not known yet (an indeterminate bar, no percentage).
    const fraction = this.state === 'ready' ? 1 : progress ? progress.fraction : 0;
    const phase =
      this.state === 'failed' ? 'failed' : this.state === 'ready' ? 'ready' : (progress?.phase ?? 'starting');
    const bytes = progress?.totalBytes
      ? `${formatBytes(progress.loadedBytes ?? 0)} of ${formatBytes(progress.totalBytes)}`
      : progress?.loadedBytes
        ? formatBytes(progress.loadedBytes)
        : '';
    const percent = this.state === 'loading' && fraction !== null ? ` ${Math.round(fraction * 100)}%` : '';
    const text = `${phase}${percent}${bytes ? ` · ${bytes}` : ''}`;
    const verb = this.state === 'ready' ? 'Running' : this.state === 'failed' ? 'Could not start' : 'Loading';
    return html`<div class="line">
        <span id="label">${verb} <strong>${this.model}</strong></span
        ><span class="muted" id="phase">${text}</span>
      </div>
      <progress aria-labelledby="label" aria-valuetext=${text} max="1" value=${fraction ?? nothing}></progress>`;
  }
}

customElements.define('load-progress', LoadProgressBar);

declare global {
  interface HTMLElementTagNameMap {
    'load-progress': LoadProgressBar;
  }
}

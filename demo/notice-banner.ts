import { css, html, LitElement, nothing } from 'lit';
import type { Notice } from './describe-failure';
import { controls } from './theme';

/** A state banner (no WebGPU, offline, quota, busy, failure) with its offer, if any. */
export class NoticeBanner extends LitElement {
  static override properties = { notice: { attribute: false } };

  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      .banner {
        border-left: 6px solid #b45309;
        background: #fffbeb;
        padding: 0.75rem 1rem;
        border-radius: 6px;
        margin: 0.5rem 0;
      }
      .banner.error,
      .banner.download-failed,
      .banner.offline,
      .banner.quota,
      .banner.no-engine {
        border-color: #b91c1c;
        background: #fef2f2;
      }
      .banner.info,
      .banner.no-webgpu {
        border-color: #1d4ed8;
        background: #eff6ff;
      }
      h2 {
        font-size: 1rem;
        margin: 0 0 0.25rem;
      }
      p {
        margin: 0 0 0.5rem;
        overflow-wrap: anywhere;
      }
    `,
  ];

  declare notice: Notice | undefined;

  override render() {
    const notice = this.notice;
    if (!notice) return nothing;
    const role = notice.kind === 'info' || notice.kind === 'no-webgpu' || notice.kind === 'busy' ? 'status' : 'alert';
    return html`<section class="banner ${notice.kind}" role=${role} data-kind=${notice.kind}>
      <h2>${notice.title}</h2>
      <p>${notice.detail}</p>
      ${notice.offerTestModel ? html`<button class="primary" @click=${this.useTestModel}>Use inpage-test (built in, works offline)</button>` : nothing}
    </section>`;
  }

  private useTestModel(): void {
    this.dispatchEvent(new CustomEvent('use-test-model', { bubbles: true, composed: true }));
  }
}

customElements.define('notice-banner', NoticeBanner);

declare global {
  interface HTMLElementTagNameMap {
    'notice-banner': NoticeBanner;
  }
}

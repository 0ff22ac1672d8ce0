/**
 * How an attachment shows, in the message box's list and in the transcript: an image as a
 * thumbnail (its name as `alt`), a sound as an audio control labelled with its name.
 */
import { css, html } from 'lit';
import { dataUrl, type ChatAttachment } from './chat-attachment';

export function attachmentMedia(attachment: ChatAttachment) {
  return attachment.kind === 'image'
    ? html`<img class="thumb" src=${dataUrl(attachment)} alt=${attachment.name} />`
    : html`<audio
        class="sound"
        controls
        preload="metadata"
        src=${dataUrl(attachment)}
        aria-label=${attachment.name}
      ></audio>`;
}

export const mediaStyles = css`
  img.thumb {
    display: block;
    max-width: 8rem;
    max-height: 6rem;
    border-radius: 4px;
    border: 1px solid var(--line);
    image-rendering: pixelated;
  }
  audio.sound {
    display: block;
    height: 2rem;
    max-width: 16rem;
  }
`;

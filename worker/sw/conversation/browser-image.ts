/**
 * A WebP or AVIF image (browser-image-type.ts), which llama.cpp's image reader cannot read, read
 * by the browser instead and handed to the engine as a PNG of its pixels (issue 32): so the page
 * takes the images the web is made of, where llama-server refuses them. The pixels are the
 * decoder's, without colour management (`colorSpaceConversion: 'none'`, as stb_image ignores ICC
 * profiles), drawn on a 2D canvas: opaque pixels exactly as decoded (a lossless WebP gives
 * llama-server's answer for a PNG of the same pixels); a canvas keeps colours premultiplied by
 * alpha, so partly transparent ones may differ by rounding (mtmd drops alpha). Bytes the browser
 * cannot decode are a 400 naming the part; where a worker has no OffscreenCanvas they go on as
 * they are, and the engine refuses them as it does any bytes it cannot read.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { browserImageType } from '#core/media/browser-image-type';

/** `bytes` as the engine can read them: a PNG of a WebP or AVIF image's pixels; other bytes as they are. */
export async function engineReadableImage(bytes: Uint8Array, param: string): Promise<Uint8Array> {
  const type = browserImageType(bytes);
  if (type === null || typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') return bytes;
  try {
    const blob = new Blob([bytes.slice()], { type: `image/${type}` });
    const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D context');
    context.drawImage(bitmap, 0, 0);
    bitmap.close();
    return new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
  } catch {
    throw new InvalidRequestError(
      `'${param}' could not be decoded as an image (the browser could not read it as ${type === 'webp' ? 'WebP' : 'AVIF'}).`,
      param,
    );
  }
}

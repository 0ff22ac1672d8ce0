// Draws the playground's icons (a speech bubble with three dots) as PNG files and one SVG:
// node scripts/make-icons.mjs. Run once; the outputs are committed under demo/public/icons/.
import { mkdir, writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';

const BACKGROUND = [30, 58, 138];
const BUBBLE = [255, 255, 255];
const DOT = [30, 58, 138];

/** Coverage of the shape at (x, y) in a 1x1 icon: 0 background, 1 bubble, 2 dot. */
function shapeAt(x, y) {
  const dots = [0.36, 0.5, 0.64];
  if (dots.some((cx) => (x - cx) ** 2 + (y - 0.47) ** 2 < 0.045 ** 2)) return 2;
  const inBody = roundedRect(x, y, 0.22, 0.3, 0.78, 0.64, 0.08);
  const inTail = y >= 0.62 && y <= 0.76 && x >= 0.3 && x <= 0.44 && x - 0.3 <= (0.76 - y) * 1.0;
  return inBody || inTail ? 1 : 0;
}

function roundedRect(x, y, x0, y0, x1, y1, r) {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return x >= x0 && x <= x1 && y >= y0 && y <= y1 && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function render(size) {
  const rows = [];
  const samples = 4;
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const shape = shapeAt((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          const color = shape === 2 ? DOT : shape === 1 ? BUBBLE : BACKGROUND;
          for (let c = 0; c < 3; c++) sum[c] += color[c];
        }
      }
      for (let c = 0; c < 3; c++) row[1 + px * 3 + c] = Math.round(sum[c] / samples ** 2);
    }
    rows.push(row);
  }
  return png(size, Buffer.concat(rows));
}

function png(size, raw) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect width="100" height="100" fill="rgb(${BACKGROUND})"/>
  <rect x="22" y="30" width="56" height="34" rx="8" fill="rgb(${BUBBLE})"/>
  <path d="M30 62 L44 62 L30 76 Z" fill="rgb(${BUBBLE})"/>
  ${[36, 50, 64].map((cx) => `<circle cx="${cx}" cy="47" r="4.5" fill="rgb(${DOT})"/>`).join('\n  ')}
</svg>
`;

await mkdir('demo/public/icons', { recursive: true });
await writeFile('demo/public/icons/icon-192.png', render(192));
await writeFile('demo/public/icons/icon-512.png', render(512));
await writeFile('demo/public/icons/icon.svg', svg);
console.log('wrote demo/public/icons/icon-192.png, icon-512.png, icon.svg');

/**
 * The test models' writers (write-test-*.ts): each of `files`' bytes written as its name into
 * `dir` (made where missing), with its size and sha256 printed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeTestFiles(dir: string, files: Record<string, () => Uint8Array>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, build] of Object.entries(files)) {
    const bytes = build();
    writeFileSync(join(dir, name), bytes);
    console.log(`${join(dir, name)} ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
  }
}

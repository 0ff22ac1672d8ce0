// Prints the glue's exports as Emscripten's SIGNATURE_CONVERSIONS list, for the memory64 builds
// (link-engine.sh): each `IP_EXPORT` (or `IP_EXPORT_MAY_SUSPEND`) function of native/*.cpp as `name:sig`, its return first
// and then each parameter, `p` for a pointer and `_` for anything else. Emscripten wraps those
// exports so that JavaScript passes and gets their pointers as Numbers, as in the wasm32 builds
// (a memory64 export takes and returns BigInts otherwise). Exports without a pointer are left
// out (Emscripten refuses a conversion that converts nothing).
//   usage: node export-signatures.mjs GLUE_DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const EXPORT = /^IP_EXPORT(?:_MAY_SUSPEND)?\s+([^(]*?)\s*\b(ip_\w+)\s*\(([^)]*)\)/gm;
const kind = (declaration) => (declaration.includes('*') ? 'p' : '_');

const dir = process.argv[2];
const signatures = new Map();
for (const file of readdirSync(dir)
  .filter((name) => name.endsWith('.cpp'))
  .sort())
  for (const [, result, name, params] of readFileSync(join(dir, file), 'utf8').matchAll(EXPORT)) {
    const args = params.trim() === '' || params.trim() === 'void' ? [] : params.split(',');
    const signature = kind(result) + args.map(kind).join('');
    if (signature.includes('p')) signatures.set(name, signature);
  }
if (signatures.size === 0) throw new Error(`no IP_EXPORT function in ${dir}`);
console.log([...signatures].map(([name, sig]) => `${name}:${sig}`).join(','));

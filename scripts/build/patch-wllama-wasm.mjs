// One 2-byte patch to wllama's wasm (llama.cpp's server core), applied when the engine worker
// is built: nlohmann::json's `basic_json::dump` serialises with `error_handler_t::replace`
// whatever handler its caller asked for. The wasm's server core dumps its results strictly, so
// a generation whose text is not valid UTF-8 (a lone byte token: random weights, a character
// cut by sampling or `logit_bias`) throws `type_error.316` and fails the whole request;
// llama.cpp's native server sends such text with U+FFFD (its `safe_json_to_str`), as OpenAI
// does. Upstream fix: `dump(-1, ' ', false, json::error_handler_t::replace)` at
// `cpp/wllama-context.h:1543`. The project cannot rebuild the wasm (no emscripten with JSPI +
// Memory64 here), so the build patches the one instruction that stores the handler: in
// `basic_json::dump`, `local.get 3` (the handler argument) becomes `i32.const 1` (replace),
// same length. The patch checks the function by name and the exact bytes around it, and fails
// the build loudly when a wllama upgrade moves them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const DUMP = 'nlohmann::json_abi_v3_12_0::basic_json<nlohmann::...>::dump';
// local.get 4 (the serializer's frame); local.get 3 (the handler); i32.store align=2 offset=648
const STORE_HANDLER = [0x20, 0x04, 0x20, 0x03, 0x36, 0x02, 0x88, 0x05];
const REPLACE = [0x41, 0x01]; // i32.const 1: error_handler_t::replace

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** The module's sections: id, name (custom ones) and the byte range of their content. */
function sections(bytes) {
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at++];
    const [size, start] = leb(bytes, at);
    let name = null;
    if (id === 0) {
      const [length, from] = leb(bytes, start);
      name = new TextDecoder().decode(bytes.subarray(from, from + length));
    }
    out.push({ id, name, start, end: start + size });
    at = start + size;
  }
  return out;
}

/** The function index named `wanted` in the name section. */
function functionIndex(bytes, names, wanted) {
  let [length, at] = leb(bytes, names.start);
  at += length;
  while (at < names.end) {
    const kind = bytes[at++];
    const [size, start] = leb(bytes, at);
    if (kind === 1) {
      let [count, cursor] = leb(bytes, start);
      for (; count > 0; count--) {
        let index;
        [index, cursor] = leb(bytes, cursor);
        let nameLength;
        [nameLength, cursor] = leb(bytes, cursor);
        const name = new TextDecoder().decode(bytes.subarray(cursor, cursor + nameLength));
        cursor += nameLength;
        if (name === wanted) return index;
      }
    }
    at = start + size;
  }
  throw new Error(`wllama.wasm: no function named ${wanted}`);
}

/** How many functions the module imports (function indices count them first). */
function importedFunctions(bytes, imports) {
  let [count, at] = leb(bytes, imports.start);
  let functions = 0;
  for (; count > 0; count--) {
    for (let part = 0; part < 2; part++) {
      const [length, from] = leb(bytes, at);
      at = from + length;
    }
    const kind = bytes[at++];
    if (kind === 0) {
      functions++;
      [, at] = leb(bytes, at);
    } else if (kind === 1) {
      at++; // reftype
      const flags = bytes[at++];
      [, at] = leb(bytes, at);
      if (flags & 1) [, at] = leb(bytes, at);
    } else if (kind === 2) {
      const flags = bytes[at++];
      [, at] = leb(bytes, at);
      if (flags & 1) [, at] = leb(bytes, at);
    } else if (kind === 3) {
      at += 2; // valtype, mutability
    } else if (kind === 4) {
      at++; // attribute
      [, at] = leb(bytes, at);
    } else {
      throw new Error(`wllama.wasm: unknown import kind ${kind}`);
    }
  }
  return functions;
}

/** The byte range of function `index`'s body in the code section. */
function functionBody(bytes, code, index) {
  let [count, at] = leb(bytes, code.start);
  if (index >= count) throw new Error(`wllama.wasm: function ${index} is not in the code section`);
  for (let i = 0; ; i++) {
    const [size, start] = leb(bytes, at);
    if (i === index) return { start, end: start + size };
    at = start + size;
  }
}

/** `bytes` (wllama.wasm) with `basic_json::dump` replacing invalid UTF-8; throws if the code moved. */
export function patchWllamaWasm(source) {
  const bytes = new Uint8Array(source);
  const all = sections(bytes);
  const find = (test, what) => {
    const section = all.find(test);
    if (!section) throw new Error(`wllama.wasm: no ${what} section`);
    return section;
  };
  const names = find((section) => section.id === 0 && section.name === 'name', 'name');
  const imports = find((section) => section.id === 2, 'import');
  const code = find((section) => section.id === 10, 'code');
  const index = functionIndex(bytes, names, DUMP) - importedFunctions(bytes, imports);
  const body = functionBody(bytes, code, index);
  const hits = [];
  for (let at = body.start; at + STORE_HANDLER.length <= body.end; at++) {
    if (STORE_HANDLER.every((byte, offset) => bytes[at + offset] === byte)) hits.push(at);
  }
  if (hits.length !== 1) {
    throw new Error(
      `wllama.wasm: expected the handler store once in ${DUMP}, found it ${hits.length} times (wllama upgraded? see scripts/build/patch-wllama-wasm.mjs)`,
    );
  }
  bytes.set(REPLACE, hits[0] + 2);
  return bytes;
}

const require = createRequire(import.meta.url);
const ORIGINAL = require.resolve('@wllama/wllama/esm/wasm/wllama.wasm');
const PATCHED = join(
  dirname(require.resolve('@wllama/wllama/package.json')),
  '..',
  '..',
  '.cache',
  'inpage-llm',
  'wllama.wasm',
);

let written = false;

/** The patched wasm's path (written once per process, from the installed wllama). */
export function patchedWllamaWasmPath() {
  if (!written) {
    mkdirSync(dirname(PATCHED), { recursive: true });
    writeFileSync(PATCHED, patchWllamaWasm(readFileSync(ORIGINAL)));
    written = true;
  }
  return PATCHED;
}

/** A Vite plugin: `@wllama/wllama/esm/wasm/wllama.wasm?url` resolves to the patched copy. */
export function patchedWllamaWasm() {
  return {
    name: 'inpage-llm:patched-wllama-wasm',
    enforce: 'pre',
    resolveId(id) {
      if (id === '@wllama/wllama/esm/wasm/wllama.wasm?url') return `${patchedWllamaWasmPath()}?url`;
      return null;
    },
  };
}

// Writes the engine's manifest.json beside its outputs: toolchain and source versions, the
// pins (engine-config.sh), the inputs' and each output's sha256.
//   usage: node write-manifest.mjs OUT_DIR "TOOLCHAIN VERSION" LLAMA_CPP_INFO_JSON
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { engineInputs, sha256 } from './engine-inputs.mjs';

const [dir, toolchain, infoPath] = process.argv.slice(2);
const repo = resolve(import.meta.dirname, '../..');
// NAME=value lines, and NAME=( ... ) arrays that may run over several lines.
const config = Object.fromEntries(
  [
    ...readFileSync(join(repo, 'scripts/engine/engine-config.sh'), 'utf8').matchAll(/^([A-Z_0-9]+)=(\([^)]*\)|.*)$/gm),
  ].map((match) => [match[1], match[2]]),
);
const outputs = {};
for (const name of readdirSync(dir).sort()) {
  if (name === 'manifest.json' || name.endsWith('.d.mts')) continue;
  const bytes = readFileSync(join(dir, name));
  outputs[name] = { bytes: bytes.length, sha256: sha256(bytes) };
}
const manifest = {
  llamaCpp: {
    tag: JSON.parse(readFileSync(infoPath, 'utf8')).tag,
    source: `node-llama-cpp@${config.NODE_LLAMA_CPP_VERSION} llama/gitRelease.bundle`,
    tarballSha256: config.NODE_LLAMA_CPP_TARBALL_SHA256,
    bundleSha256: config.LLAMA_CPP_BUNDLE_SHA256,
  },
  toolchain: `Debian sid emscripten: ${toolchain}`,
  // VARIANTS=("name:flags" ...): each quoted entry (flags may hold spaces).
  variants: [...(config.VARIANTS ?? '').matchAll(/"([^"]*)"/g)].map((match) => match[1]),
  inputs: engineInputs(repo),
  outputs,
};
writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

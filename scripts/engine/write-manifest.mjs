// Writes the engine's manifest.json beside its outputs: toolchain (emcc and the Debian versions of
// its packages) and source versions, the pins (engine-config.sh), the inputs' sha256, and each
// output's sha256 and the digest of what it was built from (buildDigest): the outputs this build
// wrote (OUTPUT...) get this build's, the others keep theirs from the manifest before, so a
// build of some variants only (ENGINE_VARIANTS) leaves a manifest whose test fails.
//   usage: node write-manifest.mjs OUT_DIR "EMCC VERSION" "PACKAGE=VERSION ..." LLAMA_CPP_INFO_JSON OUTPUT...
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDigest, engineInputs, sha256 } from './engine-inputs.mjs';

const [dir, emcc, packages, infoPath, ...written] = process.argv.slice(2);
const repo = resolve(import.meta.dirname, '../..');
// NAME=value lines, and NAME=( ... ) arrays that may run over several lines.
const config = Object.fromEntries(
  [
    ...readFileSync(join(repo, 'scripts/engine/engine-config.sh'), 'utf8').matchAll(/^([A-Z_0-9]+)=(\([^)]*\)|.*)$/gm),
  ].map((match) => [match[1], match[2]]),
);
const path = join(dir, 'manifest.json');
const before = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { outputs: {} };
const manifest = {
  llamaCpp: {
    tag: JSON.parse(readFileSync(infoPath, 'utf8')).tag,
    source: `node-llama-cpp@${config.NODE_LLAMA_CPP_VERSION} llama/gitRelease.bundle`,
    tarballSha256: config.NODE_LLAMA_CPP_TARBALL_SHA256,
    bundleSha256: config.LLAMA_CPP_BUNDLE_SHA256,
  },
  // The WebGPU variant's binding, generated from Dawn's source (make-emdawnwebgpu.sh).
  dawn: {
    tag: config.DAWN_TAG,
    commit: config.DAWN_COMMIT,
    source: 'google/dawn at the tag (INPAGE_DAWN_SRC), its emdawnwebgpu package made by make-emdawnwebgpu.sh',
    generatorInputsSha256: config.DAWN_INPUTS_SHA256,
    packageSha256: config.DAWN_PACKAGE_SHA256,
  },
  toolchain: {
    emcc: `Debian sid emscripten: ${emcc}`,
    debian: Object.fromEntries(packages.split(' ').map((entry) => entry.split('='))),
  },
  // VARIANTS=("name:flags" ...): each quoted entry (flags may hold spaces).
  variants: [...(config.VARIANTS ?? '').matchAll(/"([^"]*)"/g)].map((match) => match[1]),
  inputs: engineInputs(repo),
  outputs: {},
};
const builtFrom = buildDigest(manifest);
for (const name of readdirSync(dir).sort()) {
  if (name === 'manifest.json' || name.endsWith('.d.mts')) continue;
  const bytes = readFileSync(join(dir, name));
  const from = written.includes(name) ? builtFrom : (before.outputs[name]?.builtFrom ?? 'unknown');
  manifest.outputs[name] = { bytes: bytes.length, sha256: sha256(bytes), builtFrom: from };
}
writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);

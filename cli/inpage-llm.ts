/**
 * The `inpage-llm` command: `init` copies the Service Worker (and the drop-in files) into an
 * app's public folder; `precache` writes it into a build output with that output precached.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INIT_FLAGS, INIT_USAGE, runInit } from './init-command';
import { PRECACHE_OPTIONS, PRECACHE_USAGE, runPrecache } from './precache-command';

const USAGE = `Usage:
  ${INIT_USAGE}

  ${PRECACHE_USAGE}`;

const distDir = fileURLToPath(new URL('..', import.meta.url));

async function main(args: string[]): Promise<number> {
  const flags = new Set<string>();
  const options = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (PRECACHE_OPTIONS.includes(name)) options.set(name, inline ?? args[++i] ?? '');
    else if (arg.startsWith('-')) flags.add(arg);
    else positional.push(arg);
  }
  const [command, folder, ...extra] = positional;
  if (flags.has('--version')) {
    console.log(packageVersion());
    return 0;
  }
  const help = flags.has('--help') || flags.has('-h');
  if (help || command === undefined) {
    console.log(USAGE);
    return help ? 0 : 1;
  }
  const known = command === 'init' ? INIT_FLAGS : [];
  const unknown = [...flags].filter((flag) => !known.includes(flag));
  if (command === 'init' && options.size > 0) unknown.push(...options.keys());
  if ((command !== 'init' && command !== 'precache') || unknown.length > 0 || extra.length > 0) {
    console.error(
      `inpage-llm: unknown ${command !== 'init' && command !== 'precache' ? `command '${command}'` : `argument ${[...unknown, ...extra].join(' ')}`}\n\n${USAGE}`,
    );
    return 1;
  }
  return command === 'init' ? runInit(distDir, packageVersion(), folder, flags) : runPrecache(distDir, folder, options);
}

function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(resolve(distDir, '..', 'package.json'), 'utf8'));
  const version: unknown = typeof pkg === 'object' && pkg !== null ? Reflect.get(pkg, 'version') : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`inpage-llm: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);

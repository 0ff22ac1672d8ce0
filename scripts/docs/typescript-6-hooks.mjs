/**
 * Module resolution hook for `typescript-6.mjs`: `typescript` -> the TypeScript 6 nested in
 * tools/typescript-6 (the one typescript-eslint runs on; see its index.cjs for why it is nested).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const nested = createRequire(new URL('../../tools/typescript-6/index.cjs', import.meta.url));
const typescript6 = pathToFileURL(nested.resolve('typescript')).href;

export async function resolve(specifier, context, nextResolve) {
  return specifier === 'typescript' ? nextResolve(typescript6, context) : nextResolve(specifier, context);
}

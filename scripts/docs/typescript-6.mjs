/**
 * Loaded with `node --import` by `npm run docs`: TypeDoc (0.28) reads the sources through
 * TypeScript's JS compiler API, which TypeScript 7 (the native port the project builds with) no
 * longer ships. So TypeDoc's `import 'typescript'` resolves to the TypeScript 6 nested in tools/typescript-6
 * (the last JS compiler, and the newest TypeDoc supports) in this process only.
 */
import { register } from 'node:module';

register('./typescript-6-hooks.mjs', import.meta.url);

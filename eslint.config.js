/**
 * Type-aware checks that tsc does not make: promises nobody awaits or handles, switches that
 * miss a case, values nobody uses. Each file is checked under the tsconfig that
 * `npm run typecheck` checks it with, so the rules see the same types (and the same globals:
 * no DOM in the core or the workers).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'eslint/config';
// Before typescript-eslint loads: it needs TypeScript 6's compiler API (see the file).
import 'typescript-6-for-lint';

const { default: tseslint } = await import('typescript-eslint');

const tsconfigRootDir = fileURLToPath(new URL('.', import.meta.url));

/** Shared core code: checked in the strictest place it runs (no DOM). */
const core = ['src/core/**/*.ts', 'src/gguf/**/*.ts', 'src/builtin-model/**/*.ts'];

/** The files each tsconfig checks. */
const projects = [
  { project: 'tsconfig.core.json', files: core },
  { project: 'tsconfig.json', files: ['src/**/*.ts', 'demo/**/*.ts'], ignores: core },
  { project: 'tsconfig.sw.json', files: ['worker/sw/**/*.ts'] },
  { project: 'tsconfig.engine.json', files: ['worker/engine/**/*.ts'] },
  { project: 'tsconfig.node.json', files: ['test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'cli/**/*.ts'] },
];

/** node:test runs what `test()` and `describe()` register; the promises they return are its own. */
const nodeTestCalls = [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }];

/** `_name` marks a value that has to exist but is not read (a loop variable, a parameter an interface requires). */
const unusedValues = ['error', { args: 'all', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'all' }];

export default defineConfig(
  { ignores: ['dist/', 'demo/public/', '.bench/', 'test-results/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  ...projects.map(({ project, files, ignores = [] }) => ({
    files,
    ignores,
    languageOptions: { parser: tseslint.parser, parserOptions: { project, tsconfigRootDir } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: nodeTestCalls }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': unusedValues,
    },
  })),
  {
    // The build scripts are plain JavaScript that no tsconfig checks: only the rule that needs no types.
    files: ['scripts/**/*.mjs'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: { '@typescript-eslint/no-unused-vars': unusedValues },
  },
);

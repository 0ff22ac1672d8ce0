import { defineConfig } from 'vitest/config';

export const config = defineConfig({
  // The engine's test-only hooks (worker/engine/backends/llamacpp/test-trap.ts) are off here.
  define: { __INPAGE_TEST_HOOKS__: 'false' },
  test: { include: ['test/unit/**/*.test.ts'], environment: 'node' },
});

export default config;

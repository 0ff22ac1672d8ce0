import { defineConfig } from 'vitest/config';

export const config = defineConfig({
  test: { include: ['test/unit/**/*.test.ts'], environment: 'node' },
});

export default config;

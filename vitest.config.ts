import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/setup.ts'],
    environment: 'node',
    testTimeout: 20_000,
    env: { FOLIA_SCRYPT_N: '1024' },
    hookTimeout: 60_000,
    // Server suites each open their own database; two workers match the two cores.
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    include: [
      'server/**/*.test.ts',
      'app/**/*.test.{ts,tsx}',
      'i18n/**/*.test.ts',
      'tests/**/*.test.ts',
      'tests/**/*.spec.ts',
    ],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: on a loaded two-core CI machine a browser step
    // can take longer than that, and a poll that merely waited longer is not a failure.
    expect: { poll: { timeout: 10_000 } },
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
  },
});

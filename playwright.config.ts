import { defineConfig } from '@playwright/test';
import { e2eRunPlace } from './e2e/support/runPlace';

const place = e2eRunPlace();
const PORT = place.port;
/** The e2e server's data dir, this run's own; tests read the mail outbox from it. */
export const E2E_DATA_DIR = place.dataDir;

export default defineConfig({
  testDir: 'e2e',
  // Its own when set, so runs side by side do not wipe each other's traces and screenshots.
  outputDir: process.env.FOLIA_E2E_OUTPUT_DIR ?? 'test-results',
  // Each spec works on accounts and projects of its own against the one shared server, so two
  // spec files run at once: the browser and the server mostly wait on each other, and two
  // workers halve the run on two cores. Tests inside a file stay in order.
  fullyParallel: false,
  workers: 2,
  // One more try for a test that fails once: on two loaded cores a wait can run out (three of
  // 64 did in one run, each passing alone). A test that fails twice fails the run, and one that
  // passed on its second try is listed as flaky in the output, to be looked at.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${PORT}/api/v1/`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      FOLIA_DATA_DIR: E2E_DATA_DIR,
      FOLIA_DEMO: '0',
      FOLIA_LOG: '0',
    },
  },
});

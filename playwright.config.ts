import { defineConfig } from '@playwright/test'

// Browser mode runs in Debian's Chromium; Playwright never downloads a browser here.
export const chromiumPath = process.env.FANOUT_CHROMIUM ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'e2e/artifacts/results',
  timeout: 60_000,
  // Every expect waits on a condition; on a loaded 2-core CI machine a run's next step can take well over
  // Playwright's default 5 s. A generous cap costs a passing test nothing.
  expect: { timeout: 15_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
      ]
    },
    screenshot: 'only-on-failure',
    trace: 'off'
  }
})

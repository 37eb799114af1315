import { availableParallelism } from 'node:os'
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
  // Two workers on a 2-core machine (Playwright's default, half the cores, is one there): a test spends much of
  // its time waiting on the runtime, the scripted model and the browser, and one worker left a core ~30% idle.
  // On the CI machine the stage went from 1,035 s to 704 s, every test passing, the slowest at under a third of
  // its time limit. Each worker's runtime, data folder and project are its own (e2e/support). More cores keep
  // Playwright's default.
  workers: Math.max(2, Math.floor(availableParallelism() / 2)),
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

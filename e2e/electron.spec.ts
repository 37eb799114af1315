// The real desktop app through Playwright's Electron driver. Runs wherever the Electron binary is
// installed; here (no binary can be downloaded) it is skipped and says why.
import { _electron as electron, expect, test } from '@playwright/test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeProject } from './support/fixtures'
import { REPO_ROOT } from './support/repo-root'

const pkg = join(REPO_ROOT, 'node_modules/electron')
const pathFile = join(pkg, 'path.txt')
const binary = existsSync(pathFile) ? join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim()) : null
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY
const why = !binary || !existsSync(binary) ? 'the Electron binary is not installed on this machine' : noDisplay ? 'there is no display' : null
if (why) console.log(`Electron e2e skipped: ${why}.`)

test('the desktop window is hardened and exposes only the contract', async () => {
  test.skip(why !== null, `Skipped: ${why}.`)
  const root = mkdtempSync(join(tmpdir(), 'fanout-electron-'))
  const project = makeProject(root)
  const app = await electron.launch({
    executablePath: binary!,
    args: [REPO_ROOT, `--fanout-cwd=${project}`],
    env: { ...process.env, FANOUT_DATA_DIR: join(root, 'data') }
  })
  try {
    const win = await app.firstWindow()
    expect(win.url()).toBe('fanout://app/index.html')
    const exposed = await win.evaluate(() => {
      const g = globalThis as any
      return { keys: Object.keys(g.fanout ?? {}).sort(), node: typeof g.require + typeof g.process }
    })
    expect(exposed.node).toBe('undefinedundefined')
    expect(exposed.keys).toContain('startSession')
    expect(exposed.keys).toContain('onEvents')
    expect(exposed.keys).not.toContain('invoke')
    // Navigation away is blocked: the window stays on the app. The main process reports the attempt once
    // every will-navigate listener (the app's guard among them) has run, so the check waits on that, not a time.
    await app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0].webContents
      ;(globalThis as any).fanoutNavigation = new Promise<string>((resolve) =>
        contents.once('will-navigate', (_event, url) => setImmediate(() => resolve(url)))
      )
    })
    await win.evaluate(() => ((globalThis as any).fanoutStayed = true))
    await win.evaluate(() => ((globalThis as any).location.href = 'https://example.com/'))
    expect(await app.evaluate(() => (globalThis as any).fanoutNavigation)).toBe('https://example.com/')
    expect(win.url()).toBe('fanout://app/index.html')
    expect(await win.evaluate(() => (globalThis as any).fanoutStayed)).toBe(true) // the same document, not a reload
    await expect(win.getByText('Fanout').first()).toBeVisible()
  } finally {
    await app.close()
    rmSync(root, { recursive: true, force: true })
  }
})

// A session that `fanout run` (another process) is running, opened in browser mode: read-only, saying who
// runs it, followed live as it goes; once the command is done the session can be continued here.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { reply, scriptByAgent, startScriptedServer, type ScriptedServer } from '../src/main/runtime/model/scripted'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'
import { REPO_ROOT } from './support/repo-root'

let app: BrowserMode
let server: ScriptedServer | null = null
let cli: ChildProcess | null = null
test.afterEach(async () => {
  cli?.kill('SIGKILL')
  await server?.close()
  await app?.close()
})

const transcriptsHave = (dataDir: string, needle: string) => {
  const sessions = join(dataDir, 'sessions')
  if (!existsSync(sessions)) return false
  return readdirSync(sessions).some((id) => {
    const dir = join(sessions, id, 'agents')
    return existsSync(dir) && readdirSync(dir).some((n) => n.endsWith('.jsonl') && readFileSync(join(dir, n), 'utf8').includes(needle))
  })
}

test('a session fanout run is running opens read-only, follows it live, and can be continued once it is done', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true, respond: () => reply.text('Continued here in the app.') })
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  server = await startScriptedServer({
    respond: scriptByAgent([
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: [
          reply.toolUse('Glob', { pattern: 'src/*.ts' }, { text: 'Looking at the sources first.' }),
          async () => {
            await held
            return reply.text('The command-line run is done: two source files.')
          }
        ]
      }
    ])
  })
  cli = spawn(process.execPath, [join(REPO_ROOT, 'bin/fanout'), 'run', '-p', 'Count the source files', '--cwd', app.project], {
    env: {
      ...process.env,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_AUTH_TOKEN: '',
      ANTHROPIC_BASE_URL: server.url,
      FANOUT_DATA_DIR: app.dataDir,
      HOME: app.root
    },
    stdio: 'ignore'
  })
  const exited = new Promise((r) => cli!.on('close', r))
  await expect.poll(() => transcriptsHave(app.dataDir, '"type":"tool_end"'), { timeout: 30_000 }).toBe(true)

  await page.setViewportSize({ width: 1280, height: 820 })
  await page.goto(app.url)
  const row = page.getByTestId('session-item').filter({ hasText: 'Count the source files' })
  await expect(row.getByTestId('session-elsewhere')).toHaveText('fanout run')
  await row.click()
  const bar = page.getByTestId('running-elsewhere')
  await expect(bar).toContainText(`Read-only here. This session is being run by fanout run (process ${cli.pid}) since`)
  await expect(page.getByTestId('followup')).toHaveCount(0)
  await expect(page.getByTestId('stop-session')).toHaveCount(0)
  await expect(page.locator('.conversation')).toContainText('Looking at the sources first.')
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: 820 })
    await shoot(page, `running-elsewhere-${width}`)
  }

  // What the command does next shows here as it happens.
  release()
  await expect(page.locator('.conversation')).toContainText('The command-line run is done: two source files.', { timeout: 30_000 })
  await exited
  // The command let the session go: it can be continued here.
  await expect(bar).toHaveCount(0, { timeout: 30_000 })
  await expect(row.getByTestId('session-elsewhere')).toHaveCount(0)
  await page.getByTestId('followup').fill('Anything else?')
  await page.getByTestId('followup-send').click()
  await expect(page.locator('.conversation')).toContainText('Continued here in the app.', { timeout: 30_000 })
})

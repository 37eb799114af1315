// The app reads Claude Code's settings as the CLI does (store/claude-settings.ts): a session started in a
// folder runs on the settings' `model`, and its Bash commands get the settings' `env` — the person's own
// files' at once, the folder's own only once the folder is trusted.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatchCall } from '../../../shared/ipc-dispatch'
import { reply, type ParsedRequest } from '../model/scripted'
import { folders, host, until } from '../../../../test/support/host'

function respond(req: ParsedRequest) {
  if (req.turn === 0) return reply.toolUse('Bash', { command: 'echo "user=$KIT_USER_VAR folder=$KIT_FOLDER_VAR"', description: 'print' })
  return reply.text('done')
}

const write = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, JSON.stringify(value))
}

describe("the app honours Claude Code's settings model and env", () => {
  it('the user settings choose the model and give Bash their env; an untrusted folder’s env is withheld', async () => {
    const dirs = folders()
    write(join(dirs.home, '.claude', 'settings.json'), { model: 'haiku', env: { KIT_USER_VAR: 'from-user' } })
    write(join(dirs.cwd, '.claude', 'settings.json'), { env: { KIT_FOLDER_VAR: 'from-folder' } })
    const { h, server } = await host(respond, dirs)
    expect(await dispatchCall(h, 'session.start', { prompt: 'print the variables', cwd: dirs.cwd, permissionMode: 'bypassPermissions' })).toMatchObject({
      ok: true
    })
    await until(() => server!.messageRequests().length >= 2, 'two model requests', 60_000)
    const [first, second] = server!.messageRequests()
    expect(first.body.model).toMatch(/haiku/)
    expect(JSON.stringify(second.messages)).toContain('user=from-user folder=')
    expect(JSON.stringify(second.messages)).not.toContain('from-folder')
  }, 90_000)

  it('ANTHROPIC_MODEL in the environment wins over the settings, as in the CLI', async () => {
    const dirs = folders()
    write(join(dirs.home, '.claude', 'settings.json'), { model: 'haiku' })
    const { h, server } = await host(() => reply.text('ok'), dirs, { ANTHROPIC_MODEL: 'claude-opus-4-1' })
    expect(await dispatchCall(h, 'session.start', { prompt: 'hi', cwd: dirs.cwd })).toMatchObject({ ok: true })
    await until(() => server!.messageRequests().length >= 1, 'a model request', 60_000)
    expect(server!.messageRequests()[0].body.model).toBe('claude-opus-4-1')
  }, 90_000)
})

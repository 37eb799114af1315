// Claude Code's settings in a headless run, end to end (the real CLI, called as `claude` is: no `run`): `env`
// reaches Bash — a repository's own only in a folder the person trusts —, `model` and ANTHROPIC_MODEL choose the
// model with Claude Code's precedence, and `permissions.defaultMode` beats Fanout's own default, the flag beats both.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliProject, runCli, useCliServers } from '../../../test/support/cli'
import { reply, scriptLead, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer
const serve = useCliServers()

function setup(files: Record<string, string>, home: Record<string, string> = {}) {
  const p = cliProject('fanout-settings-', {})
  const homeDir = dirname(p.project)
  const write = (root: string, rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true })
    writeFileSync(join(root, rel), text)
  }
  for (const [rel, text] of Object.entries(files)) write(p.project, rel, text)
  for (const [rel, text] of Object.entries(home)) write(homeDir, rel, text)
  return p
}

const echoVars = () =>
  scriptLead(reply.toolUse('Bash', { command: 'echo "user=$USER_VAR token=$MY_API_TOKEN project=$PROJECT_VAR"', description: 'print' }), (req) =>
    reply.text(`Bash said: ${req.toolResults[0].content.trim()}`)
  )
const settings = (v: unknown) => JSON.stringify(v)

describe("Claude Code's settings in fanout -p", () => {
  it("`env` reaches Bash, a credential-looking name too (the person wrote it); the folder's own only when it is trusted", async () => {
    const files = {
      '.claude/settings.json': settings({
        env: { PROJECT_VAR: 'from-project' },
        permissions: { allow: ['Bash(echo *)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "$USER_VAR $MY_API_TOKEN $PROJECT_VAR" > "$CLAUDE_PROJECT_DIR/hook-env.txt"' }] }
          ]
        }
      })
    }
    const home = { '.claude/settings.json': settings({ env: { USER_VAR: 'from-user', MY_API_TOKEN: 'tok-123' } }) }
    const { project, env } = setup(files, home)
    server = await serve({ respond: echoVars() })
    const trusted = await runCli(['-p', 'print the variables', '--allowedTools', 'Bash(echo *)', '--trust-project'], { cwd: project, env: env(server.url) })
    expect(trusted.code, trusted.stderr).toBe(0)
    expect(trusted.stdout).toContain('Bash said: user=from-user token=tok-123 project=from-project')
    // The hooks are given them too.
    expect(readFileSync(join(project, 'hook-env.txt'), 'utf8')).toBe('from-user tok-123 from-project\n')
    rmSync(join(project, 'hook-env.txt'))
    const untrusted = await runCli(['-p', 'print the variables', '--allowedTools', 'Bash(echo *)'], { cwd: project, env: env(server.url) })
    expect(untrusted.code, untrusted.stderr).toBe(0)
    expect(untrusted.stdout).toContain('Bash said: user=from-user token=tok-123 project=\n')
    expect(untrusted.stderr).toMatch(/the folder's settings set PROJECT_VAR in "env"; not given/)
  })

  it("the model: --model > ANTHROPIC_MODEL > --settings > local > project > user > Claude Code's default (opus)", async () => {
    const { project, env } = setup(
      { '.claude/settings.json': settings({ model: 'claude-from-project' }), '.claude/settings.local.json': settings({ model: 'claude-from-local' }) },
      { '.claude/settings.json': settings({ model: 'claude-from-user' }) }
    )
    server = await serve({ respond: () => reply.text('ok') })
    const model = async (args: string[], extra: Record<string, string> = {}) => {
      const before = server.messageRequests().length
      const r = await runCli(['-p', 'hi', ...args], { cwd: project, env: { ...env(server.url), ANTHROPIC_MODEL: '', ...extra } })
      expect(r.code, r.stderr).toBe(0)
      return server.messageRequests()[before].body.model
    }
    expect(await model(['--model', 'claude-from-flag'], { ANTHROPIC_MODEL: 'claude-from-env' })).toBe('claude-from-flag')
    expect(await model([], { ANTHROPIC_MODEL: 'claude-from-env' })).toBe('claude-from-env')
    expect(await model(['--settings', settings({ model: 'claude-from-settings-flag' })])).toBe('claude-from-settings-flag')
    expect(await model([])).toBe('claude-from-local')
    const bare = setup({})
    const r = await runCli(['-p', 'hi'], { cwd: bare.project, env: { ...bare.env(server.url), ANTHROPIC_MODEL: '' } })
    expect(r.code, r.stderr).toBe(0)
    expect(server.messageRequests().at(-1)!.body.model).toBe('claude-opus-5-5')
    // A defaultModel written in Fanout's own settings counts when nothing above chooses.
    mkdirSync(bare.dataDir, { recursive: true })
    writeFileSync(join(bare.dataDir, 'settings.json'), settings({ defaultModel: 'haiku' }))
    const own = await runCli(['-p', 'hi'], { cwd: bare.project, env: { ...bare.env(server.url), ANTHROPIC_MODEL: '' } })
    expect(own.code, own.stderr).toBe(0)
    expect(server.messageRequests().at(-1)!.body.model).toBe('claude-haiku-5-5')
  })

  it("permissions.defaultMode beats Fanout's own default; --permission-mode beats both", async () => {
    const write = () =>
      scriptLead(reply.toolUse('Write', { file_path: 'new.txt', content: 'x' }), (req) => reply.text(`Write said: ${req.toolResults[0].content}`))
    // Fanout's own default would let the write through; the folder's settings say ask (default): headless, denied.
    const { project, env, dataDir } = setup({ '.claude/settings.json': settings({ permissions: { defaultMode: 'default' } }) })
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(join(dataDir, 'settings.json'), settings({ defaultPermissionMode: 'acceptEdits' }))
    server = await serve({ respond: write() })
    const denied = await runCli(['-p', 'write it'], { cwd: project, env: env(server.url) })
    expect(denied.code, denied.stderr).toBe(0)
    expect(existsSync(join(project, 'new.txt'))).toBe(false)
    const flag = await runCli(['-p', 'write it', '--permission-mode', 'acceptEdits'], { cwd: project, env: env(server.url) })
    expect(flag.code, flag.stderr).toBe(0)
    expect(existsSync(join(project, 'new.txt'))).toBe(true)
    // With no defaultMode in the files, Fanout's own default applies.
    const plain = setup({})
    mkdirSync(plain.dataDir, { recursive: true })
    writeFileSync(join(plain.dataDir, 'settings.json'), settings({ defaultPermissionMode: 'acceptEdits' }))
    const fallback = await runCli(['-p', 'write it'], { cwd: plain.project, env: plain.env(server.url) })
    expect(fallback.code, fallback.stderr).toBe(0)
    expect(existsSync(join(plain.project, 'new.txt'))).toBe(true)
  })

  it('a project cannot raise its own mode in a folder not trusted: its bypassPermissions waits for approval', async () => {
    const { project, env } = setup({ '.claude/settings.json': settings({ permissions: { defaultMode: 'bypassPermissions' } }) })
    server = await serve({
      respond: scriptLead(reply.toolUse('Write', { file_path: 'new.txt', content: 'x' }), (req) => reply.text(`Write said: ${req.toolResults[0].content}`))
    })
    const r = await runCli(['-p', 'write it'], { cwd: project, env: env(server.url) })
    expect(r.code, r.stderr).toBe(0)
    expect(existsSync(join(project, 'new.txt'))).toBe(false)
  })
})

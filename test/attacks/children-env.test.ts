// Child processes get no credentials unless a setting passes them: Bash (in and out of the sandbox), hooks,
// MCP stdio servers and the rg a search starts, each checked by what the real process saw.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { closeFixtures } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { childEnv, droppedEnvNames, isSecretEnvEntry } from '../../src/main/runtime/security/child-env'
import { GITHUB, makeWorld, plantEnv, runCampaign, SECRET_KEY, type World } from './attack-kit'

let restoreEnv = () => {}
let world: World
beforeAll(async () => {
  restoreEnv = plantEnv({
    ANTHROPIC_API_KEY: SECRET_KEY,
    ANTHROPIC_AUTH_TOKEN: `${SECRET_KEY}-auth`,
    GITHUB_TOKEN: GITHUB,
    AWS_SECRET_ACCESS_KEY: 'aws-secret-leak',
    DATABASE_URL: 'postgres://admin:hunter2leak@db.local/app',
    NPM_CONFIG__AUTH: 'npm-auth-leak',
    FANOUT_HARMLESS: 'visible'
  })
})
// A campaign's fixture removes its world when it closes.
afterEach(() => closeFixtures())
afterAll(() => restoreEnv())

const LEAKS = () => [SECRET_KEY, GITHUB, 'aws-secret-leak', 'hunter2leak', 'npm-auth-leak']

describe('childEnv', () => {
  it('drops what carries a credential, by name or by a password in a URL, and keeps the rest', () => {
    const env = childEnv()
    for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'DATABASE_URL', 'NPM_CONFIG__AUTH'])
      expect(env[name], name).toBeUndefined()
    expect(env.FANOUT_HARMLESS).toBe('visible')
    expect(env.PATH).toBe(process.env.PATH)
    for (const name of [
      'OPENAI_API_KEY',
      'STRIPE_SECRET',
      'DB_PASSWORD',
      'SLACK_BOT_TOKEN',
      'GH_PAT',
      'MY_APIKEY',
      'CLAUDE_CODE_OAUTH_TOKEN',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'SIGNING_KEY'
    ])
      expect(isSecretEnvEntry(name, 'x'), name).toBe(true)
    for (const name of ['PATH', 'HOME', 'SSH_AUTH_SOCK', 'PWD', 'LANG', 'TERM', 'KEYTIMEOUT', 'TOKENIZERS_PARALLELISM', 'MONKEY', 'EDITOR'])
      expect(isSecretEnvEntry(name, 'x'), name).toBe(false)
    expect(childEnv({ pass: ['GITHUB_*'] }).GITHUB_TOKEN).toBe(GITHUB)
    expect(droppedEnvNames({ A_TOKEN: 'x', B: 'y' })).toEqual(['A_TOKEN'])
  })
})

describe('what child processes see', () => {
  it('Bash, a hook and an MCP server get no credential; rg neither', async () => {
    world = await makeWorld()
    const hookOut = join(world.markers, 'hook-env.txt')
    const mcpOut = join(world.markers, 'mcp-env.txt')
    const rgOut = join(world.markers, 'rg-env.txt')
    const userSettings = join(world.home, '.claude', 'settings.json')
    mkdirSync(join(world.home, '.claude'), { recursive: true })
    writeFileSync(userSettings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `env > ${hookOut}` }] }] } }))
    const fakeRg = join(world.markers, 'fake-rg.sh')
    writeFileSync(fakeRg, `#!/bin/sh\nenv > ${rgOut}\nexit 1\n`)
    chmodSync(fakeRg, 0o755)
    const { verdicts } = await runCampaign({
      world,
      attacks: [
        { id: 'bash-env', tool: 'Bash', input: { command: 'env' } },
        { id: 'bash-env-outside', tool: 'Bash', input: { command: 'env', dangerouslyDisableSandbox: true } },
        { id: 'grep', tool: 'Grep', input: { pattern: 'x' } },
        { id: 'mcp', tool: 'mcp__envprobe__ping', input: {} }
      ],
      session: {
        permissionMode: 'bypassPermissions',
        ripgrep: fakeRg,
        // The tree is small enough to be searched in-process: make every search spawn rg.
        inProcessSearchUpTo: 0,
        mcpServers: { envprobe: { command: process.execPath, args: [join(__dirname, 'fixtures/env-server.mjs'), mcpOut] } }
      }
    })
    const bash = verdicts.find((v) => v.id === 'bash-env')!
    expect(bash.result).toContain('FANOUT_HARMLESS=visible')
    for (const [what, text] of [
      ['bash', bash.result],
      ['hook', readFileSync(hookOut, 'utf8')],
      ['mcp', readFileSync(mcpOut, 'utf8')],
      ['rg', readFileSync(rgOut, 'utf8')]
    ] as const) {
      expect(text, what).toContain('FANOUT_HARMLESS')
      for (const leak of LEAKS()) expect(text.includes(leak), `${what} saw ${leak.slice(0, 10)}`).toBe(false)
    }
    expect(verdicts.find((v) => v.id === 'mcp')?.result).toBe('pong')
  })

  it('passEnvironment passes exactly what it names, to Bash, hooks and MCP servers', async () => {
    world = await makeWorld()
    const mcpOut = join(world.markers, 'mcp-env-2.txt')
    const { verdicts } = await runCampaign({
      world,
      attacks: [
        { id: 'bash-env', tool: 'Bash', input: { command: 'env' } },
        { id: 'mcp', tool: 'mcp__envprobe__ping', input: {} }
      ],
      secrets: [SECRET_KEY],
      session: {
        permissionMode: 'bypassPermissions',
        passEnvironment: ['GITHUB_*'],
        mcpServers: { envprobe: { command: process.execPath, args: [join(__dirname, 'fixtures/env-server.mjs'), mcpOut] } }
      }
    })
    // Bash has it (the name is there); its value, like every credential, is redacted before the model sees it.
    expect(verdicts[0].result).toContain('GITHUB_TOKEN=[REDACTED]')
    expect(verdicts[0].result).not.toContain(GITHUB)
    expect(verdicts[0].result).not.toContain('aws-secret-leak')
    expect(existsSync(mcpOut) && readFileSync(mcpOut, 'utf8')).toContain(GITHUB)
  })
})

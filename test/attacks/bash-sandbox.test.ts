// Where a command is allowed to run (an allow rule, bypass mode), the sandbox is what holds: writes only in
// the working tree (never its git hooks, git config, settings, MCP or editor files), no network, no
// credentials in the environment, credential stores and protected files unreadable. Every program-running
// attack from the read-only families is played here too: run, it must still leave no marker outside.
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rulesFrom } from '../../src/main/runtime/permissions'
import {
  closeCampaigns,
  escapes,
  GITHUB,
  makeWorld,
  OUTSIDE,
  plantEnv,
  report,
  RUNS_LATER,
  runCampaign,
  SECRET_KEY,
  type Verdict,
  type World
} from './attack-kit'
import { execAttacks, sandboxAttacks } from './bash-attacks'

let restoreEnv = () => {}
const worlds: World[] = []
const results: Record<string, Verdict[]> = {}

async function campaign(name: string, session: Parameters<typeof runCampaign>[0]['session'], agentType?: string): Promise<void> {
  const world = await makeWorld()
  worlds.push(world)
  const attacks = [
    ...sandboxAttacks(world),
    ...execAttacks(world).filter((a) => !/^(git-(branch|tag|stash|commit|checkout|reset|remote|config-write))/.test(a.id))
  ]
  const watch = [{ dir: world.project, allowed: (rel: string) => !RUNS_LATER(rel) }, { dir: world.outside }, { dir: world.home }, { dir: world.markers }]
  // Reading outside the project is allowed in the sandbox (only protected files and credential stores are not).
  const secrets = world.secrets.filter((v) => v !== OUTSIDE)
  results[name] = (await runCampaign({ world, attacks, session, watch, secrets, ...(agentType ? { agentType } : {}) })).verdicts
  expect(results[name]).toHaveLength(attacks.length)
  expect(existsSync(`/tmp/fanout-attack-${process.pid}`)).toBe(false)
}

beforeAll(async () => {
  restoreEnv = plantEnv({ ANTHROPIC_API_KEY: SECRET_KEY, GITHUB_TOKEN: GITHUB })
  await campaign('allowed by a rule', { permissionMode: 'default', permissionRules: rulesFrom({ allow: ['Bash'] }, 'cli') })
  await campaign('bypass mode', { permissionMode: 'bypassPermissions' })
}, 600_000)

afterAll(async () => {
  restoreEnv()
  await closeCampaigns(worlds)
})

describe('attacks on the sandbox (commands that are allowed to run)', () => {
  for (const name of ['allowed by a rule', 'bypass mode']) {
    it(`${name}: nothing outside the working tree changes, nothing leaks, nothing reaches the network`, () => {
      report(`sandbox, ${name}`, results[name])
      expect(escapes(results[name])).toEqual([])
    })
  }

  it('the commands did run (in the sandbox), and say so when the sandbox stopped them', () => {
    const byId = new Map(results['allowed by a rule'].map((v) => [v.id, v]))
    expect(byId.get('sb-write-outside')?.result).toMatch(/Read-only file system|Permission denied|Operation not permitted/)
    expect(byId.get('sb-write-outside')?.result).toContain('ran in the sandbox')
    expect(byId.get('sb-env')?.isError).toBe(true) // grep found no key or token
    expect(byId.get('sb-disable-sandbox')?.result).toContain('headless')
    expect(new Map(results['bypass mode'].map((v) => [v.id, v.result])).get('sb-disable-sandbox')).toContain(
      'may not leave the sandbox in bypassPermissions mode'
    )
  })

  it('git works beside the placeholders a running command holds, and the placeholders are not files to it', () => {
    for (const name of ['allowed by a rule', 'bypass mode']) {
      const add = results[name].find((v) => v.id === 'sb-placeholder-git-add')
      expect(add?.isError).toBe(false)
      expect(add?.result).not.toMatch(/can only add regular files|\.bashrc|\.mcp\.json|\.vscode/)
    }
  })
})

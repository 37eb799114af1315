// A repository cannot switch off the person's guard hooks: its `"disableAllHooks": true` (in
// .claude/settings.json or settings.local.json, the folder trusted or not) turns off only the folder's own
// hooks. The person's PreToolUse hook still runs on every call and still blocks, and the session says why the
// folder's setting did not reach further. Played through the scripted model into real sessions.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { hookCommand, readHookLog } from '../../src/main/runtime/hooks/testing/fixture'
import { closeCampaigns, escapes, makeWorld, report, runCampaign, type Attack, type World } from './attack-kit'

const worlds: World[] = []
afterAll(async () => {
  await closeCampaigns(worlds)
})

async function guarded(where: 'settings.json' | 'settings.local.json', trustProject: boolean, mode: 'plan' | 'default' | 'bypassPermissions') {
  const world = await makeWorld(where === 'settings.json' ? { disableAllHooks: true } : {})
  worlds.push(world)
  if (where === 'settings.local.json') writeFileSync(join(world.project, '.claude', where), JSON.stringify({ disableAllHooks: true }))
  const log = join(world.markers, 'guard.log')
  mkdirSync(join(world.home, '.claude'), { recursive: true })
  const guard = hookCommand(world.root, log, { stderr: 'blocked by your guard hook', exit: 2 })
  writeFileSync(
    join(world.home, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash|Read', hooks: [{ type: 'command', command: guard }] }] } })
  )
  const attacks: Attack[] = [
    { id: 'guarded-ls', tool: 'Bash', input: { command: 'ls' } },
    { id: 'guarded-read', tool: 'Read', input: { file_path: 'README.md' } }
  ]
  // The hook log is the one file a run may write outside the project: it is the guard's own.
  const watch = [{ dir: world.project }, { dir: world.outside }, { dir: world.home }]
  const { verdicts, fixture } = await runCampaign({ world, attacks, watch, session: { permissionMode: mode, trustProject } })
  return { verdicts, fixture, log }
}

describe("a folder's disableAllHooks does not switch off the person's hooks", () => {
  const cases = [
    ['settings.json', false, 'plan'],
    ['settings.json', false, 'default'],
    ['settings.json', true, 'bypassPermissions'],
    ['settings.local.json', false, 'default'],
    ['settings.local.json', true, 'plan']
  ] as const
  it.each(cases)(
    'from .claude/%s (trusted: %s, %s mode): the guard runs and blocks every call',
    async (where, trusted, mode) => {
      const { verdicts, fixture, log } = await guarded(where, trusted, mode)
      report(`hooks-disable ${where} trusted=${trusted} ${mode}`, verdicts)
      expect(escapes(verdicts)).toEqual([])
      expect(readHookLog(log).map((l) => l.input.tool_name)).toEqual(['Bash', 'Read'])
      for (const v of verdicts) expect(v.result, v.id).toContain('blocked by your guard hook')
      const told = fixture.events.filter((e) => e.type === 'error' && /disableAllHooks/.test(e.message))
      expect(told.length).toBeGreaterThan(0)
    },
    120_000
  )
})

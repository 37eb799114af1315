// Plan mode promises no changes: every exec, write and read attack is played through the scripted model into
// a real plan-mode session. None may be allowed (the read-only check must see through each), and whatever
// runs does so in the read-only sandbox: no file changes anywhere, no marker, no secret in a tool result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeFixtures } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { escapes, GITHUB, makeWorld, plantEnv, report, runCampaign, SECRET_KEY, type Verdict, type World } from './attack-kit'
import { execAttacks, readAttacks } from './bash-attacks'

let world: World
let verdicts: Verdict[]
let restoreEnv = () => {}

beforeAll(async () => {
  restoreEnv = plantEnv({ ANTHROPIC_API_KEY: SECRET_KEY, GITHUB_TOKEN: GITHUB })
  world = await makeWorld()
  const attacks = [
    ...execAttacks(world),
    ...readAttacks(world),
    { id: 'plan-write', tool: 'Write', input: { file_path: 'README.md', content: 'pwned' } },
    { id: 'plan-edit', tool: 'Edit', input: { file_path: 'README.md', old_string: 'readme', new_string: 'pwned' } },
    { id: 'plan-notebook', tool: 'NotebookEdit', input: { notebook_path: 'nb.ipynb', cell_id: 'cell-0', new_source: 'pwned' } },
    { id: 'plan-unsandboxed', tool: 'Bash', input: { command: 'ls', dangerouslyDisableSandbox: true } }
  ]
  verdicts = (await runCampaign({ world, attacks, session: { permissionMode: 'plan' } })).verdicts
  expect(verdicts).toHaveLength(attacks.length)
}, 240_000)

afterAll(async () => {
  restoreEnv()
  await closeFixtures()
  await world?.close()
})

describe('attacks on plan mode (real session, real bash, real sandbox)', () => {
  it('changes nothing, runs nothing, leaks nothing', () => {
    report('plan mode', verdicts)
    expect(escapes(verdicts)).toEqual([])
  })

  it('refuses every attempt to run, write or name a protected file: none passes as read-only', () => {
    // Recursive searches that merely pass protected files (grep -r, rg, find) are read-only: they run in the
    // read-only sandbox, where those files cannot be read (the escapes check above holds them to it).
    const searches = new Set(['grep-r-protected', 'grep-r-default', 'rg-protected', 'find-protected'])
    const refused = (v: Verdict) => /plan mode|denied|not available|may not leave the sandbox/.test(v.result)
    const allowed = verdicts.filter((v) => !searches.has(v.id) && !refused(v)).map((v) => `${v.id}: ${v.result.slice(0, 120)}`)
    expect(allowed).toEqual([])
    for (const v of verdicts.filter((v) => searches.has(v.id))) expect(v.result, v.id).not.toContain('TOPSECRET')
  })

  it('says why, naming what is not read-only', () => {
    const byId = new Map(verdicts.map((v) => [v.id, v.result]))
    expect(byId.get('git-grep-O')).toContain('-O is not on the read-only list')
    expect(byId.get('sort-uo')).toContain('-o is not on the read-only list')
    expect(byId.get('sort-out-prefix')).toContain('--out is not on the read-only list')
    expect(byId.get('jq-env')).toContain('env')
    expect(byId.get('cat-glob-question')).toContain('Read(./srv/**)')
    expect(byId.get('git-show-rev-path')).toContain('Read(./secrets/**)')
  })
})

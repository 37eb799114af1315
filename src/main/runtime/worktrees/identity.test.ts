// This file points HOME at an empty folder (vitest runs each test file in its own process), so git finds
// no global identity: the situation of a fresh machine.
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAgentWorktree, finishAgentWorktree } from './index'
import { FALLBACK_EMAIL, FALLBACK_NAME } from './identity'
import { makeTempRepo, type TempRepo } from './testing/temp-repo'

const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME }
let emptyHome = ''
const repos: TempRepo[] = []

beforeAll(() => {
  emptyHome = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-home-')))
  process.env.HOME = emptyHome
  process.env.XDG_CONFIG_HOME = join(emptyHome, '.config')
})
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(emptyHome, { recursive: true, force: true })
})
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

describe('commit identity', () => {
  it('commits with a fallback identity when the user has none, without writing any config', async () => {
    const r = makeTempRepo()
    repos.push(r)
    r.git('config', '--unset', 'user.name')
    r.git('config', '--unset', 'user.email')
    // Without this, git may invent user@hostname on machines whose hostname has a domain.
    r.git('config', 'user.useConfigOnly', 'true')
    const localConfig = r.git('config', '--local', '--list')
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'anon' })
    writeFileSync(join(wt.path, 'out.txt'), 'result\n')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'no identity' })

    expect(done).toMatchObject({ changed: true, kept: true })
    expect(done.error).toBeUndefined()
    expect(r.git('log', '-1', '--format=%an <%ae> / %cn <%ce>', 'fanout/anon')).toBe(
      `${FALLBACK_NAME} <${FALLBACK_EMAIL}> / ${FALLBACK_NAME} <${FALLBACK_EMAIL}>`
    )
    expect(r.git('config', '--local', '--list')).toBe(localConfig)
    expect(readdirSync(emptyHome).filter((f) => f.includes('gitconfig'))).toEqual([])
    expect(existsSync(join(emptyHome, '.config', 'git'))).toBe(false)
  })

  it("uses the user's own identity when git has one", async () => {
    const r = makeTempRepo()
    repos.push(r)
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'named' })
    writeFileSync(join(wt.path, 'out.txt'), 'result\n')
    await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'named' })
    expect(r.git('log', '-1', '--format=%an <%ae>', 'fanout/named')).toBe('Test User <test@example.com>')
  })

  it('fills in only the missing half of a partial identity', async () => {
    const r = makeTempRepo()
    repos.push(r)
    r.git('config', '--unset', 'user.email')
    r.git('config', 'user.useConfigOnly', 'true')
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'half' })
    writeFileSync(join(wt.path, 'out.txt'), 'result\n')
    await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'half' })
    expect(r.git('log', '-1', '--format=%an <%ae>', 'fanout/half')).toBe(`Test User <${FALLBACK_EMAIL}>`)
  })
})

// The hooks path is asked on every Edit/Write check and every workspace Bash command: git runs once per
// configuration, not once per call, yet a change to any config file git reads is seen at the next check.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useTempDirs } from '../tools/test-kit'
import { refreshHooksPath } from './protected-paths'

const spawned = vi.hoisted(() => ({ git: 0 }))
vi.mock('./spawn', async (importOriginal) => {
  const real = await importOriginal<typeof import('./spawn')>()
  return {
    ...real,
    runChild: (command: string, ...rest: Parameters<typeof real.runChild> extends [string, ...infer R] ? R : never) => {
      if (command === 'git') spawned.git++
      return real.runChild(command, ...rest)
    }
  }
})

let project: string
let home: string
useTempDirs('each', ['fanout-hooks-cache-', 'fanout-hooks-cache-home-'], (a, b) => {
  project = a
  home = b
  execFileSync('git', ['init', '-q'], { cwd: project })
  execFileSync('git', ['config', 'core.hooksPath', 'tools/hooks'], { cwd: project })
})
const savedHome = process.env.HOME
beforeEach(() => {
  process.env.HOME = home
  spawned.git = 0
})
afterAll(() => {
  process.env.HOME = savedHome
})

const git = (...args: string[]) => execFileSync('git', args, { cwd: project, env: { ...process.env, HOME: home } })

describe('the cached hooks path', () => {
  it('spawns git at most once for many checks', async () => {
    for (let i = 0; i < 25; i++) expect(await refreshHooksPath(project)).toEqual([join(project, 'tools/hooks')])
    expect(spawned.git).toBeLessThanOrEqual(1)
  })

  it('sees a changed core.hooksPath at the next check', async () => {
    expect(await refreshHooksPath(project)).toEqual([join(project, 'tools/hooks')])
    git('config', 'core.hooksPath', '.husky/_')
    expect(await refreshHooksPath(project)).toEqual([join(project, '.husky/_'), join(project, '.husky')])
    git('config', '--unset', 'core.hooksPath')
    expect(await refreshHooksPath(project)).toEqual([])
  })

  it('sees a hooks path set in an included file, created after the first check, from a subfolder', async () => {
    mkdirSync(join(project, 'src'))
    git('config', '--unset', 'core.hooksPath')
    git('config', 'include.path', 'extra.inc')
    expect(await refreshHooksPath(join(project, 'src'))).toEqual([])
    writeFileSync(join(project, '.git', 'extra.inc'), '[core]\n\thooksPath = from-include\n')
    expect(await refreshHooksPath(join(project, 'src'))).toEqual([join(project, 'from-include')])
    const n = spawned.git
    expect(await refreshHooksPath(join(project, 'src'))).toEqual([join(project, 'from-include')])
    expect(spawned.git).toBe(n)
  })

  it("sees a hooks path the user's ~/.gitconfig gains", async () => {
    git('config', '--unset', 'core.hooksPath')
    expect(await refreshHooksPath(project)).toEqual([])
    writeFileSync(join(home, '.gitconfig'), '[core]\n\thooksPath = /opt/hooks\n')
    expect(await refreshHooksPath(project)).toEqual(['/opt/hooks'])
  })
})

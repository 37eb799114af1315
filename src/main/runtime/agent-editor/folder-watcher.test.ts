import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { placeholderAt } from '../security/placeholders'
import { runInBackground } from '../security/sandbox/testing/background-hold'
import { createBashTool } from '../tools/bash'
import { toolContext } from '../tools/test-kit'
import { AgentFolderWatcher } from './folder-watcher'
import { runTool } from '../tool-call/execute'

let root: string
let watcher: AgentFolderWatcher | null = null
let reports: string[][] = []
let waiters: Array<() => void> = []

/** Resolves at the next report (the test's timeout is the only clock). */
const nextReport = () => new Promise<string[]>((resolve) => waiters.push(() => resolve(reports[reports.length - 1])))

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fanout-watch-'))
  reports = []
  waiters = []
  watcher = new AgentFolderWatcher((folders) => {
    reports.push(folders)
    for (const w of waiters.splice(0)) w()
  }, 20)
})
afterEach(() => {
  watcher?.close()
  rmSync(root, { recursive: true, force: true })
})

describe('AgentFolderWatcher', () => {
  it('reports a new, changed or deleted agent file in a watched folder, nested ones too', async () => {
    const dir = join(root, '.claude/agents')
    mkdirSync(join(dir, 'team'), { recursive: true })
    watcher!.setFolders([{ path: dir, awaitCreation: false }])
    expect(watcher!.watching()).toEqual([dir])
    let next = nextReport()
    writeFileSync(join(dir, 'a.md'), 'one')
    expect(await next).toEqual([dir])
    next = nextReport()
    writeFileSync(join(dir, 'team', 'b.md'), 'two')
    expect(await next).toEqual([dir])
    next = nextReport()
    unlinkSync(join(dir, 'a.md'))
    expect(await next).toEqual([dir])
  })

  it('keeps reporting changes to a file after it was replaced by a rename, the way editors save', async () => {
    const dir = join(root, 'agents')
    mkdirSync(dir)
    writeFileSync(join(dir, 'a.md'), 'one')
    watcher!.setFolders([{ path: dir, awaitCreation: false }])
    let next = nextReport()
    writeFileSync(join(dir, '.a.md.tmp'), 'two')
    renameSync(join(dir, '.a.md.tmp'), join(dir, 'a.md'))
    await next
    next = nextReport()
    writeFileSync(join(dir, 'a.md'), 'three')
    expect(await next).toEqual([dir])
  })

  it('notices a folder that did not exist yet once it is created with a file in it', async () => {
    const project = join(root, 'project')
    mkdirSync(project)
    const dir = join(project, '.claude/agents')
    watcher!.setFolders([{ path: dir, awaitCreation: true }])
    expect(watcher!.watching()).toEqual([])
    const next = nextReport()
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'new.md'), 'x')
    expect(await next).toEqual([dir])
    // From then on the folder itself is watched.
    await new Promise<void>((resolve) => {
      const poll = () => (watcher!.watching().includes(dir) ? resolve() : setTimeout(poll, 10))
      poll()
    })
  })

  it('reports a change the editor made itself, and stops watching folders no longer wanted', async () => {
    const dir = join(root, 'agents')
    mkdirSync(dir)
    watcher!.setFolders([{ path: dir, awaitCreation: false }])
    const next = nextReport()
    watcher!.touch(dir)
    expect(await next).toEqual([dir])
    watcher!.setFolders([])
    expect(watcher!.watching()).toEqual([])
  })

  it('reports nothing while Bash sandbox placeholders come and go, and still notices the real folder afterwards', async () => {
    const agents = join(root, '.claude/agents')
    watcher!.setFolders([{ path: agents, awaitCreation: true }])
    // Each sandboxed command puts an empty .claude folder here (the project has none) and removes it after.
    for (let i = 0; i < 3; i++) await runTool(createBashTool({ cwd: root }), { command: 'true' }, toolContext({ sandbox: 'workspace' }))
    const bg = await runInBackground(root)
    expect(placeholderAt(join(root, '.claude'))).toMatchObject({ kind: 'dir' })
    await bg.stop()
    // A report of something else flushes anything the placeholders made pending: it must be alone.
    let next = nextReport()
    watcher!.touch(join(root, 'elsewhere'))
    expect(await next).toEqual([join(root, 'elsewhere')])
    next = nextReport()
    mkdirSync(agents, { recursive: true })
    writeFileSync(join(agents, 'a.md'), 'one')
    expect(await next).toEqual([agents])
    expect(reports).toHaveLength(2)
  })
})

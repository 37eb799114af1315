// Merges take a per-repository lock across processes: two `fanout worktrees merge --all` started at once
// (one held inside its merge by a `git` on its PATH until the test lets go), the app's review service beside
// a CLI merge, and a merge killed with SIGKILL while it holds the lock. One waits and says so, both finish
// with the right exit status, the checkout is clean, every agent's branch lands exactly once, and a killed
// merge's lock is taken over by the next one.
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AgentWorkReview } from '../../src/main/runtime/review'
import { agentWorked } from '../../src/main/runtime/review/testing/agent-work'
import { waitUntil } from '../../src/main/runtime/tools/test-kit'
import { makeTempRepo, type TempRepo } from '../../src/main/runtime/worktrees/testing/temp-repo'
import { dispatchCall } from '../../src/shared/ipc-dispatch'
import { ensureCliBundle, runCli } from '../support/cli'
import { closeHosts, host } from '../support/host'

beforeAll(() => ensureCliBundle(), 120_000)

const AGENTS = ['a1', 'a2', 'a3', 'a4']

interface Setup {
  repo: TempRepo
  dataDir: string
  /** The first `git commit-tree` of a merge waits here until release(); its file holds the merging process's pid. */
  held: string
  release(): void
  env: Record<string, string>
  cleanup(): void
}

const open: Setup[] = []
afterEach(() => {
  for (const s of open.splice(0)) s.cleanup()
})

async function setup(): Promise<Setup> {
  const repo = makeTempRepo()
  for (const id of AGENTS) await agentWorked(repo, id, { files: { [`${id}.txt`]: `work of ${id}\n` }, agentType: 'coder', description: `task ${id}` })
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-merge-lock-')))
  const dataDir = join(root, 'data')
  const held = join(root, 'held')
  const releaseFile = join(root, 'release')
  const bin = join(root, 'bin')
  mkdirSync(bin)
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim()
  // The first merge commit waits here, inside the merge (so inside the lock); its pid goes in `held`.
  writeFileSync(
    join(bin, 'git'),
    `#!/bin/sh\ncase " $* " in\n  *" commit-tree "*)\n    if [ ! -e "${held}" ]; then\n      echo "$PPID $$" > "${held}.tmp" && mv "${held}.tmp" "${held}"\n      while [ ! -e "${releaseFile}" ]; do sleep 0.05; done\n    fi ;;\nesac\nexec "${realGit}" "$@"\n`
  )
  chmodSync(join(bin, 'git'), 0o755)
  const s: Setup = {
    repo,
    dataDir,
    held,
    release: () => writeFileSync(releaseFile, ''),
    env: { FANOUT_DATA_DIR: dataDir, HOME: root, PATH: `${bin}:${process.env.PATH ?? ''}` },
    cleanup: () => {
      writeFileSync(releaseFile, '')
      repo.cleanup()
      rmSync(root, { recursive: true, force: true })
    }
  }
  open.push(s)
  return s
}

const mergeAll = (s: Setup, onStderr?: (text: string) => void) =>
  runCli(['worktrees', 'merge', '--all', '--cwd', s.repo.root], { env: s.env, timeoutMs: 120_000, ...(onStderr ? { onStderr } : {}) })

/** The checkout is clean, no agent branch is left, and each agent's work is on main exactly once. */
function landedOnce(s: Setup): void {
  expect(s.repo.git('status', '--porcelain'), 'the checkout is clean').toBe('')
  expect(s.repo.git('branch', '--list', 'fanout/*')).toBe('')
  const subjects = s.repo.git('log', '--format=%s', 'main').split('\n')
  for (const id of AGENTS) {
    expect(
      subjects.filter((l) => l.startsWith(`Merge fanout/${id} `)),
      `${id} merged once`
    ).toHaveLength(1)
    expect(s.repo.read(`${id}.txt`)).toBe(`work of ${id}\n`)
  }
}

const WAITING = 'waiting for another merge in this repository…'

describe('merges of one repository, several processes', () => {
  it('two `worktrees merge --all` at once: one waits and then finds nothing left, both exit 0, every branch lands once', { timeout: 180_000 }, async () => {
    const s = await setup()
    const first = mergeAll(s)
    await waitUntil(() => existsSync(s.held), 'the first merge inside its merge', 60_000)
    let secondErr = ''
    const second = mergeAll(s, (text) => (secondErr = text))
    await waitUntil(() => secondErr.includes(WAITING), 'the second merge to say it waits', 60_000)
    // Still waiting while the first holds the repository: nothing of it has landed.
    expect(s.repo.git('log', '--format=%s', 'main')).toBe('initial commit')
    s.release()
    const [a, b] = await Promise.all([first, second])
    expect(a.code, a.stderr).toBe(0)
    for (const id of AGENTS)
      expect(a.stdout).toMatch(new RegExp(`^fanout/${id} merged into main as [0-9a-f]{10} \\(1 file\\); worktree and branch removed$`, 'm'))
    expect(b.code, b.stderr).toBe(0)
    expect(b.stderr).toMatch(
      /^fanout worktrees merge: waiting for another merge in this repository… \(fanout worktrees merge \(pid \d+\) since [\d:]+ holds it\)\n$/
    )
    expect(b.stdout).toBe('Nothing to merge: no agent branches here.\n')
    landedOnce(s)
  })

  it('the app (the review service in this process) waits for a CLI merge, then merges what is left', { timeout: 180_000 }, async () => {
    const s = await setup()
    // The CLI merges a1 and a2 only; the app asks for all.
    const cli = runCli(['worktrees', 'merge', 'a1', 'a2', '--cwd', s.repo.root], { env: s.env, timeoutMs: 120_000 })
    await waitUntil(() => existsSync(s.held), 'the CLI merge inside its merge', 60_000)
    const waits: string[] = []
    const app = new AgentWorkReview({ dataDir: s.dataDir, app: 'the Fanout app' }).merge(s.repo.root, {
      all: true,
      strategy: 'merge',
      onWait: (m) => waits.push(m)
    })
    await waitUntil(() => waits.length > 0, 'the app to say it waits', 60_000)
    expect(waits[0]).toMatch(/^waiting for another merge in this repository… \(fanout worktrees merge \(pid \d+\) since/)
    s.release()
    const [c, outcome] = await Promise.all([cli, app])
    expect(c.code, c.stderr).toBe(0)
    expect(outcome.stopped).toBeNull()
    expect(outcome.merged.map((m) => m.agentId).sort()).toEqual(['a3', 'a4'])
    landedOnce(s)
  })

  it('the app’s merge call through the host waits for a CLI merge holding the repository, then lands the rest', { timeout: 180_000 }, async () => {
    const s = await setup()
    const { h } = await host(null, { cwd: s.repo.root, dataDir: s.dataDir, home: join(s.dataDir, '..', 'home') }, {}, { owner: 'the Fanout app' })
    try {
      const cli = runCli(['worktrees', 'merge', 'a1', 'a2', '--cwd', s.repo.root], { env: s.env, timeoutMs: 120_000 })
      await waitUntil(() => existsSync(s.held), 'the CLI merge inside its merge', 60_000)
      const app = dispatchCall(h, 'review.merge', { cwd: s.repo.root, all: true, strategy: 'merge' })
      // Whenever the app's call reaches the lock, it cannot land anything while the CLI holds it.
      expect(s.repo.git('log', '--format=%s', 'main')).toBe('initial commit')
      s.release()
      const [c, outcome] = await Promise.all([cli, app])
      expect(c.code, c.stderr).toBe(0)
      expect(outcome).toMatchObject({ ok: true, value: { outcome: { stopped: null } } })
      const merged = (outcome as { value: { outcome: { merged: Array<{ agentId: string }> } } }).value.outcome.merged.map((m) => m.agentId)
      expect(merged.sort()).toEqual(['a3', 'a4'])
      landedOnce(s)
    } finally {
      await closeHosts()
    }
  })

  it('a merge killed with SIGKILL while it holds the lock: the next merge takes the stale lock over and lands everything', { timeout: 180_000 }, async () => {
    const s = await setup()
    const killed = mergeAll(s)
    await waitUntil(() => existsSync(s.held), 'the merge inside its merge', 60_000)
    const [fanoutPid, gitPid] = readFileSync(s.held, 'utf8').trim().split(' ').map(Number)
    process.kill(fanoutPid, 'SIGKILL')
    process.kill(gitPid, 'SIGKILL')
    expect((await killed).code).toBeNull()
    const locks = readdirSync(join(s.dataDir, 'repo-locks'))
    expect(
      locks.filter((n) => n.endsWith('.lock')),
      'the killed merge left its lock'
    ).toHaveLength(1)
    // Killed before it moved the checkout: nothing changed.
    expect(s.repo.git('status', '--porcelain')).toBe('')
    const next = await mergeAll(s)
    expect(next.code, next.stderr).toBe(0)
    expect(next.stderr).toBe('')
    landedOnce(s)
    expect(
      readdirSync(join(s.dataDir, 'repo-locks')).filter((n) => n.endsWith('.lock')),
      'the lock is let go'
    ).toEqual([])
  })
})

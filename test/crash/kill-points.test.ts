// The crash suite: a 16-agent `fanout run` (10 foreground workers with a side effect each, 2 worktree
// editors, 4 background watchers, a message to one of them) killed with SIGKILL at scripted points, then
// `--resume`d. After each kill every transcript reads back to its last complete line; after the resume the
// run finishes with every report once, the message read once, every side effect once, every worktree change
// in a commit, and no agent run twice (a worker killed while its conversation is being compacted included). The same over a 64-agent fan-out, most of it queued past the
// concurrency cap when the kill lands. The counts are printed for the issue's closing note.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestLogViolations } from '../../src/main/runtime/model/scripted'
import { ensureCliBundle } from '../support/cli'
import {
  agentIdOf,
  agentsDir,
  COMPACTING,
  type CrashProject,
  endCrashTest,
  type Holds,
  inspect,
  killGroup,
  lostWorktreeChanges,
  lifeLines,
  missingReports,
  sessionIds,
  startCrashTest,
  startRun,
  transcriptTexts,
  until
} from '../support/crash-kit'
import { join } from 'node:path'

beforeAll(() => ensureCliBundle(), 120_000)

interface Tally {
  killPoints: number
  itemsLost: number
  deliveredTwice: number
  agentsRunTwice: number
  effectsRepeated: number
  worktreeChangesLost: number
  deadlocks: number
}
const tally: Tally = { killPoints: 0, itemsLost: 0, deliveredTwice: 0, agentsRunTwice: 0, effectsRepeated: 0, worktreeChangesLost: 0, deadlocks: 0 }
afterAll(() => {
  console.log(
    `crash suite: ${tally.killPoints} kill points tried; items lost ${tally.itemsLost}; delivered twice ${tally.deliveredTwice}; agents run twice ${tally.agentsRunTwice}; side effects repeated ${tally.effectsRepeated}; worktree changes lost ${tally.worktreeChangesLost}; deadlocks ${tally.deadlocks}`
  )
})

const transcriptHas = (p: CrashProject, name: string, needle: string) => () => {
  const [sessionId] = sessionIds(p)
  if (!sessionId) return false
  const id = agentIdOf(p, sessionId, name)
  return !!id && (transcriptTexts(p, sessionId)[id] ?? '').includes(needle)
}

interface KillPoint {
  name: string
  holds: Holds
  /** The moment to kill the run. */
  when: (p: CrashProject) => () => boolean
}

const KILL_POINTS: KillPoint[] = [
  {
    name: 'mid-spawn (the fan-out half started)',
    holds: {},
    when: (p) => () => {
      const [sessionId] = sessionIds(p)
      return !!sessionId && existsSync(agentsDir(p, sessionId)) && Object.keys(transcriptTexts(p, sessionId)).length >= 8
    }
  },
  {
    name: 'mid-reply (the fan-out reply half streamed, the agents of its first calls started)',
    holds: { holdReply: true },
    when: (p) => () => {
      const [sessionId] = sessionIds(p)
      return (
        !!sessionId &&
        existsSync(p.marker('reply')) &&
        Object.values(transcriptTexts(p, sessionId)).filter((t) => t.includes('"type":"agent_start"')).length >= 4
      )
    }
  },
  { name: 'mid-stream (a report half streamed)', holds: { slowStream: true }, when: (p) => transcriptHas(p, 'worker-3', '"type":"text_delta","text":"REPORT') },
  { name: 'mid-tool (a Bash command running)', holds: { blockTool: true }, when: (p) => () => existsSync(p.marker('tool')) },
  { name: 'mid-worktree-commit (git committing an editor\u2019s worktree)', holds: { holdCommit: true }, when: (p) => () => existsSync(p.marker('commit')) },
  { name: 'mid-SendMessage (received, not yet read)', holds: {}, when: (p) => transcriptHas(p, 'watcher-0', '"type":"message_received"') },
  { name: 'at a report (a watcher\u2019s run just ended)', holds: {}, when: (p) => transcriptHas(p, 'watcher-1', '"type":"agent_end"') },
  {
    name: 'mid-compaction (a worker\u2019s conversation being summarised)',
    holds: { holdCompaction: true },
    when: (p) => () => existsSync(p.marker('compaction')) && transcriptHas(p, COMPACTING, '"type":"compaction_start"')()
  }
]

const killPoint = (name: string): KillPoint => KILL_POINTS.find((k) => k.name.startsWith(name))!

/** Runs, kills at the point, checks what the kill left, resumes (killing the resume too when asked), and checks the outcome. */
async function crashAndResume(point: KillPoint, opts: { killResumeToo?: boolean; agents?: number } = {}): Promise<void> {
  const { p, script, server } = await startCrashTest(opts.agents, point.holds)
  try {
    const first = startRun(p, server.url, ['-p', 'Fan out over the project.'])
    await until(`the kill point (${point.name})`, point.when(p), first).catch(async (err: Error) => {
      killGroup(first)
      const out = await first.done
      throw new Error(
        `${err.message}\nstderr: ${out.stderr}\ntranscripts: ${Object.entries(transcriptTexts(p, sessionIds(p)[0] ?? ''))
          .map(
            ([id, t]) =>
              `${id}: ${t
                .split('\n')
                .map((l) => /"type":"(\w+)"/.exec(l)?.[1])
                .join(',')}`
          )
          .join('\n')}`
      )
    })
    killGroup(first)
    const killed = await first.done
    expect(killed.signal, 'the run was killed').toBe('SIGKILL')
    script.killed = true
    p.release()
    tally.killPoints++
    const [sessionId] = sessionIds(p)
    const afterKill = await inspect(p, sessionId, { afterKill: true })
    expect(afterKill.unreadable, 'every transcript reads back to its last complete line').toEqual([])
    expect(afterKill.runTwice).toEqual([])

    if (opts.killResumeToo) {
      // A second crash, during the recovery itself: once some agent has started again.
      const before = Object.values(transcriptTexts(p, sessionId)).reduce((n, t) => n + t.split('"type":"agent_start"').length - 1, 0)
      const again = startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.'])
      await until(
        'a resumed agent to start',
        () => Object.values(transcriptTexts(p, sessionId)).reduce((n, t) => n + t.split('"type":"agent_start"').length - 1, 0) > before + 1,
        again
      )
      killGroup(again)
      await again.done
      tally.killPoints++
      expect((await inspect(p, sessionId, { afterKill: true })).unreadable).toEqual([])
    }

    const resumed = startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.'])
    // Not a speed target: a resume that has not ended by then is stuck (counted as a deadlock).
    const out = await Promise.race([resumed.done, new Promise<null>((r) => setTimeout(() => r(null), Math.max(90_000, p.agents.all.length * 3_000)))])
    if (!out) {
      tally.deadlocks++
      killGroup(resumed)
      throw new Error(`the resumed run did not finish (${point.name})`)
    }
    expect(
      out.stderr
        .split('\n')
        .filter(
          (l) =>
            l &&
            !/^fanout: (.*(skipped|rebuilt|added interrupted|no saved state|judged by its transcript|left behind by an earlier run|compacted the conversation)|resume: )/.test(
              l
            )
        ),
      'stderr'
    ).toEqual([])
    expect(out.code, out.stderr).toBe(0)
    // Files the killed run opened ahead for agents that never wrote a line are its own, not damage: not reported, and gone.
    expect(out.stderr).not.toMatch(/holds no readable events/)
    expect(
      readdirSync(agentsDir(p, sessionId)).filter((n) => n.endsWith('.jsonl') && statSync(join(agentsDir(p, sessionId), n)).size === 0),
      'empty transcripts left'
    ).toEqual([])
    const summary = JSON.parse(out.stdout)
    tally.deliveredTwice += Number(/dups=(\d+)/.exec(summary.result)?.[1] ?? 0)
    const final = await inspect(p, sessionId, { afterKill: false })
    tally.itemsLost += final.lost.length
    tally.deliveredTwice += final.twice.length
    tally.agentsRunTwice += final.runTwice.length
    expect(final.unreadable).toEqual([])
    expect(final.lost, 'nothing delivered is left unread').toEqual([])
    expect(final.twice, 'nothing is delivered or read twice').toEqual([])
    expect(final.runTwice, 'no agent runs twice at once').toEqual([])
    // Every request the model got, before the kill and after: no tool_use id twice, each call answered once, no answered history rewritten.
    expect(requestLogViolations(server.messageRequests())).toEqual([])
    // The main agent heard every report exactly once, and watcher-0 read the message once.
    // On a failure, which reports the main agent lacks and what it was told of them, the resume's notes, and every agent's life.
    const why = () => [...missingReports(p, server.messageRequests()), out.stderr, ...lifeLines(p, sessionId)].join('\n')
    if (summary.result !== `reports=${p.agents.all.length} dups=0 ack=1`) expect(summary.result, why()).toBe(`reports=${p.agents.all.length} dups=0 ack=1`)
    const effects = p.effects()
    const repeated = [...p.agents.workers, ...p.agents.watchers].filter((n) => effects.filter((e) => e === n).length !== 1)
    tally.effectsRepeated += repeated.length
    expect(repeated, `each side effect once: ${effects.join(', ')}`).toEqual([])
    const lostChanges = lostWorktreeChanges(p)
    tally.worktreeChangesLost += lostChanges.length
    expect(lostChanges, 'every worktree change is in a commit').toEqual([])
    // Every agent ends finished.
    const index = JSON.parse(readFileSync(join(p.dataDir, 'sessions', sessionId, 'session.json'), 'utf8'))
    const notDone = Object.values(index.agents as Record<string, { agentId: string; status: string }>).filter(
      (a) => a.status !== 'completed' && a.status !== 'stopped'
    )
    expect(notDone).toEqual([])
    expect(p.agents.all.every((n) => agentIdOf(p, sessionId, n))).toBe(true)
    if (point.holds.holdCompaction) {
      // The compaction the kill cut off was started again and finished, then the worker went on from its summary.
      const text = transcriptTexts(p, sessionId)[agentIdOf(p, sessionId, COMPACTING)!]
      expect(text.split('"type":"compaction_start"').length - 1, 'a compaction started before the kill and again after').toBe(2)
      expect(text.split('"type":"compaction"').length - 1, 'one compaction finished').toBe(1)
    }
  } finally {
    await endCrashTest(p, script, server)
  }
}

describe('kill -9 at scripted points of a 16-agent run, then --resume', () => {
  for (const point of KILL_POINTS) {
    it(point.name, { timeout: 240_000 }, () => crashAndResume(point))
  }
  it('mid-tool, then again during the resume', { timeout: 240_000 }, () => crashAndResume(killPoint('mid-tool'), { killResumeToo: true }))
})

describe('kill -9 in a 64-agent fan-out (58 workers queued past the cap of 20), then --resume', () => {
  it('mid-tool', { timeout: 360_000 }, () => crashAndResume(killPoint('mid-tool'), { agents: 64 }))
  it('mid-SendMessage', { timeout: 360_000 }, () => crashAndResume(killPoint('mid-SendMessage'), { agents: 64 }))
})

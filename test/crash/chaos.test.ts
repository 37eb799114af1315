// Chaos: the crash suite's mixed workload (foreground workers with a side effect each, worktree editors,
// background watchers, a SendMessage, a compaction, and a team: two workers claiming shared tasks, each with a
// side effect, and an idle member) as real `fanout run` processes against the scripted server, killed with
// SIGKILL at random — but seeded, so a failure can be replayed (FANOUT_CHAOS_SEED) — points, sometimes again
// during the resume, then resumed to the end. Checked on every request the model received (no tool_use id
// twice, each call answered once, no agent's answered history rewritten, no note about cut-off agents that
// says something false) and on disk (every report once, every side effect once — team tasks' too —, every
// message read once, no agent run twice, every team task completed, none left claimed). Bounded: a few runs,
// each with limits; prints its figures.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestLogViolations } from '../../src/main/runtime/model/scripted'
import { TeamBoard } from '../../src/main/runtime/orchestration/team/team-board'
import { ensureCliBundle } from '../support/cli'
import { seededRandom } from '../support/seeded-random'
import {
  crashProject,
  endCrashTest,
  type Holds,
  inspect,
  killGroup,
  lostWorktreeChanges,
  reportMarker,
  sessionIds,
  startCrashTest,
  startRun,
  TEAM,
  teamLog,
  transcriptTexts,
  until
} from '../support/crash-kit'

beforeAll(() => ensureCliBundle(), 120_000)

const SEED = Number(process.env.FANOUT_CHAOS_SEED ?? 26)
const RUNS = Number(process.env.FANOUT_CHAOS_RUNS ?? 5)

const figures = { runs: 0, kills: 0, requests: 0, violations: 0 }
afterAll(() => {
  console.log(
    `chaos: ${figures.runs} runs, ${figures.kills} kills, ${figures.requests} model requests checked, ${figures.violations} violations (seed ${SEED})`
  )
})

/** Every event line written so far, over all transcripts of the run's session. */
const lines = (p: ReturnType<typeof crashProject>) => {
  const [id] = sessionIds(p)
  return id ? Object.values(transcriptTexts(p, id)).reduce((n, t) => n + t.split('\n').length - 1, 0) : 0
}

/** What the notes about cut-off agents said that reality did not bear out: the CLI's resume restarts every one. */
function falseNotes(requests: Array<{ lastUserText: string; messages: unknown[] }>, finalText: string): string[] {
  const out: string[] = []
  for (const r of requests) {
    const text = r.lastUserText
    // The CLI's resume restarts every cut-off agent: no note may say one will never report (the old note did).
    const never = text.search(/no report will come/)
    if (never >= 0) out.push(`a note says agents will not report: ${text.slice(Math.max(0, never - 200), never + 40)}`)
    const running = /Restarted and running again in the background[^\n]*\n((?:- .*\n?)+)/.exec(text)?.[1] ?? ''
    // A subagent is described by its task's name; a team member by its name and team.
    for (const m of running.matchAll(/^- (\S+) \(general-purpose: (\S+?)(?: · team \S+)?\)/gm))
      if (!finalText.includes(reportMarker(m[2]))) out.push(`a note says ${m[2]} (${m[1]}) is running and will report, and its report never came`)
  }
  return out
}

/** The team's end: every task completed (none left claimed), each task's side effect once, each member's report once. */
async function teamProblems(p: ReturnType<typeof crashProject>, effects: string[], finalText: string): Promise<string[]> {
  const out: string[] = []
  const board = new TeamBoard(teamLog(p))
  await board.refresh()
  const team = board.snapshot()
  if (!team) return ['the team was never created']
  for (const t of team.tasks)
    if (t.status !== 'completed') out.push(`team task ${t.id} (${t.subject}) ended ${t.status}${t.owner ? `, claimed by ${t.owner}` : ''}`)
  for (const subject of TEAM.tasks) {
    const k = effects.filter((e) => e === `team-${subject}`).length
    if (k !== 1) out.push(`side effect of team ${subject} done ${k} times`)
  }
  for (const name of TEAM.members) {
    const k = finalText.split(reportMarker(name)).length - 1
    if (k !== 1) out.push(`team member ${name}'s report reached the lead ${k} times`)
  }
  return out
}

describe('chaos: a mixed workload killed at seeded random points, each resumed', () => {
  it(`${RUNS} runs (seed ${SEED})`, { timeout: 600_000 }, async () => {
    const rand = seededRandom(SEED)
    const problems: string[] = []
    for (let run = 0; run < RUNS; run++) {
      const pick = rand()
      const holds: Holds =
        pick < 0.25
          ? { blockTool: true }
          : pick < 0.4
            ? { slowStream: true }
            : pick < 0.55
              ? { holdCompaction: true }
              : pick < 0.8
                ? { holdTeamTask: true }
                : {}
      const { p, script, server } = await startCrashTest(16, holds, { team: true })
      try {
        figures.runs++
        const first = startRun(p, server.url, ['-p', 'Fan out over the project.', '--teams'])
        // A kill after this many transcript lines, or when a hold is reached, whichever is first.
        const at = 10 + Math.floor(rand() * 120)
        const held = () => lines(p) >= at || ['tool', 'compaction', 'team'].some((m) => existsSync(p.marker(m)))
        let killed = await until(`line ${at}`, held, first, 60_000).then(
          () => true,
          () => false
        )
        if (killed) {
          killGroup(first)
          figures.kills++
        }
        const firstOut = await first.done
        script.killed = true
        p.release()
        const [sessionId] = sessionIds(p)
        expect(sessionId, firstOut.stderr).toBeTruthy()
        // Sometimes the resume is killed too, once an agent has started again.
        if (killed && rand() < 0.4) {
          const before = lines(p)
          const again = startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.', '--teams'])
          killed = await until('the resume to write', () => lines(p) > before + 5 + Math.floor(rand() * 20), again, 60_000).then(
            () => true,
            () => false
          )
          if (killed) {
            killGroup(again)
            figures.kills++
          }
          await again.done
        }
        const last = firstOut.code === 0 && !killed ? firstOut : await startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.', '--teams']).done
        const requests = server.messageRequests()
        figures.requests += requests.length
        const found: string[] = []
        found.push(...requestLogViolations(requests))
        expect(last.code, last.stderr).toBe(0)
        const summary = JSON.parse(last.stdout)
        if (summary.result !== `reports=${p.agents.all.length} dups=0 ack=1`) found.push(`the main agent's count: ${summary.result}`)
        const main = requests.filter((r) => r.firstUserText.startsWith('Fan out over the project.'))
        found.push(...falseNotes(main, JSON.stringify(main[main.length - 1]?.messages ?? [])))
        const disk = await inspect(p, sessionId, { afterKill: false })
        found.push(...disk.unreadable, ...disk.lost, ...disk.twice, ...disk.runTwice)
        const effects = p.effects()
        for (const n of [...p.agents.workers, ...p.agents.watchers]) {
          const k = effects.filter((e) => e === n).length
          if (k !== 1) found.push(`side effect of ${n} done ${k} times`)
        }
        found.push(...lostWorktreeChanges(p).map((f) => `worktree change lost: ${f}`))
        found.push(...(await teamProblems(p, effects, JSON.stringify(main[main.length - 1]?.messages ?? []))))
        const index = JSON.parse(readFileSync(join(p.dataDir, 'sessions', sessionId, 'session.json'), 'utf8'))
        for (const a of Object.values(index.agents as Record<string, { agentId: string; status: string }>))
          if (a.status !== 'completed' && a.status !== 'stopped') found.push(`agent ${a.agentId} ended ${a.status}`)
        figures.violations += found.length
        problems.push(...found.map((f) => `run ${run} (holds ${JSON.stringify(holds)}, kill at line ${at}): ${f}`))
      } finally {
        await endCrashTest(p, script, server)
      }
    }
    expect(problems).toEqual([])
  })
})

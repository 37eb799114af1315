// A team in a crashed run: the lead's team (two workers claiming shared tasks, each task with a side effect,
// and an idle member) beside the crash suite's 16-agent fan-out, killed with SIGKILL at the team's own points
// and resumed. A task a member had claimed when the kill came is finished by that member after the restart
// (or the run says it is not, and exits 1 on every resume, with the reason in `result` and on stderr).
import { existsSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { requestLogViolations } from '../../src/main/runtime/model/scripted'
import { TeamBoard } from '../../src/main/runtime/orchestration/team/team-board'
import { ensureCliBundle } from '../support/cli'
import {
  type CrashProject,
  endCrashTest,
  type Holds,
  inspect,
  killGroup,
  reportMarker,
  sessionIds,
  startCrashTest,
  startRun,
  TEAM,
  teamLog,
  until
} from '../support/crash-kit'

beforeAll(() => ensureCliBundle(), 120_000)

const teamOf = async (p: CrashProject) => {
  const board = new TeamBoard(teamLog(p))
  await board.refresh()
  return board.snapshot()
}

interface TeamKill {
  name: string
  holds: Holds
  when: (p: CrashProject) => () => boolean
}

const KILLS: TeamKill[] = [
  // TeamCreate has written the team (its members and tasks) and started the members: none has run a turn yet.
  { name: 'the team just created', holds: {}, when: (p) => () => existsSync(teamLog(p)) },
  // A worker has claimed a task and is running its side effect.
  { name: 'a team task claimed, its side effect running', holds: { holdTeamTask: true }, when: (p) => () => existsSync(p.marker('team')) }
]

describe('crash: a team task claimed before a kill', () => {
  it.each(KILLS)('killed with $name: the resumed run finishes every task once, and exits 0', { timeout: 240_000 }, async ({ holds, when }) => {
    const { p, script, server } = await startCrashTest(16, holds, { team: true })
    try {
      const first = startRun(p, server.url, ['-p', 'Fan out over the project.', '--teams'])
      await until('the kill point', when(p), first, 120_000)
      if (holds.holdTeamTask) expect((await teamOf(p))?.tasks.some((t) => t.status === 'in_progress')).toBe(true)
      killGroup(first)
      await first.done
      script.killed = true
      p.release()
      const [sessionId] = sessionIds(p)
      const last = await startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.', '--teams']).done
      expect(last.code, last.stderr).toBe(0)
      const team = await teamOf(p)
      expect(team?.tasks.map((t) => [t.subject, t.status])).toEqual(TEAM.tasks.map((s) => [s, 'completed']))
      for (const s of TEAM.tasks) expect(p.effects().filter((e) => e === `team-${s}`)).toHaveLength(1)
      const main = server.messageRequests().filter((r) => r.firstUserText.startsWith('Fan out over the project.'))
      const finalText = JSON.stringify(main.at(-1)?.messages ?? [])
      for (const name of TEAM.members) expect(finalText.split(reportMarker(name)).length - 1, name).toBe(1)
      expect(requestLogViolations(server.messageRequests())).toEqual([])
      const disk = await inspect(p, sessionId, { afterKill: false })
      expect([...disk.unreadable, ...disk.lost, ...disk.twice, ...disk.runTwice]).toEqual([])
    } finally {
      await endCrashTest(p, script, server)
    }
  })

  it('a task claimed before the kill that its member leaves unfinished: every resume exits 1, the reason in result and on stderr', {
    timeout: 240_000
  }, async () => {
    const { p, script, server } = await startCrashTest(16, { holdTeamTask: true }, { team: 'abandon' })
    try {
      const first = startRun(p, server.url, ['-p', 'Fan out over the project.', '--teams'])
      await until('a team task claimed', () => existsSync(p.marker('team')), first, 120_000)
      killGroup(first)
      await first.done
      script.killed = true
      p.release()
      const [sessionId] = sessionIds(p)
      for (let resume = 0; resume < 2; resume++) {
        const r = await startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.', '--teams']).done
        expect(r.code, `resume ${resume}: ${r.stderr}`).toBe(1)
        const out = JSON.parse(r.stdout)
        expect(out).toMatchObject({ is_error: true, subtype: 'error_during_execution', terminal_reason: 'stalled_team_tasks' })
        expect(out.result).toMatch(/Team task \d+ \("task-[a-c]"\) is still claimed by crew-\d, who is not running: it will not be finished\./)
        expect(r.stderr).toMatch(/fanout run: failed: .*Team task \d+ \("task-[a-c]"\) is still claimed by crew-\d/)
      }
      expect(requestLogViolations(server.messageRequests())).toEqual([])
    } finally {
      await endCrashTest(p, script, server)
    }
  })
})

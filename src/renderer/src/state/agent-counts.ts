// How many subagents are in each state: the one count the session header, the tab strip, the status bar,
// the sidebar and the conversation's summary all read, so they never disagree. Every agent falls in exactly
// one group. The main agent is never counted, and the words say so: "4 subagents", "2 of 4 subagents working".
import type { AgentStatus } from '../../../shared/events'
import { plural } from '../lib/format'
import type { SessionState } from '../../../shared/view/session-state'

export type CountGroup = 'running' | 'waiting' | 'done' | 'stopped' | 'failed' | 'interrupted'

const GROUP: Record<AgentStatus, CountGroup> = {
  queued: 'running',
  running: 'running',
  waiting_permission: 'waiting',
  completed: 'done',
  stopped: 'stopped',
  max_turns: 'stopped',
  failed: 'failed',
  // Cut off by a crash or a kill and not run since: not working, not finished either.
  interrupted: 'interrupted'
}

export interface SessionCounts extends Record<CountGroup, number> {
  total: number
  /** Still working: running or waiting for permission. */
  active: number
}

/** Every agent but the main one, in start order: the panels grid. */
export function subagentIds(session: SessionState): string[] {
  return session.agentOrder.filter((id) => id !== session.rootAgentId)
}

export function countAgents(session: SessionState, ids: readonly string[] = subagentIds(session)): SessionCounts {
  const c: SessionCounts = { total: 0, active: 0, running: 0, waiting: 0, done: 0, stopped: 0, failed: 0, interrupted: 0 }
  for (const id of ids) {
    const group = GROUP[session.agents[id].status]
    c.total++
    c[group]++
    if (group === 'running' || group === 'waiting') c.active++
  }
  return c
}

const EMPTY_COUNTS: SessionCounts = { total: 0, active: 0, running: 0, waiting: 0, done: 0, stopped: 0, failed: 0, interrupted: 0 }
const subagentCounts = new WeakMap<SessionState['agents'], SessionCounts>()
const everyAgentCounts = new WeakMap<SessionState['agents'], SessionCounts>()

/**
 * countAgents for a component's selector: the same object while no agent changed, so a view of the counts
 * does not render again for each streamed delta (a delta changes the session, never its agents).
 */
export function agentCounts(session: SessionState | undefined, { withRoot = false } = {}): SessionCounts {
  if (!session) return EMPTY_COUNTS
  const cache = withRoot ? everyAgentCounts : subagentCounts
  let counts = cache.get(session.agents)
  if (!counts) {
    counts = countAgents(session, withRoot ? session.agentOrder : subagentIds(session))
    cache.set(session.agents, counts)
  }
  return counts
}

const LABEL: Record<CountGroup, string> = {
  running: 'running',
  waiting: 'waiting for permission',
  done: 'done',
  stopped: 'stopped',
  failed: 'failed',
  interrupted: 'interrupted'
}
const ORDER: CountGroup[] = ['running', 'waiting', 'done', 'stopped', 'failed', 'interrupted']

/**
 * The non-empty groups in a fixed order, as "3 running", "2 waiting for permission"…: for every summary line.
 * `short` is the start of `text` a narrow line can stop at ("2 waiting") and still be read.
 */
export function countParts(c: SessionCounts): Array<{ group: CountGroup; text: string; short: string }> {
  return ORDER.filter((g) => c[g] > 0).map((group) => ({ group, text: `${c[group]} ${LABEL[group]}`, short: `${c[group]} ${LABEL[group].split(' ')[0]}` }))
}

/** The count of subagents in words, the same in every view: "no subagents", "1 subagent", "4 subagents". */
export function subagentsText(n: number): string {
  return n === 0 ? 'no subagents' : plural(n, 'subagent')
}

/** The header's line: "2 of 4 subagents working" (running or waiting for permission) while any is, else "4 subagents". */
export function progressText(c: SessionCounts): string {
  return c.active > 0 ? `${c.active} of ${subagentsText(c.total)} working` : subagentsText(c.total)
}

/** A session listing counts every agent, the main one among them: the subagents are the others. */
export function listedSubagents(agentCount: number): number {
  return Math.max(0, agentCount - 1)
}

/** Who a crash cut off, in the words the panels count by: "the main agent and 16 subagents", "2 subagents". */
export function cutOffWho(main: boolean, subagents: number): string {
  if (!subagents) return 'the main agent'
  return main ? `the main agent and ${subagentsText(subagents)}` : subagentsText(subagents)
}

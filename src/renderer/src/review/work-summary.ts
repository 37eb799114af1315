// One line about an agent's work for lists and headers: what its branch holds, or what became of it.
import type { AgentChanges, LandedRecord, ReviewList } from '../../../shared/review'
import type { AgentState } from '../../../shared/view/session-state'

export type WorkTone = 'ready' | 'running' | 'done' | 'none' | 'gone' | 'unknown'

export interface WorkSummary {
  text: string
  tone: WorkTone
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`

export function filesText(c: Pick<AgentChanges, 'files' | 'uncommitted' | 'additions' | 'deletions'>): string {
  const n = new Set([...c.files, ...c.uncommitted].map((f) => f.path)).size
  return `${plural(n, 'file')} +${c.additions + c.uncommitted.reduce((s, f) => s + f.additions, 0)} −${c.deletions + c.uncommitted.reduce((s, f) => s + f.deletions, 0)}`
}

export function landedText(r: LandedRecord): string {
  if (r.action === 'discarded') return 'discarded'
  return `${r.action === 'merged' ? 'merged into' : 'squashed into'} ${r.into ?? 'the branch'} as ${r.commit.slice(0, 7)}`
}

export function workSummary(agentId: string, agent: AgentState | undefined, list: ReviewList | null): WorkSummary {
  const c = list?.agents.find((a) => a.agentId === agentId)
  if (c) {
    if (c.state === 'running')
      return { text: c.files.length || c.uncommitted.length ? `working · ${filesText(c)} so far` : 'working · no changes yet', tone: 'running' }
    if (c.state === 'merged') return { text: 'already on the branch', tone: 'done' }
    if (c.state === 'empty') return { text: 'no changes', tone: 'none' }
    return { text: filesText(c), tone: 'ready' }
  }
  const gone = list?.gone.find((g) => g.agentId === agentId)
  if (gone?.outcome) return { text: landedText(gone.outcome), tone: gone.outcome.action === 'discarded' ? 'gone' : 'done' }
  if (agent?.worktree?.kept === false) return { text: 'no changes (worktree removed)', tone: 'none' }
  if (gone) return { text: `${gone.branch} no longer exists`, tone: 'gone' }
  return { text: '…', tone: 'unknown' }
}

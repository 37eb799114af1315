import { describe, expect, it } from 'vitest'
import type { AgentChanges, ReviewList } from '../../../shared/review'
import { workSummary } from './work-summary'

const checkout = { root: '/p', branch: 'main', head: 'h', dirtyFiles: [], operation: null }
const changes = (over: Partial<AgentChanges>): AgentChanges => ({
  agentId: 'a1',
  branch: 'fanout/a1',
  tip: 't',
  baseCommit: 'b',
  worktreePath: '/w',
  state: 'ready',
  commits: [],
  files: [{ path: 'a.ts', status: 'modified', additions: 3, deletions: 1, binary: false }],
  additions: 3,
  deletions: 1,
  uncommitted: [],
  ...over
})
const list = (over: Partial<ReviewList>): ReviewList => ({ checkout, agents: [], gone: [], ...over })

describe('workSummary', () => {
  it('says what a branch holds, counting uncommitted files once', () => {
    expect(workSummary('a1', undefined, list({ agents: [changes({})] }))).toEqual({ text: '1 file +3 −1', tone: 'ready' })
    const running = changes({
      state: 'running',
      uncommitted: [
        { path: 'a.ts', status: 'modified', additions: 1, deletions: 0, binary: false },
        { path: 'b.ts', status: 'added', additions: 2, deletions: 0, binary: false }
      ]
    })
    expect(workSummary('a1', undefined, list({ agents: [running] }))).toEqual({ text: 'working · 2 files +6 −1 so far', tone: 'running' })
    expect(workSummary('a1', undefined, list({ agents: [changes({ state: 'merged' })] })).text).toBe('already on the branch')
  })

  it('says what became of a branch that is gone', () => {
    const gone = (outcome: ReviewList['gone'][number]['outcome']) => list({ gone: [{ agentId: 'a1', branch: 'fanout/a1', outcome }] })
    expect(workSummary('a1', undefined, gone({ agentId: 'a1', branch: 'fanout/a1', action: 'squashed', commit: 'abcdef0123', into: 'main', at: 1 })).text).toBe(
      'squashed into main as abcdef0'
    )
    expect(workSummary('a1', undefined, gone({ agentId: 'a1', branch: 'fanout/a1', action: 'discarded', commit: 'abc', at: 1 }))).toEqual({
      text: 'discarded',
      tone: 'gone'
    })
    expect(workSummary('a1', undefined, gone(null))).toEqual({ text: 'fanout/a1 no longer exists', tone: 'gone' })
    expect(workSummary('a1', { worktree: { path: '/w', branch: 'fanout/a1', kept: false } } as never, gone(null)).text).toBe('no changes (worktree removed)')
    expect(workSummary('a1', undefined, null)).toEqual({ text: '…', tone: 'unknown' })
  })
})

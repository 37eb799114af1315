// The overview never moves a tile under the pointer: while held, a stopped agent keeps its place and new ones
// go at the end; released, it settles as before.
import { describe, expect, it } from 'vitest'
import type { AgentStatus } from '../../../shared/events'
import { placeAgents, type Placement } from './placement'

describe('placing agents in the overview', () => {
  const status: Record<string, AgentStatus> = { a: 'running', b: 'running', c: 'running', d: 'running' }
  const of = (id: string) => status[id]

  it('while held, a stopped agent keeps its place and every other one stays where it was', () => {
    let p: Placement = placeAgents(null, ['a', 'b', 'c', 'd'], of, {}, null, false)
    expect(p.grid).toEqual(['a', 'b', 'c', 'd'])
    status.b = 'stopped'
    p = placeAgents(p, ['a', 'b', 'c', 'd'], of, {}, null, true)
    expect(p).toEqual({ grid: ['a', 'b', 'c', 'd'], finished: [] })
    // A new agent while held: at the end.
    status.e = 'running'
    p = placeAgents(p, ['a', 'b', 'c', 'd', 'e'], of, {}, null, true)
    expect(p.grid).toEqual(['a', 'b', 'c', 'd', 'e'])
    // Released: it settles, the stopped one to the list.
    p = placeAgents(p, ['a', 'b', 'c', 'd', 'e'], of, {}, null, false)
    expect(p).toEqual({ grid: ['a', 'c', 'd', 'e'], finished: ['b'] })
  })

  it('while held, an agent in the list that is expanded or resumed joins the grid at the end; a new finished one goes to the list', () => {
    const s: Record<string, AgentStatus> = { a: 'running', b: 'completed', c: 'completed' }
    const at = (id: string) => s[id]
    let p = placeAgents(null, ['a', 'b', 'c'], at, {}, null, false)
    expect(p).toEqual({ grid: ['a'], finished: ['b', 'c'] })
    p = placeAgents(p, ['a', 'b', 'c'], at, { c: true }, null, true)
    expect(p).toEqual({ grid: ['a', 'c'], finished: ['b'] })
    s.b = 'running'
    s.d = 'completed'
    p = placeAgents(p, ['a', 'b', 'c', 'd'], at, { c: true }, null, true)
    expect(p).toEqual({ grid: ['a', 'c', 'b'], finished: ['d'] })
  })

  it('forgets agents that are gone (a session reloaded without them)', () => {
    const p = placeAgents({ grid: ['x', 'a'], finished: ['y'] }, ['a'], () => 'running', {}, null, true)
    expect(p).toEqual({ grid: ['a'], finished: [] })
  })
})

import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listAgentStates, readAgentState, writeAgentState, type AgentStateInput } from './agent-state'
import { agentStatePath } from './data-dir'
import { tempDataDir } from './test-fixtures'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const state = (over: Partial<AgentStateInput> = {}): AgentStateInput => ({
  agentId: 'a1',
  sessionId: 's1',
  agentType: 'code-reviewer',
  definition: { name: 'code-reviewer', source: 'project', file: '/repo/.claude/agents/code-reviewer.md' },
  model: 'claude-sonnet-5-5',
  turnCount: 4,
  status: 'stopped',
  stoppedByUser: true,
  worktree: { path: '/tmp/wt/a1', branch: 'fanout/a1' },
  cwd: '/tmp/wt/a1',
  parentAgentId: 'main',
  name: 'reviewer',
  ...over
})

describe('agent state', () => {
  it('writes atomically and reads back what a resume needs', async () => {
    const written = await writeAgentState(dataDir, state({ updatedAt: 42 }))
    expect(written).toMatchObject({ version: 1, updatedAt: 42 })
    expect(await readAgentState(dataDir, 's1', 'a1')).toEqual(written)
    await writeAgentState(dataDir, state({ turnCount: 5, status: 'completed', stoppedByUser: false }))
    expect(await readAgentState(dataDir, 's1', 'a1')).toMatchObject({ turnCount: 5, status: 'completed', stoppedByUser: false })
    expect((await readdir(join(dataDir, 'sessions', 's1', 'agents'))).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  it('is null when never written, and names the file and field when broken', async () => {
    expect(await readAgentState(dataDir, 's1', 'nobody')).toBeNull()
    await writeAgentState(dataDir, state())
    const file = agentStatePath(dataDir, 's1', 'a1')
    await writeFile(file, JSON.stringify({ ...state(), turnCount: 'many', updatedAt: 1 }))
    await expect(readAgentState(dataDir, 's1', 'a1')).rejects.toThrow(`${file}: turnCount:`)
  })

  it('refuses to write an invalid state, saying which field', async () => {
    await expect(writeAgentState(dataDir, state({ status: 'sleeping' as never }))).rejects.toThrow(/invalid agent state .*status/)
  })

  it('lists every agent state of a session, reporting broken ones', async () => {
    await writeAgentState(dataDir, state())
    await writeAgentState(dataDir, state({ agentId: 'a2', stoppedByUser: false, status: 'running' }))
    await writeFile(join(dataDir, 'sessions', 's1', 'agents', 'a3.state.json'), '{nope')
    const { states, problems } = await listAgentStates(dataDir, 's1')
    expect(states.map((s) => s.agentId).sort()).toEqual(['a1', 'a2'])
    expect(problems).toEqual([expect.stringContaining('a3.state.json is not valid JSON')])
    expect(await listAgentStates(dataDir, 'none')).toEqual({ states: [], problems: [] })
  })
})

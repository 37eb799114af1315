import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeAgentState, type AgentStateInput } from './agent-state'
import { INTERRUPTED_TOOL_RESULT } from './rebuild-conversation'
import { agentsToResume, loadAgentForResume } from './resume'
import { createSessionRecorder } from './session-recorder'
import { eventsFor, tempDataDir } from './test-fixtures'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const state = (agentId: string, over: Partial<AgentStateInput>): AgentStateInput => ({
  agentId,
  sessionId: 's',
  agentType: 'general-purpose',
  definition: { name: 'general-purpose', source: 'built-in' },
  model: 'claude-sonnet-5-5',
  turnCount: 1,
  status: 'running',
  stoppedByUser: false,
  cwd: '/repo',
  parentAgentId: null,
  ...over
})

describe('resume', () => {
  it('gives an interrupted agent its state and its full conversation, dangling tool call answered', async () => {
    const f = eventsFor({ sessionId: 's', agentId: 'w1', parentAgentId: null, parentToolUseId: null })
    const rec = createSessionRecorder({ dataDir, sessionId: 's', cwd: '/repo' })
    rec.record(f.start())
    rec.record(f.message({ role: 'user', content: 'Fix the test' }))
    rec.record(f.message({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }] }))
    await rec.close() // the app quits while Bash runs
    await writeAgentState(dataDir, state('w1', { turnCount: 1 }))

    const r = await loadAgentForResume(dataDir, 's', 'w1')
    expect(r.state).toMatchObject({ agentId: 'w1', turnCount: 1, model: 'claude-sonnet-5-5' })
    expect(r.messages).toEqual([
      { role: 'user', content: 'Fix the test' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: INTERRUPTED_TOOL_RESULT, is_error: true }] }
    ])
    expect(r.notes).toEqual([expect.stringContaining('added interrupted results for unanswered tool calls t1')])
  })

  it('resumes after a restart only agents that were cut off, never ones the user stopped or that finished', async () => {
    await writeAgentState(dataDir, state('cut-off', {}))
    await writeAgentState(dataDir, state('queued', { status: 'queued' }))
    await writeAgentState(dataDir, state('user-stopped', { status: 'stopped', stoppedByUser: true }))
    await writeAgentState(dataDir, state('stopped-running', { status: 'running', stoppedByUser: true }))
    await writeAgentState(dataDir, state('done', { status: 'completed' }))
    const { states } = await agentsToResume(dataDir, 's')
    expect(states.map((s) => s.agentId).sort()).toEqual(['cut-off', 'queued'])
  })

  it('a subagent whose run ended in its transcript is not resumed, though its state still says running (a kill before that state was written)', async () => {
    // A subagent's end state is written a turn of the loop after its agent_end (runs/persistence.ts): its parent
    // goes on first. A kill in between leaves this; the restart must not run the finished agent again.
    for (const [id, ended] of [
      ['finished', true],
      ['cut-off', false]
    ] as const) {
      const f = eventsFor({ sessionId: 's', agentId: id, parentAgentId: 'main-s', parentToolUseId: `tu-${id}` })
      const rec = createSessionRecorder({ dataDir, sessionId: 's', cwd: '/repo' })
      rec.record(f.start())
      rec.record(f.turn(1))
      if (ended) rec.record(f.end('completed'))
      await rec.close()
      await writeAgentState(dataDir, state(id, { parentAgentId: 'main-s' }))
    }
    const { states } = await agentsToResume(dataDir, 's')
    expect(states.map((s) => s.agentId)).toEqual(['cut-off'])
  })

  it('rebuilds a missing state from the transcript, and says so', async () => {
    const f = eventsFor({ sessionId: 's', agentId: 'x', parentAgentId: 'main-s', parentToolUseId: 'tu1' })
    const rec = createSessionRecorder({ dataDir, sessionId: 's', cwd: '/repo' })
    rec.record(f.start({ agentType: 'Explore', name: 'scout', background: true }))
    rec.record(f.turn(1))
    await rec.close()
    const r = await loadAgentForResume(dataDir, 's', 'x', { sessionCwd: '/repo' })
    expect(r.state).toMatchObject({
      agentId: 'x',
      agentType: 'Explore',
      definition: { name: 'Explore' },
      status: 'running',
      turnCount: 1,
      parentAgentId: 'main-s',
      parentToolUseId: 'tu1',
      name: 'scout',
      background: true,
      stoppedByUser: false
    })
    expect(r.notes).toEqual(['agent x has no saved state; it was rebuilt from its transcript'])
    await expect(loadAgentForResume(dataDir, 's', 'ghost')).rejects.toThrow(/Transcript not found: .*ghost\.jsonl/)
  })

  it('a state file that does not parse or validate is ignored for the transcript, which keeps the whole history', async () => {
    const f = eventsFor({ sessionId: 's', agentId: 'w', parentAgentId: null, parentToolUseId: null })
    const rec = createSessionRecorder({ dataDir, sessionId: 's', cwd: '/repo' })
    rec.record(f.start())
    for (let i = 0; i < 6; i++) {
      rec.record(f.message({ role: 'user', content: `question ${i}` }))
      rec.record(f.message({ role: 'assistant', content: `answer ${i}` }))
    }
    await rec.close()
    const { writeFileSync } = await import('node:fs')
    const { agentStatePath } = await import('./data-dir')
    for (const broken of ['{garbage', JSON.stringify({ ...state('w', {}), turnCount: -1, version: 1, updatedAt: 1 })]) {
      writeFileSync(agentStatePath(dataDir, 's', 'w'), broken)
      const r = await loadAgentForResume(dataDir, 's', 'w')
      expect(r.messages).toHaveLength(12)
      expect(r.state).toMatchObject({ agentId: 'w', status: 'running' })
      expect(r.notes).toEqual([
        expect.stringMatching(
          /^The saved state of agent w could not be used \(.*w\.state\.json.*\); it was rebuilt from its transcript, whose history is complete\.$/
        )
      ])
      const { states, problems } = await agentsToResume(dataDir, 's')
      expect(states.map((s) => s.agentId)).toEqual(['w'])
      expect(problems).toEqual([expect.stringContaining('(the agent was judged by its transcript instead)')])
    }
  })
})

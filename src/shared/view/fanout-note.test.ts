// Fanout's notes to the model (the restart note, the cut-off subagents with their hex ids) show as one short
// line for the person, wherever they reach the transcript: delivered, or only in the user message.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../events'
import { CUT_OFF_NOTE, RESUME_AFTER_RESTART_NOTE } from '../run-opening'
import { humanNote } from './fanout-note'
import { applyEvents } from './reducer'
import { emptyEventsState } from './session-state'

const CUT_OFF = [
  CUT_OFF_NOTE.start,
  `${CUT_OFF_NOTE.running}; each one's report reaches you as a <task-notification> when it finishes, so do not start them again:\n- 3fa9c2d1e0b7 (Explore: Map the parser)\n- 9b1e44aa07c2 (code-reviewer: Review the lexer)`,
  `${CUT_OFF_NOTE.stopped}:\n- 77aa00bb11cc (test-writer: Run the tests): it was not restarted\nTo have one continue, send it a message with SendMessage; otherwise do the work another way.`
].join('\n\n')
const NOTE = `${RESUME_AFTER_RESTART_NOTE}\n\n${CUT_OFF}`
const HEX = /[0-9a-f]{8,}/

describe("Fanout's notes as the person reads them", () => {
  it('says what happened in one line, with counts and no agent ids or protocol words', () => {
    const line = humanNote(NOTE)
    expect(line).toBe(
      'Fanout restarted after it was closed or crashed; the agent goes on from where it was. 3 subagents were cut off: 2 running again, 1 not running.'
    )
    expect(humanNote(RESUME_AFTER_RESTART_NOTE)).toBe('Fanout restarted after it was closed or crashed; the agent goes on from where it was.')
    expect(humanNote('Some other words')).toBe('Some other words')
  })

  it('never shows as text the person typed: delivered or only in the user message', () => {
    const base = { parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 5 }
    const events: AgentEvent[] = [
      { ...base, agentId: 'main', type: 'agent_start', agentType: 'main', model: 'm', description: 'x', prompt: 'p' } as AgentEvent,
      { ...base, agentId: 'main', type: 'message_received', from: 'fanout', text: NOTE },
      { ...base, agentId: 'main', type: 'message', message: { role: 'user', content: [{ type: 'text', text: NOTE }] } } as AgentEvent,
      // A subagent resumed after the restart: its run's opening user message is the note, never delivered.
      {
        ...base,
        agentId: 'sub',
        parentAgentId: 'main',
        type: 'agent_start',
        agentType: 'Explore',
        model: 'm',
        description: 'Map',
        prompt: RESUME_AFTER_RESTART_NOTE
      } as AgentEvent,
      { ...base, agentId: 'sub', parentAgentId: 'main', type: 'message', message: { role: 'user', content: RESUME_AFTER_RESTART_NOTE } } as AgentEvent
    ]
    const s = applyEvents(emptyEventsState(), events).sessions.s
    for (const id of ['main', 'sub']) {
      const items = s.items[id] ?? []
      expect(items.filter((i) => i.kind === 'user')).toEqual([])
      const notes = items.filter((i) => i.kind === 'inbox')
      expect(notes).toHaveLength(1)
      expect(JSON.stringify(notes)).not.toMatch(HEX)
      expect(JSON.stringify(notes)).not.toContain('task-notification')
    }
  })
})

describe('a tool output with the reminders a hook appended', () => {
  it('reads as the tool gave it, the hook’s words apart', async () => {
    const { splitReminders } = await import('./model-markup')
    const out = 'src/a.ts:1: ok\n\n<system-reminder>\nPostToolUse hook feedback: lint found 2 problems\n</system-reminder>'
    expect(splitReminders(out)).toEqual({ text: 'src/a.ts:1: ok', reminders: ['PostToolUse hook feedback: lint found 2 problems'] })
    expect(splitReminders('plain')).toEqual({ text: 'plain', reminders: [] })
  })
})

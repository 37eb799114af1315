// The scripted model of a runaway: every turn of every agent starts more agents, in the background and in
// the foreground, and keeps trying once the limits refuse. The runaway tests (in process and through
// `fanout run`) share it.
import { reply, type ParsedRequest } from '../../model/scripted'

export function alwaysSpawn(req: ParsedRequest) {
  // Agents without the Agent tool (at the depth limit) can only talk; the others never stop spawning.
  if (!req.toolNames.includes('Agent')) return reply.text(`leaf: ${req.firstUserText}`)
  const n = req.turn
  // One call that always works (reading a file), so the no-progress guard does not end it: only the turn limit does.
  return reply.toolUses([
    { name: 'Agent', input: { description: `bg ${n}a`, prompt: `Spawn more ${n}a`, run_in_background: true } },
    { name: 'Agent', input: { description: `bg ${n}b`, prompt: `Spawn more ${n}b`, run_in_background: true } },
    { name: 'Agent', input: { description: `fg ${n}`, prompt: `Spawn more ${n}c` } },
    { name: 'Glob', input: { pattern: '*' } }
  ])
}

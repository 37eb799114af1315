// Scripted agents for orchestration tests: the main agent's script, and a turn held at a known point until
// the test lets it go, so that a test reads as what each agent does rather than how the server is driven.
import { reply, scriptByAgent, type AgentScript, type Respond, type Turn } from '../../model/scripted'

/** What the main agent's system prompt says (and no subagent's does). */
export const MAIN_AGENT_MATCH = 'lead agent in Fanout'

/** A subagent's script, found by `match` in its system prompt or task: `turns` in order, then `then` for every turn after them. */
export function scriptedAgent(name: string, match: AgentScript['match'], turns: Turn[], then?: Turn): AgentScript {
  return { name, match, turns, ...(then ? { then } : {}) }
}

/** The main agent's script: `turns` in order, then `then` for every turn after them. */
export function mainAgent(turns: Turn[], then?: Turn): AgentScript {
  return scriptedAgent('main', MAIN_AGENT_MATCH, turns, then)
}

/** The turns of an agent that starts a subagent for each of `inputs` at once (Agent calls), then says "done". */
export function spawnAllThenDone(inputs: Array<Record<string, unknown>>): Turn[] {
  return [reply.toolUses(inputs.map((input) => ({ name: 'Agent', input }))), reply.text('done')]
}

/** A main agent that notes each prompt (its first 40 characters) and, asked to compact, answers `summary`. */
export function notingMainAgent(summary: string): Respond {
  return scriptByAgent([{ ...mainAgent([], (req) => reply.text(`Noted: ${req.lastUserText.slice(0, 40)}`)), summarize: () => reply.text(summary) }])
}

/**
 * A turn that waits until `gate` opens (see latch()), then answers. `unless`: the wait is over already (e.g.
 * after a simulated restart, when the held run belongs to the session that "crashed").
 */
export function heldUntil(gate: { wait: Promise<void> }, answer: Turn, opts: { unless?: () => boolean } = {}): Turn {
  return async (req, ctx) => {
    if (!opts.unless?.()) await gate.wait
    return typeof answer === 'function' ? answer(req, ctx) : answer
  }
}

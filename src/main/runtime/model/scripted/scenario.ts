// A small scenario DSL: each agent is recognised by its system prompt or its task, and answers turn by
// turn. The turn is read from the request itself (how many assistant messages it carries), so scripts
// stay right when many agents call at once and when a call is retried.
//
//   scriptByAgent([
//     { name: 'main', match: 'You are the lead', turns: [reply.toolUses([...3 Agent calls]), reply.text('All done.')] },
//     { name: 'explorer', match: /Explore the (\w+) folder/, turns: [reply.toolUse('Glob', { pattern: '**/*' }), reply.text('Found 3 files.')] }
//   ])
import { reply } from './reply'
import type { ParsedRequest, Respond, RespondContext, ScriptedReply } from './types'

/** A substring of the system prompt or of the first user message, a RegExp tested on both, or a predicate. */
export type Matcher = string | RegExp | ((req: ParsedRequest) => boolean)

export type Turn = ScriptedReply | ((req: ParsedRequest, ctx: RespondContext) => ScriptedReply | Promise<ScriptedReply>)

export interface AgentScript {
  /** Used in error messages. */
  name?: string
  match: Matcher
  turns: Turn[]
  /** Answers every turn past `turns` (a follow-up prompt, a report after the script ran out); without it such a turn is a 400. */
  then?: Turn
}

export function matches(matcher: Matcher, req: ParsedRequest): boolean {
  if (typeof matcher === 'function') return matcher(req)
  if (typeof matcher === 'string') return req.system.includes(matcher) || req.firstUserText.includes(matcher)
  return matcher.test(req.system) || matcher.test(req.firstUserText)
}

const preview = (s: string) => JSON.stringify(s.length > 80 ? s.slice(0, 80) + '…' : s)

/**
 * Routes each request to the first script whose matcher accepts it; scripts are tried in order.
 * Accepts a list of scripts, or an object whose keys are names (values `{ match, turns }`) or,
 * shorter, substring matchers (values are the turns): `scriptByAgent({ 'You are Explore': [t1, t2] })`.
 */
export function scriptByAgent(scripts: AgentScript[] | Record<string, Omit<AgentScript, 'name'> | Turn[]>, opts: { fallback?: Respond } = {}): Respond {
  const list: AgentScript[] = Array.isArray(scripts)
    ? scripts
    : Object.entries(scripts).map(([key, s]) => (Array.isArray(s) ? { name: key, match: key, turns: s } : { name: key, ...s }))
  return async (req, ctx) => {
    const script = list.find((s) => matches(s.match, req))
    if (!script) {
      if (opts.fallback) return opts.fallback(req, ctx)
      return reply.badRequest(`scripted server: no script matches this request (system: ${preview(req.system)}, first user message: ${preview(req.firstUserText)})`)
    }
    const turn = script.turns[req.turn] ?? script.then
    if (turn === undefined)
      return reply.badRequest(`scripted server: agent ${script.name ?? String(script.match)} has no reply for turn ${req.turn + 1} (its script has ${script.turns.length})`)
    return typeof turn === 'function' ? turn(req, ctx) : turn
  }
}

/** One turn that answers differently per attempt: `byAttempt(reply.overloaded(), reply.text('ok'))` fails once, then succeeds. */
export function byAttempt(...replies: ScriptedReply[]): Turn {
  return (_req, ctx) => replies[Math.min(ctx.attempt, replies.length - 1)]
}

/** Answers every request with the same turns list, regardless of who asks (single-agent tests). */
export function scriptTurns(...turns: Turn[]): Respond {
  return scriptByAgent([{ name: 'the agent', match: () => true, turns }])
}

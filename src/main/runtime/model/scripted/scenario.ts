// A small scenario DSL: each agent is recognised by its system prompt or its task, and answers turn by
// turn. The turn is read from the request itself (how many assistant messages it carries), so scripts
// stay right when many agents call at once and when a call is retried. A compaction's summary request is
// answered by the agent's `summarize` turn (default: a summary of what the request shows, see
// scriptedSummary); after a compaction the turn counts only what the compacted conversation holds, so a
// script for a long session decides from what the request says (its tool results, its summary) instead.
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
  /** Answers this agent's summary requests (compaction); default scriptedSummary. */
  summarize?: Turn
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
export function scriptByAgent(
  scripts: AgentScript[] | Record<string, Omit<AgentScript, 'name'> | Turn[]>,
  opts: { fallback?: Respond; summarize?: Turn } = {}
): Respond {
  const list: AgentScript[] = Array.isArray(scripts)
    ? scripts
    : Object.entries(scripts).map(([key, s]) => (Array.isArray(s) ? { name: key, match: key, turns: s } : { name: key, ...s }))
  return async (req, ctx) => {
    const script = list.find((s) => matches(s.match, req))
    if (req.isSummaryRequest) {
      const turn = script?.summarize ?? opts.summarize ?? scriptedSummary
      return typeof turn === 'function' ? turn(req, ctx) : turn
    }
    if (!script) {
      if (opts.fallback) return opts.fallback(req, ctx)
      return reply.badRequest(
        `scripted server: no script matches this request (system: ${preview(req.system)}, first user message: ${preview(req.firstUserText)})`
      )
    }
    const turn = script.turns[req.turn] ?? script.then
    if (turn === undefined)
      return reply.badRequest(
        `scripted server: agent ${script.name ?? String(script.match)} has no reply for turn ${req.turn + 1} (its script has ${script.turns.length})`
      )
    return typeof turn === 'function' ? turn(req, ctx) : turn
  }
}

/** One turn that answers differently per attempt: `byAttempt(reply.overloaded(), reply.text('ok'))` fails once, then succeeds. */
export function byAttempt(...replies: ScriptedReply[]): Turn {
  return (_req, ctx) => replies[Math.min(ctx.attempt, replies.length - 1)]
}

/** What the lead agent's system prompt says of it (orchestration/prompts/main-prompt.ts): scripts find the lead by it. */
export const LEAD_AGENT = 'lead agent in Fanout'

/** A script for the lead agent alone, its turns in order: any other agent's request is a test failure. */
export function scriptLead(...turns: Turn[]): Respond {
  return scriptByAgent([{ match: LEAD_AGENT, turns }])
}

/** A lead agent's last turn after a subagent's run: answers with the first line of what the Agent call returned. */
export const relayFirstLine: Turn = (req) => reply.text(req.toolResults[0].content.split('\n')[0])

/** Answers every request with the same turns list, regardless of who asks (single-agent tests). */
export function scriptTurns(...turns: Turn[]): Respond {
  return scriptByAgent([{ name: 'the agent', match: () => true, turns }])
}

/** A message's text as a script reads it: its text blocks and its tool results' text, a line each. */
export const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((b: any) => (b?.type === 'text' ? b.text : b?.type === 'tool_result' ? textOf(b.content) : '')).join('\n')
      : ''

/**
 * A model's summary, made up from the summary request itself: the task (the first user message), the latest
 * request, and the first line of every tool result it shows, so a test can see what the summary was written from.
 */
export function scriptedSummary(req: ParsedRequest): ScriptedReply {
  const results: string[] = []
  for (const m of req.messages)
    if (Array.isArray(m.content)) for (const b of m.content) if (b?.type === 'tool_result') results.push(textOf(b.content).split('\n')[0].slice(0, 200))
  const users = req.messages
    .filter((m) => m.role === 'user')
    .map((m) => textOf(m.content))
    .filter((t) => !t.startsWith('Context compaction:'))
  return reply.text(
    [
      `1. Task: ${req.firstUserText.slice(0, 500)}`,
      `2. Latest request: ${(users[users.length - 1] ?? '').slice(0, 500)}`,
      `5. Work done: ${results.length} tool results seen.`,
      ...results.map((r) => `- ${r}`)
    ].join('\n')
  )
}

// TEMPORARY stand-in for the real runtime + scripted model server in the e2e suite: a scripted
// fan-out that emits the same AgentEvents the runtime emits (main agent → N parallel subagents with
// streamed text, tool calls, one permission request, stop support, then a summary). The lead replaces
// the host factory (host-factory.ts) with the real runtime; the specs do not depend on this file.
import type { AgentEvent } from '../../src/shared/events'
import { agentEvents, type AgentEvents } from '../../src/shared/testing/event-builder'

export interface ScenarioIo {
  emit(e: AgentEvent): void
  /** Resolves after ms (scaled); rejects when the agent is stopped. */
  sleep(ms: number, agentId: string): Promise<void>
  waitForPermission(requestId: string, agentId: string): Promise<'allow' | 'allow_always' | 'deny'>
  isStopped(agentId: string): boolean
  clock: { now(): number; advance(ms: number): void }
}

interface SubagentPlan {
  type: string
  description: string
  color: string
  model: string
  maxTurns: number
  background?: boolean
  worktree?: boolean
  tools: Array<{ name: string; input: Record<string, unknown>; output: string; ms: number; permission?: boolean }>
  text: string[]
  result: string
}

const PLANS: SubagentPlan[] = [
  {
    type: 'Explore',
    description: 'Map the parser and its callers',
    color: 'blue',
    model: 'haiku',
    maxTurns: 20,
    tools: [
      { name: 'Glob', input: { pattern: 'src/**/*.ts' }, output: 'src/parser.ts\nsrc/lexer.ts\nsrc/ast.ts\nsrc/cli.ts', ms: 300 },
      { name: 'Grep', input: { pattern: 'parse\\(', path: 'src' }, output: 'src/cli.ts:12: const ast = parse(source)\nsrc/index.ts:4: export { parse }', ms: 450 },
      { name: 'Read', input: { file_path: 'src/parser.ts' }, output: 'export function parse(src: string) {\n  const tokens = lex(src)\n  ...\n}', ms: 250 }
    ],
    text: ['I’ll start by listing the TypeScript sources, then look for every call to `parse(`.', 'The parser is a recursive-descent parser in `src/parser.ts`; two call sites use it: the CLI and the public index.'],
    result: '`parse()` lives in src/parser.ts (recursive descent over lex()). Callers: src/cli.ts:12 and src/index.ts:4.'
  },
  {
    type: 'code-reviewer',
    description: 'Review error handling in the lexer',
    color: 'purple',
    model: 'sonnet',
    maxTurns: 30,
    tools: [
      { name: 'Read', input: { file_path: 'src/lexer.ts' }, output: 'export function lex(src: string): Token[] {\n  // ...\n}', ms: 400 },
      { name: 'Grep', input: { pattern: 'throw new', path: 'src/lexer.ts' }, output: 'src/lexer.ts:88: throw new Error("bad char")', ms: 350 },
      { name: 'Read', input: { file_path: 'src/errors.ts' }, output: 'export class SyntaxError extends Error {}', ms: 300 },
      { name: 'Grep', input: { pattern: 'catch', path: 'src' }, output: 'src/cli.ts:20: } catch (err) {', ms: 400 },
      { name: 'Read', input: { file_path: 'src/cli.ts' }, output: '...', ms: 300 },
      { name: 'Grep', input: { pattern: 'line', path: 'src/lexer.ts' }, output: 'src/lexer.ts:14: let line = 1', ms: 400 }
    ],
    text: [
      'Reading the lexer to see how it reports bad input.',
      '## Findings\n\n1. `lex()` throws a bare `Error("bad char")` without the **line and column**.\n2. The CLI catches it but prints only `err.message`.\n\n```ts\nthrow new SyntaxError(`Unexpected ${ch}`, { line, column })\n```',
      'Checking whether the line counter is tracked across newlines inside strings…'
    ],
    result: 'The lexer throws bare Errors without position; suggest a SyntaxError with line/column (see src/lexer.ts:88).'
  },
  {
    type: 'test-writer',
    description: 'Run the parser test suite',
    color: 'green',
    model: 'sonnet',
    maxTurns: 15,
    worktree: true,
    tools: [
      { name: 'Read', input: { file_path: 'test/parser.test.ts' }, output: "describe('parse', () => { ... })", ms: 300 },
      { name: 'Bash', input: { command: 'npm test -- test/parser.test.ts', description: 'Run the parser tests' }, output: '✓ parses numbers\n✓ parses calls\n✗ reports the line of a bad token\n\n2 passed, 1 failed', ms: 900, permission: true }
    ],
    text: ['Let me look at the existing parser tests, then run them.', 'One test fails: **reports the line of a bad token** — it matches the reviewer’s finding.'],
    result: 'Ran test/parser.test.ts: 2 passed, 1 failed (bad-token line is not reported).'
  },
  {
    type: 'docs-writer',
    description: 'Check the README against the API',
    color: 'orange',
    model: 'haiku',
    maxTurns: 10,
    tools: [
      { name: 'Read', input: { file_path: 'README.md' }, output: '# tiny-parser\n\n`parse(src)` returns an AST.', ms: 250 },
      { name: 'Grep', input: { pattern: 'export', path: 'src/index.ts' }, output: 'export { parse }\nexport { lex }', ms: 300 }
    ],
    text: ['Comparing the README with the exports in `src/index.ts`.', 'The README documents `parse` but not `lex`, which is exported too.'],
    result: 'README misses the exported lex(); otherwise accurate.'
  },
  {
    type: 'Plan',
    description: 'Plan the error-position refactor',
    color: 'cyan',
    model: 'sonnet',
    maxTurns: 12,
    tools: [{ name: 'Read', input: { file_path: 'src/ast.ts' }, output: 'export interface Node { kind: string }', ms: 400 }],
    text: ['Planning how to thread positions from tokens into AST nodes.', '1. Add `pos` to Token\n2. Copy it onto Node\n3. Use it in SyntaxError'],
    result: 'Three-step plan: positions on tokens, then nodes, then errors.'
  },
  {
    type: 'security-auditor',
    description: 'Look for unsafe eval or regex DoS',
    color: 'red',
    model: 'opus',
    maxTurns: 25,
    tools: [{ name: 'Grep', input: { pattern: 'eval|new Function|RegExp\\(', path: 'src' }, output: 'No matches', ms: 500 }],
    text: ['Searching for dynamic code execution and user-built regular expressions.', 'Nothing risky found: no `eval`, no `new Function`, no dynamic RegExp.'],
    result: 'No eval/new Function/dynamic RegExp in src.'
  }
]

const usageFor = (input: number, output: number, model: string) => {
  const [pin, pout] = model === 'opus' ? [15, 75] : model === 'haiku' ? [1, 5] : [3, 15]
  return { inputTokens: input, outputTokens: output, cacheReadTokens: Math.round(input * 0.6), cacheWriteTokens: 0, costUsd: (input * pin + output * pout) / 1e6 }
}

async function stream(io: ScenarioIo, ev: AgentEvents, text: string, perChunkMs = 45): Promise<void> {
  for (const chunk of text.match(/[\s\S]{1,6}/g) ?? []) {
    await io.sleep(perChunkMs, ev.agentId)
    io.emit(ev.text(chunk))
  }
}

async function runSubagent(io: ScenarioIo, sessionId: string, id: string, parentToolUseId: string, plan: SubagentPlan, cwd: string): Promise<{ status: 'completed' | 'stopped'; result: string }> {
  const ev = agentEvents(sessionId, id, io.clock, { agentId: 'main', toolUseId: parentToolUseId })
  io.emit(
    ev.start({
      agentType: plan.type,
      description: plan.description,
      prompt: `${plan.description}. Report what you find concisely.`,
      model: plan.model,
      color: plan.color,
      maxTurns: plan.maxTurns,
      depth: 1,
      cwd,
      tools: ['Read', 'Grep', 'Glob', 'Bash'],
      ...(plan.worktree ? { worktree: { path: `${cwd}/.fanout/worktrees/${id}`, branch: `fanout/${plan.type}-${id.slice(-4)}` } } : {})
    })
  )
  io.emit(ev.user(`${plan.description}. Report what you find concisely.`))
  let turn = 0
  let toolUses = 0
  const total = usageFor(0, 0, plan.model)
  try {
    for (let i = 0; i < plan.tools.length || i < plan.text.length; i++) {
      turn++
      io.emit(ev.turnStart(turn))
      const text = plan.text[i]
      if (text) await stream(io, ev, text)
      const tool = plan.tools[i]
      const content: any[] = text ? [{ type: 'text', text }] : []
      const toolId = `${id}-t${i}`
      if (tool) {
        io.emit(ev.toolStart(toolId, tool.name))
        io.emit(ev.toolInput(toolId, JSON.stringify(tool.input)))
        content.push({ type: 'tool_use', id: toolId, name: tool.name, input: tool.input })
      }
      const u = usageFor(1500 + 700 * i, 120 + (text?.length ?? 0) / 3, plan.model)
      total.inputTokens += u.inputTokens
      total.outputTokens += u.outputTokens
      total.cacheReadTokens += u.cacheReadTokens
      total.costUsd += u.costUsd
      io.emit(ev.usage(u, plan.model))
      io.emit(ev.assistant(content))
      if (tool) {
        if (tool.permission) {
          const requestId = `perm-${id}-${i}`
          io.emit(ev.permissionRequest(requestId, tool.name, tool.input, { toolUseId: toolId, reason: 'Bash runs commands in your project; this one is not on the allow list.' }))
          const decision = await io.waitForPermission(requestId, id)
          io.emit(ev.permissionResponse(requestId, decision))
          if (decision === 'deny') {
            io.emit(ev.toolEnd(toolId, tool.name, 'The user denied this command.', { isError: true, durationMs: 0 }))
            io.emit(ev.turnEnd(turn, 'tool_use'))
            continue
          }
        }
        io.emit(ev.toolRun(toolId, tool.name, tool.input))
        const started = io.clock.now()
        await io.sleep(tool.ms, id)
        io.emit(ev.toolEnd(toolId, tool.name, tool.output, { durationMs: io.clock.now() - started }))
        toolUses++
        io.emit(ev.user([{ type: 'tool_result', tool_use_id: toolId, content: tool.output }]))
      }
      io.emit(ev.turnEnd(turn, tool ? 'tool_use' : 'end_turn'))
    }
    turn++
    io.emit(ev.turnStart(turn))
    await stream(io, ev, plan.result, 25)
    io.emit(ev.assistant(plan.result))
    io.emit(ev.turnEnd(turn, 'end_turn'))
    io.emit(ev.end('completed', { result: plan.result, numTurns: turn, toolUses, usage: total }))
    return { status: 'completed', result: plan.result }
  } catch {
    io.emit(ev.end('stopped', { result: '', numTurns: turn, toolUses, usage: total }))
    return { status: 'stopped', result: '' }
  }
}

/** The whole fan-out: the main agent plans, delegates to `count` subagents in parallel, then summarizes. */
export async function runFanout(io: ScenarioIo, sessionId: string, prompt: string, cwd: string, count: number): Promise<void> {
  const main = agentEvents(sessionId, 'main', io.clock)
  io.emit(main.start({ agentType: 'general-purpose', description: prompt.split('\n')[0].slice(0, 80), prompt, model: 'sonnet', cwd, depth: 0, maxTurns: 100, tools: ['Agent', 'Read', 'Grep', 'Glob', 'Bash'] }))
  io.emit(main.turnStart(1))
  io.emit(main.user(prompt))
  const plans = Array.from({ length: Math.max(1, Math.min(count, 64)) }, (_, i) => PLANS[i % PLANS.length])
  try {
    const intro = `I’ll split this into ${plans.length} parallel tasks so each subagent can focus on one part:\n\n${plans.map((p) => `- **${p.type}** — ${p.description}`).join('\n')}`
    await stream(io, main, intro, 20)
    const content: any[] = [{ type: 'text', text: intro }]
    for (const [i, p] of plans.entries()) {
      const input = { description: p.description, subagent_type: p.type, prompt: `${p.description}. Report what you find concisely.` }
      io.emit(main.toolStart(`main-agent-${i}`, 'Agent'))
      io.emit(main.toolInput(`main-agent-${i}`, JSON.stringify(input)))
      content.push({ type: 'tool_use', id: `main-agent-${i}`, name: 'Agent', input })
    }
    io.emit(main.usage(usageFor(4200, 380, 'sonnet')))
    io.emit(main.assistant(content))
    const results = await Promise.all(
      plans.map(async (p, i) => {
        const toolId = `main-agent-${i}`
        io.emit(main.toolRun(toolId, 'Agent', content[i + 1].input))
        const started = io.clock.now()
        const r = await runSubagent(io, sessionId, `sub-${i + 1}-${sessionId.slice(-4)}`, toolId, p, cwd)
        io.emit(main.toolEnd(toolId, 'Agent', r.status === 'completed' ? r.result : 'The user stopped this agent.', { isError: r.status !== 'completed', durationMs: io.clock.now() - started }))
        return { plan: p, ...r }
      })
    )
    io.emit(main.turnEnd(1, 'tool_use'))
    io.emit(main.turnStart(2))
    const summary = `## Summary\n\n${results.map((r) => `- **${r.plan.type}**: ${r.status === 'completed' ? r.result : '_stopped before finishing_'}`).join('\n')}\n\nNext step: add line and column to lexer errors and cover it with the failing test.`
    await stream(io, main, summary, 15)
    io.emit(main.usage(usageFor(9800, 520, 'sonnet')))
    io.emit(main.assistant(summary))
    io.emit(main.turnEnd(2, 'end_turn'))
    io.emit(main.end('completed', { result: summary, numTurns: 2, toolUses: plans.length, usage: { ...usageFor(14000, 900, 'sonnet') } }))
  } catch {
    io.emit(main.end('stopped', { numTurns: 1 }))
  }
}

// The scripted model behind the e2e suite. The host, agents, tools, permissions, worktrees and files are
// all real; only the Anthropic API is replaced by the scripted Messages server. The main agent fans out
// to the number of agents its prompt names ("fan out to 12"; default 4), cycling through the project's
// agent types; each subagent streams text and uses real tools on the project's files.
import { block, reply, scriptByAgent, type ParsedRequest, type Respond, type ScriptedReply } from '../../src/main/runtime/model/scripted'
import { agentEditorScripts } from './agent-editor-script'
import { coordinatorScripts } from './coordinator-script'
import { reviewScripts } from './review-script'

interface Plan {
  type: string
  description: string
  /** Tool calls, one per turn, each preceded by streamed text. */
  steps: Array<{ text: string; tool: string; input: Record<string, unknown> }>
  report: string
  /** Characters per streamed chunk and delay between chunks: the reviewer is slow enough to stop. */
  pace?: { textChunk: number; chunkDelayMs: number }
}

export const PLANS: Plan[] = [
  {
    type: 'Explore',
    description: 'Map the parser and its callers',
    steps: [
      { text: 'I will list the TypeScript sources, then look for every call to `parse(`.', tool: 'Glob', input: { pattern: 'src/**/*.ts' } },
      { text: 'Now the call sites.', tool: 'Grep', input: { pattern: 'parse\\(', path: 'src', output_mode: 'content', '-n': true } }
    ],
    report: '`parse()` lives in src/parser.ts and runs over `lex()`; it is called from src/parser.ts only.'
  },
  {
    type: 'code-reviewer',
    description: 'Review error handling in the lexer',
    steps: [
      {
        text: 'Reading the lexer to see how it reports bad input, line by line, before I judge the error handling.',
        tool: 'Read',
        input: { file_path: 'src/lexer.ts' }
      },
      {
        text: '## Findings so far\n\n1. `lex()` never reports a **line and column**.\n2. Splitting on whitespace loses positions entirely.\n\nChecking the parser for the same problem, slowly and carefully.',
        tool: 'Read',
        input: { file_path: 'src/parser.ts' }
      },
      { text: 'Looking for any error class in the sources.', tool: 'Grep', input: { pattern: 'Error', path: 'src' } }
    ],
    report: 'The lexer drops positions; errors cannot say where they happened.',
    pace: { textChunk: 3, chunkDelayMs: 60 }
  },
  {
    type: 'test-writer',
    description: 'Run the parser test suite',
    steps: [
      { text: 'Let me look at the existing parser tests, then run them.', tool: 'Read', input: { file_path: 'test/parser.test.ts' } },
      { text: 'Running the suite.', tool: 'Bash', input: { command: 'npm test', description: 'Run the parser tests' } }
    ],
    report: 'Ran the parser tests: 2 passed, 1 failed (the bad-token line is not reported).'
  },
  {
    type: 'docs-writer',
    description: 'Check the README against the API',
    steps: [{ text: 'Comparing the README with what the sources export.', tool: 'Read', input: { file_path: 'README.md' } }],
    report: 'The README documents `parse` but not the exported `lex`.'
  }
]

const PACE = { textChunk: 6, chunkDelayMs: 25 }

// Wide fan-outs (more than four agents) are paced slower, so a screenshot catches them all running. A prompt
// that says "the model pauses" makes every subagent's second call wait a few seconds before its reply starts
// (a slow model: the request is out, nothing streams).
const tagOf = (i: number, slow: boolean, pause: boolean) => `[e2e agent ${i}${slow ? ' slow' : ''}${pause ? ' pause' : ''}]`
const TAG = /\[e2e agent (\d+)( slow)?( pause)?\]/
const PAUSE_MS = 6000

const planOf = (i: number) => PLANS[i % PLANS.length]

function fanOutCount(req: ParsedRequest): number {
  const m = /fan out to (\d+)/i.exec(req.firstUserText)
  return m ? Math.min(64, Number(m[1])) : 4
}

/** One turn of whichever agent asks: its plan comes from the tag in its task. */
function childTurn(req: ParsedRequest, speed: number): ScriptedReply {
  const [, index, slow, pause] = TAG.exec(req.firstUserText)!
  const plan = PLANS[Number(index) % PLANS.length]
  const pace = plan.pace ?? PACE
  const shape = {
    textChunk: pace.textChunk,
    chunkDelayMs: Math.round(pace.chunkDelayMs * speed * (slow ? 6 : 1)),
    ...(pause && req.turn === 1 ? { delayMs: PAUSE_MS } : {})
  }
  const step = plan.steps[req.turn]
  return step ? reply.with(shape, block.text(step.text), block.toolUse(step.tool, step.input)) : reply.with(shape, block.text(plan.report))
}

/**
 * Holds each subagent's first reply until every agent type of the fan-out has asked for one, so the agents
 * really run side by side however long worktree creation or a loaded machine delays one of them. By type, not
 * by agent: siblings of one type share their prompt's prefix, and all but the first wait for its response to
 * begin before they ask (cache-sharing.ts), which a line that held that response for them would never let happen.
 *
 * And holds each subagent's report, after its first words, until every agent of the fan-out has asked for its first reply: in a wide
 * fan-out the quickest (a docs-writer) can be done before a loaded machine has started the last of the others
 * (64 agents, 16 of them in new worktrees), and a finished agent leaves the overview's grid, so "all 64 tiles at
 * once" would never be true. Holding a report never holds a sibling's first request, so nothing waits on itself.
 */
function startingLine() {
  let expected = 0
  let agents = 0
  const arrived = new Set<string>()
  const started = new Set<number>()
  const waiting: Array<() => void> = []
  const finishing: Array<() => void> = []
  // Neither wait is forever: agents that can never all start (queued behind a lower limit, stopped first) still end.
  const until = (waits: Array<() => void>, ms: number) => Promise.race([new Promise<void>((go) => waits.push(go)), new Promise((r) => setTimeout(r, ms))])
  return {
    expect(types: number, n: number) {
      expected = types
      agents = n
      arrived.clear()
      started.clear()
      // A new fan-out: the one before (if any still runs) no longer has a line to wait for.
      for (const go of finishing.splice(0)) go()
    },
    async arrive(tag: string, index: number): Promise<void> {
      started.add(index)
      if (started.size >= agents) for (const go of finishing.splice(0)) go()
      arrived.add(tag)
      if (arrived.size >= expected) for (const go of waiting.splice(0)) go()
      else await until(waiting, 15_000)
    },
    async finish(): Promise<void> {
      if (started.size < agents) await until(finishing, 60_000)
    }
  }
}

/**
 * `modelPause`: a test that looks at "waiting for the model" in several places holds the paused agents'
 * second call until it has (a fixed pause can end before a loaded machine has drawn them all).
 * `reportsHeld`: every subagent's report stops after its first words until it settles, so a test that needs
 * them all still working at a moment of its choosing (a copy of the data mid-run) is not raced by the quickest
 * finishing first.
 */
export function e2eScript(opts: { speed: number; modelPause?: Promise<void>; reportsHeld?: Promise<void> }): Respond {
  const line = startingLine()
  const child = {
    name: 'subagent',
    match: TAG,
    turns: Array.from({ length: 8 }, (_, turn) => async (req: ParsedRequest) => {
      const index = Number(TAG.exec(req.firstUserText)![1])
      if (turn === 0) await line.arrive(planOf(index).type, index)
      if (turn === 1 && opts.modelPause && TAG.exec(req.firstUserText)![3]) await opts.modelPause
      if (turn !== planOf(index).steps.length) return childTurn(req, opts.speed)
      // A held report has begun: its first words are on the tile, so the agent reads as writing, not as
      // "waiting for the model" (which a test counting agents under way would never see all of at once).
      // Three deltas, not one: a word cut at a delta's end is held back until the rest of it comes (a key
      // could be cut there, redact-events.ts), and every report has a whole word in its first three.
      return { ...childTurn(req, opts.speed), pause: { afterDeltas: 3, until: Promise.all([line.finish(), opts.reportsHeld]).then(() => {}) } }
    })
  }
  const main = {
    name: 'main',
    match: 'lead agent in Fanout',
    turns: [
      (req: ParsedRequest) => {
        line.expect(new Set(Array.from({ length: fanOutCount(req) }, (_, i) => planOf(i).type)).size, fanOutCount(req))
        const pause = /the model pauses/i.test(req.firstUserText)
        return reply.with(
          // The Agent calls' JSON arrives in large pieces, so a 32-way fan-out starts in a second.
          { ...PACE, jsonChunk: 400 },
          block.text('I will split this across parallel agents.'),
          ...Array.from({ length: fanOutCount(req) }, (_, i) => {
            const plan = PLANS[i % PLANS.length]
            const slow = fanOutCount(req) > 4
            return block.toolUse('Agent', {
              description: plan.description,
              subagent_type: plan.type,
              prompt: `${tagOf(i, slow, pause)} ${plan.description}. Report what you find in one or two sentences.`
            })
          })
        )
      },
      (req: ParsedRequest) => {
        const lines = req.toolResults.map((r) => {
          const first = r.content.split('\n')[0]
          return /was stopped/.test(first) ? `- ${first.replace(/^The (\S+) agent was stopped.*/, '**$1** was stopped before finishing.')}` : `- ${first}`
        })
        return reply.with(PACE, block.text(`## Summary\n\n${lines.join('\n')}`))
      }
    ],
    // Later turns: a follow-up, or reports of agents resumed after a crash.
    then: () => reply.with(PACE, block.text('Noted: every agent has reported.'))
  }
  // A follow-up to a long recorded session (bench/ui-big-session.ts, reopened in reopen.spec.ts): whatever
  // turn its main agent is on, it answers in one message.
  const longSession = {
    name: 'long recorded session',
    match: (req: ParsedRequest) => req.firstUserText.includes('read every module and check its tests'),
    turns: new Array<Respond>(100_000).fill(() => reply.with(PACE, block.text('Picking up where the long session left off: one more pass done.')))
  }
  return scriptByAgent([...coordinatorScripts(opts), ...agentEditorScripts(opts), ...reviewScripts(opts), longSession, child, main], {
    fallback: () => reply.text('Noted.')
  })
}

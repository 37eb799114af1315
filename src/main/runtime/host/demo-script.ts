// The demo: a scripted fan-out over the opened folder, so a person without an API key sees Fanout work
// in seconds. The "model" is the scripted server; the agents, tools, files and permission requests are
// real, and so are the numbers the agents report: they come from the tools' results. Every agent is told
// it is scripted, and the session is marked as a demo in the UI.
import { block, reply, scriptByAgent, type ParsedRequest, type Respond, type ScriptedReply } from '../model/scripted'

export const DEMO_PROMPT = 'Give me a tour of this folder: what is in it, how it is organised, and anything notable.'

interface Area {
  key: string
  description: string
  pattern: string
  /** What the agent looks for, as in "Looking for source files." */
  focus: string
  /** What it counts, singular and plural. */
  noun: [string, string]
  /** The files it would rather read, and what to call such a file (the source survey skips tests: the tests agent reads those). */
  prefer?: { test: (path: string) => boolean; note: string }
}

const TEST_FILE = /(^|[/._-])(tests?|specs?|__tests__)([/._-]|$)/i

const AREAS: Area[] = [
  {
    key: 'code',
    description: 'Survey the source code',
    pattern: '**/*.{ts,tsx,js,jsx,mjs,py,go,rs,java,c,cc,cpp,h,rb,php,swift,kt}',
    focus: 'source files',
    noun: ['source file', 'source files'],
    prefer: { test: (path) => !TEST_FILE.test(path), note: 'source file that is not a test' }
  },
  // Test files by the usual names: `**/*test*` also counted files such as agents/test-writer.md.
  {
    key: 'tests',
    description: 'Find the tests',
    pattern: '**/{*.test.*,*.spec.*,test_*.py,*_test.py,*_test.go}',
    focus: 'tests',
    noun: ['test file', 'test files']
  },
  {
    key: 'docs',
    description: 'Read the docs and config',
    pattern: '**/*.{md,json,yaml,yml,toml}',
    focus: 'documentation and configuration',
    noun: ['documentation or configuration file', 'documentation and configuration files']
  },
  // Counted with `ls | wc -l`, not Glob: Glob lists files at any depth (`*` matches every file, as ripgrep's and
  // Claude Code's Glob do), while this counts what is at the top level, folders included.
  { key: 'shape', description: 'Measure the folder', pattern: '', focus: 'the top level, its size and the tools installed', noun: ['entry', 'entries'] }
]

/**
 * Counts the folder's top-level entries, folders included, hidden ones aside: inside the Bash sandbox the
 * folder also shows the sandbox's own stand-ins for protected dotfiles (.bashrc, .gitconfig…), which are not
 * the person's. Read-only, so it asks no one.
 */
export const TOP_LEVEL_COUNT = 'ls | wc -l'

const tag = (key: string) => `[scripted demo: ${key}]`

/**
 * How fast the demo goes. In the app the parallel part takes ten seconds or so, to be watched: each
 * subagent's reply keeps it waiting on the "model" for a second or two (each agent its own time, so they do
 * not move in step) and then streams at reading pace. Tests run it at once.
 */
export interface DemoPace {
  /** The main agent's stream (its plan, the tour, answers to follow-ups): quick, it is read after. */
  main: { textChunk: number; chunkDelayMs: number }
  /** The subagents' streams, side by side: at reading pace. */
  child: { textChunk: number; chunkDelayMs: number }
  /** Extra wait before a subagent's reply starts, by its area's index and its turn. */
  childDelayMs(area: number, turn: number): number
}

export const WATCHABLE_PACE: DemoPace = {
  main: { textChunk: 5, chunkDelayMs: 18 },
  child: { textChunk: 3, chunkDelayMs: 40 },
  childDelayMs: (area, turn) => 900 + ((area * 7 + turn * 3) % 5) * 300
}
export const INSTANT_PACE: DemoPace = { main: { textChunk: 5, chunkDelayMs: 0 }, child: { textChunk: 5, chunkDelayMs: 0 }, childDelayMs: () => 0 }

const sayWith =
  (pace: DemoPace['main'], delayMs = 0) =>
  (text: string, extra: ScriptedReply | null = null): ScriptedReply => {
    const blocks = [block.text(text)]
    if (extra && extra.kind === 'message') blocks.push(...extra.content)
    return { kind: 'message', content: blocks, textChunk: pace.textChunk, chunkDelayMs: pace.chunkDelayMs, ...(delayMs ? { delayMs } : {}) }
  }

/** The number `wc -l` printed, or null when the command failed or printed something else. */
export function countFromWc(result: { content: string; isError?: boolean } | undefined): number | null {
  if (!result || result.isError) return null
  const m = /^\s*(\d+)\s*$/.exec(result.content)
  return m ? Number(m[1]) : null
}

/** `1 source file`, `1,204 source files`. */
export function count(n: number, [one, many]: [string, string]): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
}

/** Markdown inline code that holds any text: a fence longer than any run of backticks inside it. */
export function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  // Spaces keep a backtick at either end from joining the fence; Markdown drops one on each side.
  return longest ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`
}

/** The paths a Glob listed, and how many it found in all (it lists at most 100, and says so). */
export function globListing(result: string | undefined): { files: string[]; total: number } {
  if (!result) return { files: [], total: 0 }
  const files = result
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('No files') && !l.startsWith('(') && !l.startsWith('[') && !/^Found \d+/.test(l))
  const truncated = /showing \d+ of (\d+)/.exec(result)
  return { files, total: truncated ? Number(truncated[1]) : files.length }
}

function firstLines(readOutput: string, n: number): string {
  const text = readOutput
    .split('\n')
    .slice(0, n)
    .map((l) => l.replace(/^\s*\d+[\t\u2192]/, '').trim())
    .filter((l) => l)
    .join(' / ')
  return text.length > 160 ? `${text.slice(0, 159).trimEnd()}…` : text
}

/** The tool results and calls of the conversation so far, oldest first. */
const toolResults = (req: ParsedRequest) =>
  req.messages.flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_result') : [])) as Array<{
    content: unknown
  }>
const toolCalls = (req: ParsedRequest) =>
  req.messages.flatMap((m) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_use') : [])) as Array<{
    name: string
    input: any
  }>
const textOf = (content: unknown) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: any) => c.text ?? '').join('\n') : '')

function childTurns(area: Area, index: number, pace: DemoPace) {
  const say = (turn: number) => sayWith(pace.child, pace.childDelayMs(index, turn))
  if (area.key === 'shape')
    return [
      () => say(0)(`Looking at ${area.focus}.`, reply.toolUse('Bash', { command: TOP_LEVEL_COUNT, description: 'Count the top-level entries' })),
      (req: ParsedRequest) => {
        const n = countFromWc(req.toolResults[0])
        const counted = n === null ? 'I could not count the top-level entries.' : `${count(n, area.noun)} at the top level, hidden ones aside.`
        // `node --version` is not on the read-only list, so this asks for approval: the demo shows the permission queue.
        return say(1)(
          `${counted} Measuring the size on disk and checking the tools.`,
          reply.toolUse('Bash', { command: 'du -sh . && node --version', description: 'Folder size and Node version' })
        )
      },
      (req: ParsedRequest) => {
        const result = req.toolResults[0]
        const counted = toolResults(req)[0] as { content: unknown; is_error?: boolean } | undefined
        const n = countFromWc(counted && { content: textOf(counted.content), isError: counted.is_error })
        const entries = n === null ? 'the folder' : `the folder has ${count(n, area.noun)} at the top level (hidden ones aside) and`
        if (!result || result.isError)
          return say(2)(
            `**Report:** ${n === null ? 'I was not allowed to measure the folder, so its size is unknown.' : `${count(n, area.noun)} at the top level (hidden ones aside); I was not allowed to measure the folder, so its size is unknown.`}`
          )
        const [size, , node] = result.content.trim().split(/\s+/)
        return say(2)(`**Report:** ${entries} takes ${size ?? 'an unknown amount'} on disk; Node ${node ?? '(not found)'} is installed.`)
      }
    ]
  return [
    () => say(0)(`Looking for ${area.focus}.`, reply.toolUse('Glob', { pattern: area.pattern })),
    (req: ParsedRequest) => {
      const { files, total } = globListing(req.toolResults[0]?.content)
      if (!total) return say(1)(`No ${area.focus} here.\n\n**Report:** this folder has no ${area.noun[1]}.`)
      const preferred = area.prefer ? files.find(area.prefer.test) : undefined
      const file = preferred ?? files[0]
      const which = preferred && area.prefer ? area.prefer.note : 'one'
      return say(1)(`Found ${count(total, area.noun)}. Reading the most recently changed ${which}.`, reply.toolUse('Read', { file_path: file, limit: 40 }))
    },
    (req: ParsedRequest) => {
      const result = req.toolResults[0]
      const { total } = globListing(textOf(toolResults(req)[0]?.content))
      const read = toolCalls(req).find((c) => c.name === 'Read')?.input?.file_path
      const which = area.prefer && read && area.prefer.test(read) ? ` ${area.prefer.note}` : ''
      const newest = typeof read === 'string' ? `The newest${which}, ${inlineCode(read)},` : 'The newest'
      // Read says a file is empty in a sentence of its own, which is not the file's opening.
      const lines =
        result && !result.isError && !/ exists but is empty /.test(result.content) ? firstLines(result.content, 3) : result && !result.isError ? '' : null
      const opening = lines === null ? 'could not be read' : lines ? `starts with ${inlineCode(lines)}` : 'is empty'
      return say(2)(`**Report:** ${count(total, area.noun)}. ${newest} ${opening}.`)
    }
  ]
}

/** The first line of what the person asked, or null when the turn is a report or a note rather than a question. */
function question(req: ParsedRequest): string | null {
  // A message sent to an agent comes wrapped in <agent-message>; reminders and reports are not questions.
  const text = req.lastUserText
    .replace(/<(system-reminder|task-notification)>[\s\S]*?<\/\1>/g, '')
    .replace(/<agent-message[^>]*>([\s\S]*?)<\/agent-message>/g, '$1')
  const line =
    text
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? ''
  if (!line || line.startsWith('<')) return null
  return line.length > 120 ? `${line.slice(0, 119)}…` : line
}

/** Whether a key is stored, asked when the demo says what to do next (one may have been added meanwhile). */
export type KeyStored = () => Promise<boolean>

/** Any turn after the tour: a follow-up prompt, or a note after a restart. The demo cannot do real work. */
async function afterTheTour(req: ParsedRequest, keyStored: KeyStored, say: ReturnType<typeof sayWith>): Promise<ScriptedReply> {
  const asked = question(req)
  const next = (await keyStored())
    ? 'To run real agents on this folder, start a new session.'
    : 'To run real agents on this folder, add an Anthropic API key in **Settings**, then start a new session.'
  return say(
    `${asked ? `You asked: “${asked}”. ` : ''}This session is a **scripted demo**: its answers were written in advance, so it cannot act on new prompts. ${next}`
  )
}

/**
 * `keyStored`: without it, the demo assumes there is no key (it is what people without one run). `pace`: the
 * app's is WATCHABLE_PACE; the default runs at once (tests).
 */
export function demoScript(opts: { keyStored?: KeyStored; pace?: DemoPace } = {}): Respond {
  const keyStored = opts.keyStored ?? (async () => false)
  const pace = opts.pace ?? INSTANT_PACE
  const say = sayWith(pace.main)
  const after = (req: ParsedRequest) => afterTheTour(req, keyStored, say)
  // A message to a subagent after its report gets the same honest answer as a follow-up to the main agent.
  const children = AREAS.map((area, i) => ({ name: area.key, match: tag(area.key), turns: childTurns(area, i, pace), then: after }))
  const main = {
    name: 'main',
    match: DEMO_PROMPT,
    turns: [
      () =>
        reply.with(
          pace.main,
          block.text(
            'This is a **scripted demo**: no model is called, but the agents, tools and files are real. I will split the tour across four agents that work in parallel.'
          ),
          ...AREAS.map((a) =>
            block.toolUse('Agent', {
              description: a.description,
              subagent_type: a.key === 'shape' ? 'general-purpose' : 'Explore',
              prompt: `${tag(a.key)} Look at ${a.focus} in this folder and report what you find in two sentences.`
            })
          )
        ),
      async (req: ParsedRequest) => {
        const reports = req.toolResults.map(
          (r, i) => `- **${AREAS[i]?.description ?? 'Agent'}:** ${r.content.split('\n')[0].replace(/^\*\*Report:\*\*\s*/, '')}`
        )
        // Only someone without a key is sent to add one.
        const next = (await keyStored())
          ? 'Start a new session to run real agents on your own prompts.'
          : 'Add an API key in Settings to run real agents on your own prompts.'
        return say(`Here is the tour, from four agents that ran side by side:\n\n${reports.join('\n')}\n\n${next}`)
      }
    ],
    then: after
  }
  return scriptByAgent([...children, main], { fallback: after })
}

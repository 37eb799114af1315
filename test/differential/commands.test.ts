// Differential: slash commands typed in `-p`, under Claude Code and Fanout on the same fixtures. Command files
// (`.claude/commands`, `~/.claude/commands`, subfolders as `folder:name`) with their arguments, `!` blocks and
// `@file` mentions, frontmatter `model` and `allowed-tools`; skills typed as commands; the built-ins a headless
// run answers without the model (/cost, /context, /status, /help…); an unknown `/foo`; and an agent's
// `initialPrompt` under `--agent`. Each case compares what a user or the model would notice: whether the model
// was called, the command block and the prompt the model got (the project's path written <P>), the files
// attached, the request's model family, the printed result and exit status. Differences that remain are listed
// in docs/claude-code-differences.md (section "Slash commands").
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reply } from '../../src/main/runtime/model/scripted'
import { claudeCode, jsonLines } from './claude-code'
import { cleanupRuns, runSide, type Scenario, type SideResult } from './harness'

const cc = claudeCode()

interface Case {
  name: string
  scenario: Omit<Scenario, 'respond'>
  /** What to compare beyond the default observation (e.g. a file a `!` block would have made). */
  extra?: (r: SideResult) => unknown
  /** The printed result is compared by its shape (digits as N), not its numbers. */
  shape?: boolean
  /** `/context`: compared by its layout (headings and table header), the numbers being each side's own estimate. */
  contextShape?: boolean
  /** A documented difference (docs/claude-code-differences.md): what Fanout does instead, from Claude Code's observation. */
  differs?: { why: string; fanout: (claude: Observation) => Observation }
}

type Observation = ReturnType<typeof observe>

const json = (prompt: string, more: Partial<Case['scenario']> = {}): Case['scenario'] => ({ prompt, args: ['--output-format', 'json'], ...more })

const CASES: Case[] = [
  {
    name: '$ARGUMENTS is everything typed after the name',
    scenario: json('/hello world foo', { files: { '.claude/commands/hello.md': 'Hello $ARGUMENTS!' } })
  },
  {
    name: 'positional arguments count from 0; missing ones stay as written; \\$ is literal',
    scenario: json('/pos one two', { files: { '.claude/commands/pos.md': 'A=[$0] B=[$1] C=[$ARGUMENTS[1]] D=[$5] E=[$ARGUMENTS[7]] F=[\\$ARGUMENTS]' } })
  },
  { name: 'quotes group words', scenario: json('/q "a b" c', { files: { '.claude/commands/q.md': 'first=[$0] second=[$1] all=[$ARGUMENTS]' } }) },
  {
    name: 'arguments no placeholder took follow as ARGUMENTS:',
    scenario: json('/n some args', { files: { '.claude/commands/n.md': 'N BODY no placeholders' } })
  },
  { name: 'no arguments, no placeholder', scenario: json('/plain', { files: { '.claude/commands/plain.md': 'PLAIN BODY' } }) },
  { name: '$ARGUMENTS with nothing typed is empty', scenario: json('/empty', { files: { '.claude/commands/empty.md': 'E=[$ARGUMENTS] F=[$0]' } }) },
  {
    name: 'named arguments from the frontmatter',
    scenario: json('/named alpha beta', { files: { '.claude/commands/named.md': '---\narguments: [first, second]\n---\nfirst=$first second=$second' } })
  },
  {
    name: 'a subfolder namespaces the command (/frontend:component)',
    scenario: json('/frontend:component Button', {
      files: { '.claude/commands/frontend/component.md': '---\ndescription: Make a component\n---\nCOMPONENT $ARGUMENTS' }
    })
  },
  { name: 'two levels of subfolders', scenario: json('/a:b:deep x', { files: { '.claude/commands/a/b/deep.md': 'DEEP $ARGUMENTS' } }) },
  {
    name: "the user's own commands (~/.claude/commands)",
    scenario: json('/mine hi', { homeFiles: { '.claude/commands/mine.md': 'USER COMMAND $ARGUMENTS' } })
  },
  {
    name: "the user's command wins over the project's of the same name",
    scenario: json('/same', { files: { '.claude/commands/same.md': 'PROJECT SAME' }, homeFiles: { '.claude/commands/same.md': 'USER SAME' } })
  },
  {
    name: 'line ends are kept as written (CRLF), the frontmatter read',
    scenario: json('/crlf x', { files: { '.claude/commands/crlf.md': '---\r\ndescription: d\r\n---\r\nLINE1 $ARGUMENTS\r\nLINE2\r\n' } })
  },
  { name: 'a command file named like a built-in wins over it', scenario: json('/cost', { files: { '.claude/commands/cost.md': 'MY COST CMD' } }) },
  { name: 'names keep their case', scenario: json('/MyCmd hi', { files: { '.claude/commands/MyCmd.md': 'UPPER $ARGUMENTS' } }) },
  { name: 'a command name with a dot', scenario: json('/v1.2', { files: { '.claude/commands/v1.2.md': 'DOTTED' } }) },
  {
    name: 'a slash after spaces is text for the model',
    scenario: json('  /ld x', { files: { '.claude/commands/ld.md': 'LEAD $ARGUMENTS' } }),
    differs: { why: 'Fanout trims every -p prompt; Claude Code keeps the leading spaces of a text prompt', fanout: (o) => ({ ...o, prompt: '/ld x' }) }
  },
  { name: 'a trailing newline of the file is kept', scenario: json('/nl', { files: { '.claude/commands/nl.md': 'NL BODY\n\n' } }) },
  {
    name: 'a skill fills 0-based words too',
    scenario: json('/pick one two', { files: { '.claude/skills/pick/SKILL.md': '---\nname: pick\ndescription: p\n---\nfirst=$0 second=$1' } })
  },
  {
    name: '/context is answered without the model',
    scenario: { prompt: '/context' },
    contextShape: true,
    differs: {
      why: "Claude Code lists its bundled skills in a '### Skills' table; Fanout has no bundled skills",
      fanout: (o) => ({ ...o, printed: (o.printed as string[]).filter((l) => l !== '### Skills') })
    }
  },
  {
    name: 'a read-only ! block runs under a narrow allowed-tools',
    scenario: json('/st', { files: { '.claude/commands/st.md': '---\nallowed-tools: Bash(git status:*)\n---\nS: !`git status --short`' } })
  },
  {
    name: 'description and argument-hint do not reach the prompt',
    scenario: json('/described x', {
      files: { '.claude/commands/described.md': '---\ndescription: Does a thing\nargument-hint: <what>\n---\nDESCRIBED $ARGUMENTS' }
    })
  },
  {
    name: 'frontmatter model runs the prompt on that model',
    scenario: json('/fast', { files: { '.claude/commands/fast.md': '---\nmodel: haiku\n---\nFAST BODY' } })
  },
  {
    name: 'a !`cmd` block is replaced by its output before the prompt is sent',
    scenario: json('/bang', { files: { '.claude/commands/bang.md': 'Status: !`echo BANGOUT`\nDone' } })
  },
  { name: 'a fenced ```! block runs too', scenario: json('/fenced', { files: { '.claude/commands/fenced.md': 'Before\n```!\necho FENCED\n```\nAfter' } }) },
  {
    name: 'a ! block that needs approval is refused in -p: no model call, nothing made',
    scenario: json('/maker', { files: { '.claude/commands/maker.md': 'X: !`touch MADE && echo hi`\nDone' } }),
    extra: (r) => existsSync(join(r.project, 'MADE'))
  },
  {
    name: 'allowed-tools that do not cover the ! block do not let it run',
    scenario: json('/narrow', { files: { '.claude/commands/narrow.md': '---\nallowed-tools: Bash(echo:*)\n---\nX: !`touch MADE && echo hi`\nDone' } }),
    extra: (r) => existsSync(join(r.project, 'MADE'))
  },
  { name: 'a ! block that fails stops the command', scenario: json('/fails', { files: { '.claude/commands/fails.md': 'F: !`false`\nend' } }) },
  {
    name: 'typed arguments never become a ! block',
    scenario: json('/inj !`touch MADE` z', { files: { '.claude/commands/inj.md': 'A: $ARGUMENTS' } }),
    extra: (r) => existsSync(join(r.project, 'MADE'))
  },
  {
    name: "a ! block's output is filled in like the file's own text",
    scenario: json('/out ARG', { files: { '.claude/commands/out.md': "O: !`echo '$ARGUMENTS'`\nA: $ARGUMENTS" } })
  },
  {
    name: '@file in a command is attached as a Read',
    scenario: json('/at', { files: { '.claude/commands/at.md': 'Look at @notes.txt please', 'notes.txt': 'NOTES CONTENT' } })
  },
  {
    name: '@file outside the project is not attached in -p',
    scenario: json('/out-at', { files: { '.claude/commands/out-at.md': 'Look at @../outside.txt please' }, outerFiles: { 'outside.txt': 'OUTSIDE SECRET' } }),
    differs: {
      why: "Claude Code attaches a file outside the project that a command names; Fanout reads it as the Read tool would, and in -p a read outside the working directories is refused (a repository's command file must not send ~/.ssh/id_rsa to the model)",
      fanout: (o) => ({ ...o, attached: [] })
    }
  },
  {
    name: 'a skill typed as a command',
    scenario: json('/greet bob', { files: { '.claude/skills/greet/SKILL.md': '---\nname: greet\ndescription: Greets\n---\nGREET BODY $ARGUMENTS' } })
  },
  {
    name: 'a skill without placeholders gets ARGUMENTS:',
    scenario: json('/tidy now', { files: { '.claude/skills/tidy/SKILL.md': '---\nname: tidy\ndescription: Tidies\n---\nTIDY BODY' } })
  },
  {
    name: 'a skill the model may not call can still be typed',
    scenario: json('/manual', {
      files: { '.claude/skills/manual/SKILL.md': '---\nname: manual\ndescription: M\ndisable-model-invocation: true\n---\nMANUAL BODY' }
    })
  },
  { name: 'an unknown /foo goes to the model as typed', scenario: json('/foo bar') },
  { name: '/cost is answered without the model (json)', scenario: json('/cost'), shape: true },
  { name: '/cost is answered without the model (text)', scenario: { prompt: '/cost' }, shape: true },
  { name: '/status is not available headless', scenario: { prompt: '/status' } },
  { name: '/help is not available headless (json)', scenario: json('/help') },
  { name: '/release-notes is not available headless', scenario: { prompt: '/release-notes' } },
  { name: '/clear answers nothing', scenario: json('/clear') },
  {
    name: '/agents says where agent files go (json)',
    scenario: json('/agents', { files: { '.claude/agents/helper.md': '---\nname: helper\ndescription: helps\n---\nbody' } })
  },
  { name: '/agents in text', scenario: { prompt: '/agents' } },
  {
    name: '/mcp counts the servers (one fails to start)',
    scenario: json('/mcp', { files: { '.mcp.json': JSON.stringify({ mcpServers: { broken: { command: 'node', args: ['-e', 'process.exit(1)'] } } }) } })
  },
  {
    name: '/mcp with no server configured',
    scenario: { prompt: '/mcp' },
    differs: {
      why: 'Claude Code points to `claude mcp add`, which Fanout does not have; Fanout names the files it reads servers from',
      fanout: (o) => ({ ...o, printed: 'No MCP servers are configured. Add one in .mcp.json or the mcpServers of your settings.' })
    }
  },
  { name: '/cost in stream-json', scenario: { prompt: '/cost', args: ['--output-format', 'stream-json', '--verbose'] }, shape: true },
  {
    name: "--agent sends the agent's initialPrompt before the prompt",
    scenario: json('USER PROMPT', {
      files: { '.claude/agents/starter.md': '---\nname: starter\ndescription: s\ninitialPrompt: INITIAL PROMPT TEXT\n---\nYou are starter.' },
      args: ['--agent', 'starter', '--output-format', 'json']
    })
  }
]

/** The text blocks of the user messages before the first reply (Claude Code sends an attachment as a message of its own). */
function userTexts(r: SideResult): string[] {
  const req = r.requests[0]
  if (!req) return []
  const out: string[] = []
  for (const m of req.messages as Array<{ role: string; content: unknown }>) {
    if (m.role === 'assistant') break
    if (m.role !== 'user') continue
    if (typeof m.content === 'string') out.push(m.content)
    else if (Array.isArray(m.content)) for (const b of m.content as any[]) if (b?.type === 'text') out.push(b.text)
  }
  return out
}

const family = (model: string | undefined): string | null => (model ? (/(opus|sonnet|haiku|fable)/.exec(model)?.[1] ?? model) : null)

/** The stdout's result text (json: its `result`; stream-json: the kinds of lines and the result; text: as printed). */
function printed(r: SideResult, shape: boolean, layout = false): unknown {
  const norm = (t: string) => (shape ? t.replace(/\d+(\.\d+)?/g, 'N') : t)
  if (layout)
    return r.stdout
      .split('\n')
      .filter((l) => /^(#|\*\*Model|\| Category)/.test(l))
      .map((l) => l.replace(/:\*\*.*/, ':**'))
  const trimmed = r.stdout.trim()
  if (trimmed.startsWith('{"type":"system"')) {
    const lines = jsonLines(trimmed, `${r.side} stdout`)
    return { kinds: lines.map((l) => (l.subtype && l.type === 'system' ? `${l.type}/${l.subtype}` : l.type)), result: norm(lines.at(-1)?.result ?? '') }
  }
  if (trimmed.startsWith('{')) {
    const res = JSON.parse(trimmed)
    return { result: norm(res.result ?? ''), local_command: res.local_command ?? null, num_turns: res.num_turns, is_error: res.is_error }
  }
  return norm(trimmed)
}

function observe(r: SideResult, c: Case) {
  const texts = userTexts(r)
  const p = (t: string | undefined) => t?.replaceAll(r.project, '<P>').replaceAll(r.home, '<HOME>') ?? null
  const at = texts.findIndex((t) => t.startsWith('<command-message>'))
  const plain = texts.filter((t) => !t.startsWith('<system-reminder>'))
  const attached = texts
    .filter((t) => t.includes('Result of calling the Read tool'))
    .map((t) =>
      t
        .replace(/^<system-reminder>\nResult of calling the Read tool:\n/, '')
        .replace(/\n<\/system-reminder>$/, '')
        .split('\n')
        .map((l) => l.replace(/^\s*\d+\t/, ''))
        .join('\n')
    )
  const madeCall = r.requests.length > 0
  // A result that a model wrote is the scripted reply on both sides; what a local answer printed is compared.
  return {
    modelCalled: madeCall,
    commandBlock: at >= 0 ? p(texts[at]) : null,
    prompt: at >= 0 ? p(texts[at + 1]) : p(plain.at(-1)),
    attached,
    model: family(r.requests[0]?.model as string | undefined),
    printed: madeCall ? null : printed(r, c.shape === true, c.contextShape === true),
    code: r.code,
    ...(c.extra ? { extra: c.extra(r) } : {})
  }
}

/** The run's permission-check reason is each tool's own wording: compared up to the pattern. */
function comparable(o: ReturnType<typeof observe>): ReturnType<typeof observe> {
  const cut = (t: unknown) => (typeof t === 'string' ? t.replace(/(Shell command permission check failed for pattern "[^"]*"):[\s\S]*/, '$1: <reason>') : t)
  const printedCut =
    o.printed && typeof o.printed === 'object' && !Array.isArray(o.printed)
      ? { ...(o.printed as Record<string, unknown>), result: cut((o.printed as any).result) }
      : cut(o.printed)
  return { ...o, printed: printedCut }
}

const results = new Map<string, { claude: SideResult; fanout: SideResult }>()

/** Runs `work` on each item, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (t: T) => Promise<void>): Promise<void> {
  const queue = [...items]
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let t = queue.shift(); t !== undefined; t = queue.shift()) await work(t)
    })
  )
}

describe.skipIf(!cc.path)(`slash commands under Claude Code and Fanout${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  beforeAll(async () => {
    await pool(CASES, 3, async (c) => {
      const scenario: Scenario = { ...c.scenario, respond: () => reply.text('MODEL REPLY') }
      const [claude, fanout] = await Promise.all([runSide('claude-code', scenario), runSide('fanout', scenario)])
      results.set(c.name, { claude, fanout })
    })
  }, 900_000)
  afterAll(cleanupRuns)

  it(`has at least 25 cases`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(25)
  })

  for (const c of CASES)
    it(c.name, () => {
      const got = results.get(c.name)
      if (!got) throw new Error(`case "${c.name}" did not run`)
      const [observed, fanout] = [comparable(observe(got.claude, c)), comparable(observe(got.fanout, c))]
      const claude = c.differs ? c.differs.fanout(observed) : observed
      expect(
        fanout,
        `Claude Code:\n${got.claude.stdout.slice(0, 2000)}\n\nFanout:\n${got.fanout.stdout.slice(0, 2000)}\n${got.fanout.stderr.slice(0, 2000)}`
      ).toEqual(claude)
    })
})

// Differential: which instruction files reach the model, and when. At the start: the user's CLAUDE.md and
// rules, a CLAUDE.md in the folder above the repository, the project's CLAUDE.md and its rules without
// `paths:`. Later, after the tool result that earned them: a subfolder's CLAUDE.md and rules the first time
// the agent reads a file there (once per folder, per agent; Grep does not count, a Read that fails does), and a rule whose `paths:`
// globs name the file read. Where each side puts the start-up files differs on purpose (Claude Code: a
// reminder in the first user message; Fanout: the system prompt), so "at the start" means either.
import { describe, expect, it } from 'vitest'
import { reply, type ParsedRequest, type RecordedRequest } from '../../src/main/runtime/model/scripted'
import { claudeCode } from './claude-code'
import { conversation, runBothSides, type Scenario, type SideResult } from './harness'

const cc = claudeCode()

const MARKERS = [
  'USER MEMORY',
  'USER RULE',
  'USER TS RULE',
  'OUTER MEMORY',
  'PROJECT MEMORY',
  'GENERAL RULE',
  'NESTED DIR RULE',
  'TS RULE',
  'DOCS RULE',
  'UNMATCHED RULE',
  'PKG MEMORY',
  'PKG RULE',
  'DEEP MEMORY',
  'OTHER MEMORY',
  'GONE MEMORY',
  'SUB1 MEMORY'
]
const MARKER_RE = new RegExp(`\\b(${[...MARKERS].sort((a, b) => b.length - a.length).join('|')})\\b`, 'g')
const markers = (text: string): string[] => [...text.matchAll(MARKER_RE)].map((m) => m[1])

/** The text blocks of a message's content (a string is one). */
const texts = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: any) => (b?.type === 'text' ? b.text : '')).join('\n') : ''

/** The agent's working directory, as its own environment block names it. */
function workdir(req: ParsedRequest): string {
  const text = `${req.system}\n${conversation(req)}`
  const m = /[Ww]orking directory: ([^\s"\\]+)/.exec(text)
  if (!m) throw new Error('no working directory in the request')
  return m[1]
}

const MAIN_STEPS: Array<[string, (cwd: string) => Record<string, unknown>]> = [
  ['Read', (cwd) => ({ file_path: `${cwd}/pkg/file.txt` })],
  ['Read', (cwd) => ({ file_path: `${cwd}/pkg/file.txt` })],
  ['Read', (cwd) => ({ file_path: `${cwd}/src/a.ts` })],
  ['Read', (cwd) => ({ file_path: `${cwd}/docs/readme.md` })],
  ['Grep', (cwd) => ({ pattern: 'x', path: `${cwd}/other` })],
  ['Read', (cwd) => ({ file_path: `${cwd}/pkg/deep/f.txt` })],
  ['Read', (cwd) => ({ file_path: `${cwd}/gone/missing.txt` })],
  ['Agent', () => ({ description: 'sub', prompt: 'SUB TASK', subagent_type: 'general-purpose' })]
]
const SUB_STEPS: Array<[string, (cwd: string) => Record<string, unknown>]> = [
  ['Read', (cwd) => ({ file_path: `${cwd}/sub1/s.txt` })],
  ['Read', (cwd) => ({ file_path: `${cwd}/pkg/file.txt` })]
]

const SCENARIO: Scenario = {
  homeFiles: {
    '.claude/CLAUDE.md': 'USER MEMORY',
    '.claude/rules/user-rule.md': 'USER RULE',
    '.claude/rules/user-ts.md': '---\npaths: "**/*.ts"\n---\nUSER TS RULE'
  },
  outerFiles: { 'CLAUDE.md': 'OUTER MEMORY' },
  files: {
    'CLAUDE.md': 'PROJECT MEMORY',
    '.claude/rules/general.md': 'GENERAL RULE',
    '.claude/rules/sub/nested.md': 'NESTED DIR RULE',
    '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nTS RULE',
    '.claude/rules/docs.md': '---\npaths: docs/*.md, "*.json"\n---\nDOCS RULE',
    '.claude/rules/unmatched.md': '---\npaths: "lib/**/*.{js,mjs}"\n---\nUNMATCHED RULE',
    'pkg/CLAUDE.md': 'PKG MEMORY',
    'pkg/.claude/rules/pkgrule.md': 'PKG RULE',
    'pkg/file.txt': 'hello',
    'pkg/deep/CLAUDE.md': 'DEEP MEMORY',
    'pkg/deep/f.txt': 'deep',
    'src/a.ts': 'export {}',
    'docs/readme.md': 'doc',
    'other/CLAUDE.md': 'OTHER MEMORY',
    'other/x.txt': 'x',
    'gone/CLAUDE.md': 'GONE MEMORY',
    'sub1/CLAUDE.md': 'SUB1 MEMORY',
    'sub1/s.txt': 's'
  },
  respond(req) {
    const text = conversation(req)
    const steps = text.includes('SUB TASK') && !text.includes('MAIN TASK') ? SUB_STEPS : text.includes('MAIN TASK') ? MAIN_STEPS : []
    const step = steps[req.turn]
    return step ? reply.toolUse(step[0], step[1](workdir(req))) : reply.text('done')
  },
  prompt: 'MAIN TASK',
  args: ['--model', 'opus', '--output-format', 'json']
}

const isMain = (q: RecordedRequest) => conversation(q).includes('MAIN TASK')
const isSub = (q: RecordedRequest) => !isMain(q) && conversation(q).includes('SUB TASK')

/** What an agent has from the start (system prompt and first user message), and what each of its tool calls brought after its result. */
function instructions(r: SideResult, which: (q: RecordedRequest) => boolean): { start: string[]; perCall: string[][] } {
  const last = r.requests.filter(which).at(-1)!
  const messages = last.messages as Array<{ role: string; content: unknown }>
  const start = markers(`${last.system}\n${texts(messages[0].content)}`)
  const perCall: string[][] = []
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || !Array.isArray(m.content) || !m.content.some((b: any) => b.type === 'tool_use')) return
    const next = messages.slice(i + 1).find((n) => n.role === 'user')
    // Only what follows the tool results: the file a Read returns is not an instruction.
    perCall.push(markers(texts(next?.content)))
  })
  return { start, perCall }
}

let claude: SideResult
let fanout: SideResult

describe.skipIf(!cc.path)(`instruction files under Claude Code and Fanout${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  runBothSides(SCENARIO, (c, f) => {
    claude = c
    fanout = f
  })

  it('the same files are there from the start, in the same order', () => {
    const [c, f] = [instructions(claude, isMain), instructions(fanout, isMain)]
    expect(c.start).toEqual(['USER MEMORY', 'USER RULE', 'OUTER MEMORY', 'PROJECT MEMORY', 'GENERAL RULE', 'NESTED DIR RULE'])
    expect(f.start).toEqual(c.start)
  })

  it("the main agent is given a subfolder's files and path rules after the same tool calls", () => {
    const [c, f] = [instructions(claude, isMain), instructions(fanout, isMain)]
    expect(c.perCall).toEqual([['PKG MEMORY', 'PKG RULE'], [], ['USER TS RULE', 'TS RULE'], ['DOCS RULE'], [], ['DEEP MEMORY'], ['GONE MEMORY'], []])
    expect(f.perCall).toEqual(c.perCall)
  })

  it('a subagent is given them on its own, once per folder', () => {
    const [c, f] = [instructions(claude, isSub), instructions(fanout, isSub)]
    expect(c.perCall).toEqual([['SUB1 MEMORY'], ['PKG MEMORY', 'PKG RULE']])
    expect(f.start).toEqual(c.start)
    expect(f.perCall).toEqual(c.perCall)
  })
})

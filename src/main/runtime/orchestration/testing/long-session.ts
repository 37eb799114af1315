// A long working session for tests, the e2e suite and the benchmark: an agent reads a ledger of N parts, one
// file a turn, and answers with the sum of their values. The tool output adds up to several context windows,
// so the session only finishes if its context is managed. The scripted model behaves as a careful one does:
// with each call it notes its progress ("Running total after part 7: 312."), and it decides what to do next
// from what its request shows (its notes, the summary a compaction left, the tool results still in view),
// never from a turn counter, so a compaction that loses progress shows up as a part read twice or a wrong sum.
import type { ParsedRequest, Respond, ScriptedReply } from '../../model/scripted'
import { reply, scriptByAgent, textOf } from '../../model/scripted'

export interface Ledger {
  /** Files to write into the project (relative path → content). */
  files: Record<string, string>
  /** The answer: the sum of every part's value. */
  sum: number
  parts: number
}

export const partPath = (n: number): string => `ledger/part-${String(n).padStart(2, '0')}.txt`

/** `parts` files of about `charsPerPart` characters each; values are deterministic. */
export function makeLedger(parts: number, charsPerPart: number): Ledger {
  const files: Record<string, string> = {}
  let sum = 0
  for (let n = 1; n <= parts; n++) {
    const value = ((n * 37) % 89) + 11
    sum += value
    const head = `Ledger part ${n} of ${parts}\nvalue: ${value}\n`
    let body = ''
    for (let line = 0; body.length + head.length < charsPerPart; line++)
      body += `entry ${n}.${line}: ${'lorem ipsum dolor sit amet '.repeat(2)}${(n * 7919 + line * 104729) % 100000}\n`
    files[partPath(n)] = head + body
  }
  return { files, sum, parts }
}

export const LEDGER_TASK = (parts: number): string =>
  `Read ${partPath(1)} through ${partPath(parts)} with the Read tool, one file per turn and in order, and tell me the sum of their "value:" lines.`

const NOTE = /Running total after part (\d+): (\d+)\./g

/** What the request shows of the work: the last part accounted for and the total so far. */
export function ledgerProgress(req: Pick<ParsedRequest, 'messages'>): { part: number; total: number } {
  let part = 0
  let total = 0
  const results = new Map<number, number>()
  for (const m of req.messages) {
    const text = textOf(m.content)
    for (const note of text.matchAll(NOTE)) {
      if (Number(note[1]) >= part) {
        part = Number(note[1])
        total = Number(note[2])
      }
    }
    if (m.role === 'user' && Array.isArray(m.content))
      for (const b of m.content) {
        if (b?.type !== 'tool_result') continue
        // Plain, or numbered as a Read tool shows it (Fanout's `     2\tvalue`, Claude Code's `     2→value`).
        const r = /Ledger part (\d+) of \d+\s+(?:\d+\s*(?:→|\t)\s*)?value: (\d+)/.exec(textOf(b.content))
        if (r) results.set(Number(r[1]), Number(r[2]))
      }
  }
  // Results past the last note (the one just returned) are added in order; a gap means a result was lost.
  for (let n = part + 1; results.has(n); n++) {
    total += results.get(n) as number
    part = n
  }
  return { part, total }
}

/** One turn of the ledger reader: read the next part (noting progress), or answer. */
export function ledgerTurn(parts: number): (req: ParsedRequest) => ScriptedReply {
  return (req) => {
    const { part, total } = ledgerProgress(req)
    if (part >= parts) return reply.text(`I read all ${parts} parts. The sum of their values is ${total}.`)
    const note = part > 0 ? `Running total after part ${part}: ${total}.` : 'Starting with part 1.'
    return reply.toolUse('Read', { file_path: partPath(part + 1) }, { text: note })
  }
}

/** The ledger reader's summary: its progress in the words its notes use, so it carries on from there. */
export function ledgerSummary(req: ParsedRequest): ScriptedReply {
  const { part, total } = ledgerProgress(req)
  return reply.text(
    [
      `1. Task: ${req.firstUserText.includes('Ledger') ? 'read the ledger' : req.firstUserText.slice(0, 300)}`,
      `5. Work done: parts 1 to ${part} are read. Running total after part ${part}: ${total}.`,
      `6. Open work: read part ${part + 1} next.`
    ].join('\n')
  )
}

/** The subagent that reads the ledger when the main agent delegates it (write it to `.claude/agents/`). */
export const LEDGER_READER_FILE = {
  path: '.claude/agents/ledger-reader.md',
  content:
    '---\nname: ledger-reader\ndescription: Reads ledgers and adds them up\ntools: Read\n---\nYou are the ledger reader. Read what you are asked to, one file at a time, and report the total.'
}

/**
 * The scripted model for the ledger session. `via`: the main agent reads the ledger itself, or hands it to the
 * ledger-reader subagent (LEDGER_READER_FILE) and reports its answer.
 */
export function ledgerModel(parts: number, via: 'main' | 'subagent' = 'main'): Respond {
  const reader = { turns: [], then: ledgerTurn(parts), summarize: ledgerSummary }
  if (via === 'main') return scriptByAgent([{ name: 'main', match: 'lead agent in Fanout', ...reader }])
  return scriptByAgent([
    { name: 'reader', match: 'You are the ledger reader', ...reader },
    {
      name: 'main',
      match: 'lead agent in Fanout',
      turns: [reply.toolUse('Agent', { description: 'Sum the ledger', prompt: LEDGER_TASK(parts), subagent_type: 'ledger-reader' })],
      then: (req) => reply.text(`The subagent reports: ${req.toolResults[0]?.content.split('\n').find((l) => l.includes('sum')) ?? 'no answer'}`)
    }
  ])
}

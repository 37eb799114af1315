// Tokens billed for a long session with and without context management. The session (orchestration/testing/
// long-session.ts): the main agent reads a 60-part ledger, one part a turn, whose output adds up to three
// 200k-token context windows, and answers with the sum. Each configuration runs it against the scripted
// server, which counts tokens the way it reports usage; prompt caching is not simulated yet (#19), so every
// input token is billed at the full rate.
//  - "no management": nothing is compacted or cleared. It can only finish on a model with a far larger
//    window (the server allows 10M here); against a real 200k window it fails where the table says.
//  - "compaction": auto-compaction at Claude Code's threshold, old tool results kept.
//  - "compaction + clearing": the defaults: old tool results cleared past half the window, then compaction.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { AgentEvent } from '../src/shared/events'
import type { ContextSettings } from '../src/main/runtime/compaction/context-settings'
import { startScriptedModel } from '../src/main/runtime/model/scripted'
import { AgentSession } from '../src/main/runtime/orchestration'
import { LEDGER_TASK, ledgerModel, makeLedger } from '../src/main/runtime/orchestration/testing/long-session'

const PARTS = 60
const WINDOW = 200_000
// 3 × 200k tokens of tool output over 60 parts: about 10k tokens (40 KB) a part.
const CHARS_PER_PART = Math.ceil((3 * WINDOW * 4) / PARTS)

interface Figures {
  name: string
  ok: boolean
  answer: string
  requests: number
  input: number
  output: number
  cost: number
  peak: number
  compactions: number
  overLimitAt: number | null
  seconds: number
}

async function runOnce(name: string, context: Partial<ContextSettings>, serverWindow: number): Promise<Figures> {
  const root = mkdtempSync(join(tmpdir(), 'fanout-bench-long-'))
  const cwd = join(root, 'project')
  const ledger = makeLedger(PARTS, CHARS_PER_PART)
  for (const [rel, text] of Object.entries(ledger.files)) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true })
    writeFileSync(join(cwd, rel), text)
  }
  const model = await startScriptedModel({ respond: ledgerModel(PARTS), contextWindow: serverWindow, recordRequests: true })
  const session = await AgentSession.create({
    cwd,
    home: root,
    client: model.client,
    dataDir: join(root, 'data'),
    ripgrep: false,
    managedSettingsFile: null,
    permissionMode: 'bypassPermissions',
    context: { windows: { 'claude-sonnet-5-5': WINDOW }, ...context },
    onError: () => undefined
  })
  const events: AgentEvent[] = []
  session.subscribe((e) => events.push(e))
  const started = performance.now()
  const result = await session.run(LEDGER_TASK(PARTS), { maxTurns: 500 })
  await session.idle()
  const seconds = (performance.now() - started) / 1000
  await session.close()
  const requests = model.server.messageRequests()
  const usage = session.registry.totalUsage()
  const figures: Figures = {
    name,
    ok: result.result.includes(`is ${ledger.sum}.`),
    answer: result.status === 'completed' ? result.result : `${result.status}: ${result.error ?? ''}`,
    requests: requests.length,
    input: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
    output: usage.outputTokens,
    cost: usage.costUsd,
    peak: Math.max(...requests.map((r) => r.inputTokens)),
    compactions: events.filter((e) => e.type === 'compaction' && !e.error).length,
    overLimitAt: (() => {
      const i = requests.findIndex((r) => r.inputTokens > WINDOW)
      return i === -1 ? null : i + 1
    })(),
    seconds
  }
  await model.close()
  rmSync(root, { recursive: true, force: true })
  return figures
}

const n = (x: number) => x.toLocaleString('en-US')

export async function benchLongSession(): Promise<void> {
  console.log(
    `\nLong session: ${PARTS} turns, each reading ~${n(Math.round(CHARS_PER_PART / 4))} tokens of tool output (3× a ${n(WINDOW)}-token window); scripted model, no prompt cache`
  )
  const rows = [
    await runOnce('no management', { autoCompact: false, toolResultClearing: 'off' }, 10_000_000),
    await runOnce('compaction', { toolResultClearing: 'off' }, WINDOW),
    await runOnce('compaction + clearing (defaults)', {}, WINDOW)
  ]
  const head = ['', 'answer', 'requests', 'input billed', 'output', 'cost (sonnet)', 'peak request', 'compactions', 'time']
  const table = rows.map((r) => [
    r.name,
    r.ok ? 'right' : 'WRONG',
    n(r.requests),
    n(r.input),
    n(r.output),
    `$${r.cost.toFixed(2)}`,
    `${n(r.peak)}${r.overLimitAt ? ` (past ${n(WINDOW)} from request ${r.overLimitAt})` : ''}`,
    String(r.compactions),
    `${r.seconds.toFixed(1)} s`
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)))
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`
  console.log(line(head))
  for (const row of table) console.log(line(row))
  const [none, compaction, both] = rows
  console.log(
    `  billed input with compaction: ${((compaction.input / none.input) * 100).toFixed(0)}% of none; with compaction and clearing: ${((both.input / none.input) * 100).toFixed(0)}%`
  )
  for (const r of rows) if (!r.ok) console.log(`  ${r.name}: ${r.answer}`)
}

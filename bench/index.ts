// `npm run bench`: prints figures; never passes or fails on time. BENCH_ONLY=ui (or cost, engine, fan-out, cli, sandbox, search, long-session) runs one.
import { benchCliStart } from './cli-start'
import { serveCost } from './cost-server'
import { benchFanOut, serveFanOut } from './fan-out'
import { benchLongSession } from './long-session'
import { benchSandbox } from './sandbox'
import { benchSearch } from './search'
import { benchSearchEngine } from './search-engine'
import { benchUi } from './ui'
import { benchVsClaudeCode, type VsClaudeCode } from './vs-claude-code'

if (process.argv[2] === '--fan-out-server') {
  await serveFanOut(Number(process.argv[3]))
} else if (process.argv[2] === '--cost-server') {
  await serveCost()
} else {
  const root = process.cwd()
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim())
  const wanted = (name: string) => !only || only.includes(name)
  let vs: VsClaudeCode | null = null
  if (wanted('cost')) vs = await benchVsClaudeCode()
  if (wanted('engine')) await benchSearchEngine()
  if (wanted('fan-out')) await benchFanOut()
  if (wanted('cli')) await benchCliStart(root)
  if (wanted('sandbox')) await benchSandbox()
  if (wanted('long-session')) await benchLongSession()
  if (wanted('ui')) await benchUi(root)
  if (wanted('search')) await benchSearch()
  if (vs) closingNote(vs)
}

/** The figures the fan-out targets are judged by, quoted from the run above. */
function closingNote(vs: VsClaudeCode): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US')
  console.log('\nClosing note (fan-out medians, `fanout run` and `claude -p` as fresh processes, measured in this run):')
  if (!vs.ran16) {
    console.log('  The 16-way fan-out was not run (BENCH_CC_SIZES or BENCH_CC_SCENARIOS leaves it out).')
    return
  }
  if (vs.billed16.claudeCode === null || vs.overhead16.claudeCode === null) {
    console.log(
      `  Claude Code was not measured (${vs.skip ?? 'unknown reason'}); Fanout: billed input ${n(vs.billed16.fanout)}, overhead ${vs.overhead16.fanout.toFixed(0)} ms.`
    )
    return
  }
  const cost = vs.billed16.fanout / vs.billed16.claudeCode
  const over = vs.overhead16.fanout / vs.overhead16.claudeCode
  console.log(
    `  billed input: Fanout ${n(vs.billed16.fanout)} vs Claude Code ${n(vs.billed16.claudeCode)} = 1/${(1 / cost).toFixed(1)} (target at most 1/5: ${cost <= 0.2 ? 'met' : 'NOT met'})`
  )
  console.log(
    `  fan-out overhead: Fanout ${vs.overhead16.fanout.toFixed(0)} ms vs Claude Code ${vs.overhead16.claudeCode.toFixed(0)} ms = 1/${(1 / over).toFixed(1)} (target at most 1/10: ${over <= 0.1 ? 'met' : 'NOT met'})`
  )
  const at64 = vs.sizes[64]
  if (at64?.overhead.claudeCode != null) {
    const r = at64.overhead.fanout / at64.overhead.claudeCode
    console.log(
      `  64-way fan-out overhead (default settings): Fanout ${at64.overhead.fanout.toFixed(0)} ms vs Claude Code ${at64.overhead.claudeCode.toFixed(0)} ms = 1/${(1 / r).toFixed(1)} (target at most 1/5: ${r <= 0.2 ? 'met' : 'NOT met'})`
    )
  }
  console.log(
    `  cache sharing (first response before the siblings) costs ${vs.overhead16.latencyCost.toFixed(0)} ms of latency on this fan-out: one model time-to-first-token.`
  )
}

// `npm run bench`: prints figures; never passes or fails on time. BENCH_ONLY=ui (or cost, engine, fan-out, cli, sandbox, search, long-session) runs one.
import { benchCliStart, type CliStartFigures } from './cli-start'
import { serveCost } from './cost-server'
import { benchFanOut, serveFanOut } from './fan-out'
import { benchLongSession } from './long-session'
import { benchSandbox } from './sandbox'
import { benchSearch } from './search'
import { benchSearchEngine } from './search-engine'
import { benchUi, type UiFigures } from './ui'
import { benchVsClaudeCode, type VsClaudeCode } from './vs-claude-code'
import { sdkFloor } from './sdk-floor'

if (process.argv[2] === '--fan-out-server') {
  await serveFanOut(Number(process.argv[3]))
} else if (process.argv[2] === '--cost-server') {
  await serveCost()
} else if (process.argv[2] === '--sdk-floor') {
  await sdkFloor()
} else {
  const root = process.cwd()
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim())
  const wanted = (name: string) => !only || only.includes(name)
  let vs: VsClaudeCode | null = null
  let cli: CliStartFigures | null = null
  let ui: UiFigures | null = null
  if (wanted('cost')) vs = await benchVsClaudeCode()
  if (wanted('engine')) await benchSearchEngine()
  if (wanted('fan-out')) await benchFanOut()
  if (wanted('cli')) cli = await benchCliStart(root)
  if (wanted('sandbox')) await benchSandbox()
  if (wanted('long-session')) await benchLongSession()
  if (wanted('ui')) ui = await benchUi(root)
  if (wanted('search')) await benchSearch()
  closingNote(vs, cli, ui)
}

/** Every Done-when target of #28 with its figure from the run above, or why it has none. */
function closingNote(vs: VsClaudeCode | null, cli: CliStartFigures | null, ui: UiFigures | null): void {
  const NOT_RUN = 'not measured in this run'
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
  const n = (x: number) => Math.round(x).toLocaleString('en-US')
  const ms = (x: number) => `${x.toFixed(0)} ms`
  console.log('\nClosing note: the Done-when targets of #28 (medians; `fanout run` and `claude -p` as fresh processes, in this run):')
  const fanOut = (size: number, times: number, withCost: boolean) => {
    const label = `${size}-way fan-out`
    const f = vs?.sizes[size]
    if (!f) {
      console.log(`  ${label} overhead, default settings (target ≥ ${times}× lower): ${NOT_RUN} (BENCH_ONLY, BENCH_CC_SIZES)`)
      if (withCost) console.log(`  ${label} billed input (target ≥ 5× lower): ${NOT_RUN}`)
      return
    }
    if (f.overhead.claudeCode === null || f.billed.claudeCode === null)
      return console.log(
        `  ${label}: Claude Code was not measured (${vs?.skip ?? 'unknown reason'}); Fanout overhead ${ms(f.overhead.fanout)}, billed input ${n(f.billed.fanout)}`
      )
    const partial =
      f.claudeCodeAgents !== null && f.claudeCodeAgents < size ? ` (Claude Code ran only ${f.claudeCodeAgents} of the ${size} agents: not the same work)` : ''
    const over = f.overhead.claudeCode / Math.max(1, f.overhead.fanout)
    console.log(
      `  ${label} overhead, default settings: Fanout ${ms(f.overhead.fanout)} vs Claude Code ${ms(f.overhead.claudeCode)} = ${over.toFixed(1)}× lower (target ≥ ${times}×: ${verdict(over >= times)})${partial}`
    )
    if (withCost) {
      const cost = f.billed.claudeCode / f.billed.fanout
      console.log(
        `  ${label} billed input: Fanout ${n(f.billed.fanout)} vs Claude Code ${n(f.billed.claudeCode)} = ${cost.toFixed(1)}× lower (target ≥ 5×: ${verdict(cost >= 5)})`
      )
    }
    const gate = f.overhead.latencyCost
    console.log(
      `    with cache sharing off (as many runs, in the same rounds): ${ms(f.overhead.fanout - gate)}; the default's sharing ${gate >= 0 ? 'adds' : 'saves'} ${ms(Math.abs(gate))} (a difference of medians)`
    )
    if (f.overhead.floor !== null && f.overhead.claudeCode !== null)
      console.log(
        `    the SDK alone on the same hops (no runtime at all) takes ${ms(f.overhead.floor)}: ${times}× below Claude Code (${ms(f.overhead.claudeCode / times)}) leaves Fanout's runtime ${ms(Math.max(0, f.overhead.claudeCode / times - f.overhead.floor))} of its own; it uses ${ms(Math.max(0, f.overhead.fanout - f.overhead.floor))}`
      )
  }
  fanOut(16, 10, true)
  fanOut(64, 5, false)
  if (!cli) console.log(`  process start to first request (target ≥ 4× faster): ${NOT_RUN} (BENCH_ONLY=cli)`)
  else if (!cli.claudeCode) console.log(`  process start to first request: Claude Code not measured (${cli.skip}); Fanout ${ms(cli.fanout.median)}`)
  else {
    const r = cli.claudeCode.median / cli.fanout.median
    console.log(
      `  process start to first request: Fanout ${ms(cli.fanout.median)} vs Claude Code ${ms(cli.claudeCode.median)} = ${r.toFixed(1)}× faster (target ≥ 4×: ${verdict(r >= 4)})`
    )
  }
  if (!ui) console.log(`  UI, 64 agents streaming (p95 frame ≤ 16.7 ms, no task over 50 ms, event→painted p95 ≤ 100 ms): ${NOT_RUN} (BENCH_ONLY=ui)`)
  else {
    console.log(
      `  UI, ${ui.agents} agents streaming (median of runs): p95 frame ${ui.p95Frame.toFixed(1)} ms (target ≤ 16.7 ms, one vsync: ${verdict(ui.met.frame)})`
    )
    console.log(
      `  UI, ${ui.agents} agents streaming (median of runs): longest task ${ui.longTasks ? `${ui.longestTask.toFixed(0)} ms (${ui.longTasks} over 50 ms)` : 'none over 50 ms'} (target none over 50 ms: ${verdict(ui.met.tasks)})`
    )
    console.log(
      `  UI, ${ui.agents} agents streaming (median of runs): event→painted p95 ${ui.paintedP95.toFixed(1)} ms (target ≤ 100 ms: ${verdict(ui.met.painted)})`
    )
  }
}

// Process start to first model request: what a person waits before anything happens, `fanout run -p`
// beside `claude -p` (the version the project pins). Every run is a fresh process; the time runs from the
// spawn to the arrival, at the scripted server (its own process, cost-server-process.ts), of the first
// request that carries the person's prompt. Pairs are interleaved (Fanout, Claude Code, Fanout, …) after
// one unmeasured run of each (a person's first run after installing fills caches once), so a machine that
// gets busier or quieter weighs on both alike; median and min of each, the same arithmetic for both.
// Then Fanout's start by state of its code cache: the first run after a build (the cache the build
// prepared) and none (each in a cache folder of its own, so the checkout's cache is left alone); the
// side-by-side runs are the warm case, a cache completed by the run before.
import { copyFileSync, existsSync, mkdtempSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { primeCaches } from '../src/main/cli/code-cache'
import { claudeCodeBinary, claudeCodeVersion, runClaudeCode } from './claude-code'
import { START_MARK } from './cost-server'
import { CostServer } from './cost-server-process'
import { runFanoutProcess } from './fanout-process'
import { machineNow } from './machine-clock'

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 9)
const MODEL = 'claude-sonnet-5-5'
const PROMPT = `${START_MARK}: say hi.`
/** Done-when of #28: process start to first request at least this many times faster than Claude Code. */
const TARGET = 4
/** A person's own agents: this many files of the corpus (../shared/corpus/agents) in ~/.claude/agents. */
const USER_AGENTS = 100

export interface CliStartFigures {
  fanout: { median: number; min: number }
  /** With USER_AGENTS agent files of the person's own; null without the corpus. */
  withAgents: { fanout: number; claudeCode: number | null } | null
  /** null when Claude Code was not measured (`skip` says why). */
  claudeCode: { median: number; min: number; version: string } | null
  skip?: string
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const describe = (label: string, runs: number[]): string =>
  `${label} (${runs.length} runs): median ${median(runs).toFixed(0)} ms, min ${Math.min(...runs).toFixed(0)} ms`

/** Spawn → first request with the prompt, ms; undefined when none arrived (the run failed). */
async function timed(server: CostServer, start: () => Promise<unknown>): Promise<number | undefined> {
  await server.reset(0)
  const started = machineNow()
  await start()
  const { promptArrival } = await server.stats()
  return promptArrival ? promptArrival - started : undefined
}

export async function benchCliStart(root: string): Promise<CliStartFigures> {
  const tmp = mkdtempSync(join(tmpdir(), 'fanout-bench-cli-'))
  const cwd = join(tmp, 'project')
  const home = join(tmp, 'home')
  mkdirSync(cwd, { recursive: true })
  mkdirSync(home, { recursive: true })
  const server = await CostServer.start()
  const cc = claudeCodeBinary()
  const bin = 'path' in cc ? cc.path : null
  const version = bin ? claudeCodeVersion(bin) : ''
  const loadBefore = loadavg()[0]!.toFixed(2)
  const fanout = (env?: Record<string, string>) => () =>
    runFanoutProcess({ root, cwd, home, baseUrl: server.url, prompt: PROMPT, model: MODEL, ...(env ? { env } : {}) })
  const claude = () => runClaudeCode({ cwd, home, baseUrl: server.url, prompt: PROMPT, model: MODEL, tools: ['Read', 'Glob', 'Agent'] })
  const push = (to: number[], t: number | undefined) => void (t !== undefined && to.push(t))
  try {
    // Side by side, as installed: Fanout with the checkout's code cache (completed by the unmeasured run), Claude Code's binary.
    const fan: number[] = []
    const claudeRuns: number[] = []
    await timed(server, fanout())
    if (bin) await timed(server, claude)
    for (let i = 0; i < RUNS; i++) {
      push(fan, await timed(server, fanout()))
      if (bin) push(claudeRuns, await timed(server, claude))
    }

    // Fanout's start by state of its code cache.
    const made: string[] = []
    const newCacheDir = () => {
      made.push(mkdtempSync(join(tmpdir(), 'fanout-bench-cache-')))
      return made.at(-1)!
    }
    const byCache = async (dir: () => string) => {
      const out: number[] = []
      for (let i = 0; i < RUNS; i++) push(out, await timed(server, fanout({ FANOUT_CODE_CACHE_DIR: dir() })))
      return out
    }
    // What the build leaves for `fanout run` (scripts/build.mjs primes the checkout's cache the same way).
    const first = await byCache(() => {
      const dir = newCacheDir()
      primeCaches(join(root, 'out/cli/fanout.cjs'), { names: ['run'], dirs: [dir] })
      return dir
    })
    const none = await byCache(() => 'off')
    for (const dir of made) rmSync(dir, { recursive: true, force: true })

    // As a person with agents of their own starts it: the corpus's agent files in ~/.claude/agents, for both.
    const corpus = join(root, '..', 'shared', 'corpus', 'agents')
    let withAgents: { fan: number[]; claude: number[]; files: number } | null = null
    if (existsSync(corpus)) {
      const own = join(tmp, 'home-with-agents')
      mkdirSync(join(own, '.claude', 'agents'), { recursive: true })
      const files = readdirSync(corpus, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .sort()
        .slice(0, USER_AGENTS)
      files.forEach((f, i) => copyFileSync(join(corpus, f), join(own, '.claude', 'agents', `${i}-${f.split('/').pop()}`)))
      // One data folder for all of this person's runs, as a person has: what a run keeps there (the parsed agent
      // files, definitions/parse-cache.ts) is there for the next, as the unmeasured first run leaves it.
      const ownData = mkdtempSync(join(tmpdir(), 'fanout-bench-data-own-'))
      const fanOwn = () => runFanoutProcess({ root, cwd, home: own, baseUrl: server.url, prompt: PROMPT, model: MODEL, env: { FANOUT_DATA_DIR: ownData } })
      const claudeOwn = () => runClaudeCode({ cwd, home: own, baseUrl: server.url, prompt: PROMPT, model: MODEL, tools: ['Read', 'Glob', 'Agent'] })
      withAgents = { fan: [], claude: [], files: files.length }
      await timed(server, fanOwn)
      if (bin) await timed(server, claudeOwn)
      for (let i = 0; i < RUNS; i++) {
        push(withAgents.fan, await timed(server, fanOwn))
        if (bin) push(withAgents.claude, await timed(server, claudeOwn))
      }
    }

    console.log(
      `\nProcess start to first model request: spawn → the first request carrying the prompt at the scripted server (its own process); ${RUNS} interleaved pairs after one unmeasured run of each; load average ${loadBefore} -> ${loadavg()[0]!.toFixed(2)}`
    )
    console.log(`  ${describe('Fanout (`fanout run -p`, warm code cache)', fan)}`)
    const figures: CliStartFigures = { fanout: { median: median(fan), min: Math.min(...fan) }, claudeCode: null, withAgents: null }
    if (bin && claudeRuns.length) {
      console.log(`  ${describe(`Claude Code ${version} (\`claude -p\`)`, claudeRuns)}`)
      figures.claudeCode = { median: median(claudeRuns), min: Math.min(...claudeRuns), version }
      const ratio = figures.claudeCode.median / figures.fanout.median
      console.log(
        `  Fanout starts ${ratio.toFixed(1)}× faster (medians; mins ${(figures.claudeCode.min / figures.fanout.min).toFixed(1)}×) (target ≥ ${TARGET}×: ${ratio >= TARGET ? 'met' : 'NOT met'})`
      )
    } else {
      figures.skip = bin ? 'Claude Code sent no request with the prompt' : (cc as { skip: string }).skip
      console.log(`  Claude Code: not measured — ${figures.skip}`)
    }
    console.log(`  Fanout, ${describe('first run after a build', first)}; ${describe('no code cache at all', none)}`)
    if (withAgents?.fan.length) {
      const cc = withAgents.claude.length ? median(withAgents.claude) : null
      figures.withAgents = { fanout: median(withAgents.fan), claudeCode: cc }
      console.log(
        `  With ${withAgents.files} agent files of the person's own in ~/.claude/agents (from the corpus), interleaved: ${describe('Fanout', withAgents.fan)}${
          cc !== null ? `; ${describe('Claude Code', withAgents.claude)}; ${(cc / figures.withAgents.fanout).toFixed(1)}× faster` : ''
        }`
      )
    } else console.log(`  With agent files of the person's own: not measured (no corpus at ${corpus})`)
    return figures
  } finally {
    server.stop()
    rmSync(tmp, { recursive: true, force: true })
  }
}

// `fanout agents stats [NAME] [--json] [--last N]`: what each agent definition's runs have cost and how
// they ended, from the history every session records (store/agent-history.ts).
import { relative, isAbsolute } from 'node:path'
import { agentStats, historyRuns, type AgentRunRecord, type AgentStats } from '../../shared/budget'
import { resolveDataDir } from '../runtime/store/data-dir'
import { readAgentHistory } from '../runtime/store/agent-history'
import type { CommandIO } from './agents-command'

export const STATS_USAGE = `Usage: fanout agents stats [NAME] [--json] [--last N]
  Every agent definition's recorded runs: median cost, tokens, turns and duration, success rate, outcomes
  (completed, failed, budget, max_turns, stopped; merged/discarded once review judged the work) and the last runs.
  NAME       only the definition(s) with this name
  --json     the same as JSON (one object per definition, its last runs included)
  --last N   how many of the last runs to show (default 5)
`

const usd = (n: number | null) => (n === null ? '-' : `$${n.toFixed(4)}`)
const num = (n: number | null) => (n === null ? '-' : Math.round(n).toLocaleString('en-US'))
const secs = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`)
const when = (ts: number) => new Date(ts).toISOString().slice(0, 16).replace('T', ' ')

function shown(file: string | undefined, cwd: string): string {
  if (!file) return '(built-in or --agents)'
  const rel = relative(cwd, file)
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file
}

function runLine(r: AgentRunRecord): string {
  return `    ${when(r.ts)}  ${r.outcome.padEnd(10)} ${usd(r.costUsd).padStart(9)}  ${num(r.tokens).padStart(9)} tokens  ${String(r.turns).padStart(3)} turns  ${secs(r.durationMs)}`
}

export function formatStats(s: AgentStats, cwd: string, last: number): string {
  const outcomes = Object.entries(s.outcomes)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  const rate = s.successRate === null ? '-' : `${Math.round(s.successRate * 100)}%`
  return [
    `${s.agentType}  ${shown(s.file, cwd)}`,
    `  ${s.runs} run${s.runs === 1 ? '' : 's'}, ${rate} succeeded; median ${usd(s.medianCostUsd)}, ${num(s.medianTokens)} tokens, ${num(s.medianTurns)} turns, ${secs(s.medianDurationMs)}; ${usd(s.totalCostUsd)} in all`,
    `  outcomes: ${outcomes}`,
    `  last runs:`,
    ...s.last.slice(-last).map(runLine)
  ].join('\n')
}

export async function statsCommand(args: string[], io: CommandIO): Promise<number> {
  let json = false
  let last = 5
  let name: string | undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '--help' || a === '-h') {
      io.stdout(STATS_USAGE)
      return 0
    }
    if (a === '--json') json = true
    else if (a === '--last') {
      last = Number(args[++i])
      if (!Number.isInteger(last) || last < 0) {
        io.stderr(`fanout agents stats: --last needs a whole number\n${STATS_USAGE}`)
        return 2
      }
    } else if (a.startsWith('-')) {
      io.stderr(`fanout agents stats: unknown option ${a}\n${STATS_USAGE}`)
      return 2
    } else name = a
  }
  const records = await readAgentHistory(resolveDataDir(io.env))
  const stats = [...historyRuns(records).values()].map((runs) => agentStats(runs, Math.max(last, 1))).filter((s) => !name || s.agentType === name)
  stats.sort((a, b) => b.totalCostUsd - a.totalCostUsd)
  if (json) {
    io.stdout(
      `${JSON.stringify(
        stats.map((s) => ({ ...s, last: s.last.slice(-last) })),
        null,
        2
      )}\n`
    )
    return 0
  }
  if (!stats.length) {
    io.stdout(name ? `No recorded runs of ${name}.\n` : 'No recorded agent runs yet: each subagent run is recorded when it ends.\n')
    return 0
  }
  io.stdout(`${stats.map((s) => formatStats(s, io.cwd, last)).join('\n\n')}\n`)
  return 0
}

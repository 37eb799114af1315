// Isolated agents survive a crash in their worktrees: a `fanout run` whose main agent starts more worktree
// agents than its two concurrent slots (background ones, a foreground one, and a background one started by
// another worktree agent) is killed with SIGKILL at a point of an agent's life — queued, its worktree just
// made, running, committing, a nested one running (its parent's worktree there or gone) — then `--resume`d.
// Every run of every agent was in its own worktree, the checkout has no change of any agent (`git status
// --porcelain` empty, its files as they were), and every agent's work is in a commit on its branch. The
// counts are printed for the issue's closing note.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentStartEvent } from '../../src/shared/events'
import { reply, startScriptedServer, type ParsedRequest, type ScriptedReply } from '../../src/main/runtime/model/scripted'
import { readTranscript } from '../../src/main/runtime/store/transcript/reader'
import { ensureCliBundle } from '../support/cli'
import { agentsDir, crashProject, killGroup, sessionIds, startRun, until, type CrashProject } from '../support/crash-kit'
import { spawnSync } from 'node:child_process'

beforeAll(() => ensureCliBundle(), 120_000)

/** Started by the main agent: five in the background, one in the foreground, which starts fg-0-child in the background (a background agent has no Agent tool). */
const TOP = ['wt-0', 'wt-1', 'wt-2', 'wt-3', 'wt-4', 'fg-0']
const NESTED = 'fg-0-child'
const ALL = [...TOP, NESTED]

const tally = { killPoints: 0, agentRuns: 0, runsInCheckout: 0, checkoutChanges: 0, workLost: 0 }
afterAll(() => {
  console.log(
    `worktree crash suite: ${tally.killPoints} kill points, ${tally.agentRuns} agent runs checked, ${tally.runsInCheckout} agents in the main checkout, ${tally.checkoutChanges} checkout changes, ${tally.workLost} agents' work lost`
  )
})

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
  return r.stdout.trim()
}

type Stage = 'queued' | 'worktree-made' | 'running' | 'committing' | 'nested' | 'nested-orphan'

interface Point {
  stage: Stage
  name: string
}

const POINTS: Point[] = [
  { stage: 'queued', name: 'queued (two agents hold both slots, five wait for one, with no worktree yet)' },
  { stage: 'worktree-made', name: 'starting (an agent’s worktree just made, not yet recorded)' },
  { stage: 'running', name: 'running (an agent wrote its file in its worktree)' },
  { stage: 'committing', name: 'finishing (git committing an agent’s worktree)' },
  { stage: 'nested', name: 'nested (an agent started by a worktree agent is running)' },
  { stage: 'nested-orphan', name: 'nested, its parent finished with no changes (so its worktree, the nested agent’s origin, is gone)' }
]

/**
 * The run's git: `worktree add` (after it ran) or `commit` / `commit-tree` (Fanout's own commit is plumbing) waits for the release when the point arms it,
 * and marks that it is holding.
 */
function holdingGit(p: CrashProject, stage: Stage): void {
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim()
  const release = join(p.root, 'release')
  const held = p.marker('git-held')
  const hold = `if [ ! -e "${held}" ]; then touch "${held}"; while [ ! -e "${release}" ]; do sleep 0.05; done; fi`
  const script =
    stage === 'worktree-made'
      ? `#!/bin/sh\ncase " $* " in\n  *" worktree add "*) "${realGit}" "$@"; rc=$?; ${hold}; exit $rc ;;\nesac\nexec "${realGit}" "$@"\n`
      : stage === 'committing'
        ? `#!/bin/sh\ncase " $* " in\n  *" commit "*|*" commit-tree "*) ${hold} ;;\nesac\nexec "${realGit}" "$@"\n`
        : `#!/bin/sh\nexec "${realGit}" "$@"\n`
  writeFileSync(join(p.root, 'bin', 'git'), script)
  chmodSync(join(p.root, 'bin', 'git'), 0o755)
}

const agentOf = (req: ParsedRequest): string | null => /^Task (\S+)$/m.exec(req.firstUserText)?.[1] ?? null
const text = (req: ParsedRequest) => JSON.stringify(req.messages)
const report = (name: string) => `REPORT ${name} DONE`
/** A restart that says an Agent call never started: a sensible model starts that agent again. */
const NOT_RUN = /did not run: Fanout stopped|had not started when Fanout stopped \(it was closed or crashed\); nothing of it ran/
/** A restart that says a Write never put its content in the file (it never ran, or the kill came before its file was replaced): a sensible model writes it again. */
const NOT_WRITTEN = /did not run: Fanout stopped|did not finish: Fanout stopped/

function toolCalls(req: ParsedRequest, tool: string): Array<{ input: Record<string, unknown>; result?: string }> {
  const out: Array<{ id: string; input: Record<string, unknown>; result?: string }> = []
  for (const m of req.messages) {
    if (!Array.isArray(m.content)) continue
    for (const b of m.content as Array<Record<string, any>>) {
      if (m.role === 'assistant' && b.type === 'tool_use' && b.name === tool) out.push({ id: b.id, input: b.input ?? {} })
      else if (b.type === 'tool_result') {
        const call = out.find((c) => c.id === b.tool_use_id)
        if (call) call.result = typeof b.content === 'string' ? b.content : (b.content as Array<{ text?: string }>).map((x) => x.text ?? '').join('\n')
      }
    }
  }
  return out
}

/** Agents the conversation should start (again): never started, or every start said it never happened. */
const toStart = (req: ParsedRequest, names: string[]) =>
  names.filter((n) => {
    const mine = toolCalls(req, 'Agent').filter((c) => c.input.description === n)
    return !mine.length || mine.every((c) => c.result !== undefined && NOT_RUN.test(c.result))
  })

function script(p: CrashProject, stage: Stage) {
  const state = { killed: false }
  const holding = p.marker('model-held')
  const hold = async () => {
    writeFileSync(holding, '')
    const deadline = Date.now() + 120_000
    while (!state.killed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  }
  const respond = async (req: ParsedRequest): Promise<ScriptedReply> => {
    const agent = agentOf(req)
    if (!agent) {
      const missing = toStart(req, TOP)
      if (missing.length)
        return reply.toolUses(
          missing.map((name) => ({
            name: 'Agent',
            input: { description: name, prompt: `Task ${name}`, isolation: 'worktree', ...(name.startsWith('fg') ? {} : { run_in_background: true }) }
          }))
        )
      const all = text(req)
      return reply.text(`reports=${ALL.filter((n) => all.includes(report(n))).length}`)
    }
    const wrote = toolCalls(req, 'Write').some((c) => c.result !== undefined && !NOT_WRITTEN.test(c.result))
    if (!state.killed) {
      if (stage === 'queued' && !wrote) await hold()
      if (stage === 'running' && wrote) await hold()
      if ((stage === 'nested' || stage === 'nested-orphan') && agent === NESTED) await hold()
    }
    if (agent === 'fg-0' && toStart(req, [NESTED]).length)
      return reply.toolUse('Agent', { description: NESTED, prompt: `Task ${NESTED}`, isolation: 'worktree', run_in_background: true })
    // Changing nothing, it ends with its worktree removed.
    if (stage === 'nested-orphan' && agent === 'fg-0') return reply.text(report(agent))
    if (!wrote) return reply.toolUse('Write', { file_path: `${agent}.txt`, content: `${agent} was here\n` })
    // Reports it heard (a nested agent's) go on with its own.
    const all = text(req)
    return reply.text([agent, ...ALL.filter((n) => n !== agent && all.includes(report(n)))].map(report).join('\n'))
  }
  return { state, respond }
}

interface Seen {
  runs: number
  /** Runs not in a worktree of their own, one sentence each. */
  inCheckout: string[]
}

/** Every agent_start of every subagent: it names its worktree, and its cwd is in that worktree, never in the checkout. */
async function agentRuns(p: CrashProject, sessionId: string): Promise<Seen> {
  const seen: Seen = { runs: 0, inCheckout: [] }
  const dir = agentsDir(p, sessionId)
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    const t = await readTranscript(join(dir, name))
    for (const e of t.events) {
      if (e.type !== 'agent_start' || e.parentAgentId === null) continue
      const start = e as AgentStartEvent
      seen.runs++
      const inside = (dir: string, path: string) => path === dir || path.startsWith(`${dir}/`)
      if (!start.worktree || !inside(start.worktree.path, start.cwd) || inside(p.project, start.cwd))
        seen.inCheckout.push(`${start.description ?? name}: ran in ${start.cwd} (worktree ${start.worktree?.path ?? 'none'})`)
    }
  }
  return seen
}

/**
 * A transcript's events but the streamed deltas, each as its type, its status and, for an end, a failure or a
 * status, the reason it gives: how an agent's work was lost. Read as Fanout reads it (a line a kill cut short
 * is passed over, not thrown on).
 */
async function eventsOf(transcript: string): Promise<{ events: string[]; issues: number }> {
  if (!existsSync(transcript)) return { events: ['no transcript'], issues: 0 }
  const t = await readTranscript(transcript).catch((err: Error) => ({ events: [], issues: [{ message: err.message }] }))
  const events = t.events.flatMap((e) => {
    if (e.type.endsWith('_delta')) return []
    const { status, error, detail, message } = e as { status?: string; error?: string; detail?: string; message?: string }
    const why = error ?? detail ?? (e.type === 'error' ? message : undefined)
    return [`${e.type}${status ? ` ${status}` : ''}${why ? ` (${why.slice(0, 300)})` : ''}`]
  })
  return { events, issues: t.issues.length }
}

/** What the record and git say of an agent whose work is in no commit: a failure says where its work went. */
async function whereIs(p: CrashProject, sessionId: string, name: string): Promise<string> {
  const dir = agentsDir(p, sessionId)
  const lines: string[] = []
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.state.json'))) {
    const state = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
      agentId: string
      description?: string
      status: string
      prompt?: string
      worktree?: { path: string; branch: string }
    }
    if (state.description !== name) continue
    const wt = state.worktree
    const there = wt && existsSync(wt.path)
    const status = there ? spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: wt.path, encoding: 'utf8' }) : null
    const branch = wt ? spawnSync('git', ['log', '--format=%h %s', '-3', wt.branch], { cwd: p.project, encoding: 'utf8' }) : null
    const { events } = await eventsOf(join(dir, `${state.agentId}.jsonl`))
    lines.push(
      `  ${name} (${state.agentId}): ${state.status}${state.prompt === undefined ? ' (no task in its state)' : ''}; worktree ${wt ? `${wt.path} (${there ? 'there' : 'gone'}), branch ${wt.branch}` : 'none'}; ` +
        `status ${JSON.stringify(status?.stdout.trim() ?? status?.stderr.trim() ?? '')}; branch log ${JSON.stringify(branch?.stdout.trim() || branch?.stderr.trim() || '')}; events ${events.join(', ')}`
    )
  }
  return lines.join('\n') || `  ${name}: no state file`
}

/** Every agent's state.json (status, whether it holds the task, worktree) and its transcript's event types, as the kill left them. */
async function recordsAtKill(p: CrashProject, sessionId: string): Promise<string> {
  const dir = agentsDir(p, sessionId)
  const lines: string[] = []
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl') || n.endsWith('.state.json'))) {
    const file = join(dir, name)
    if (name.endsWith('.state.json')) {
      type Saved = { description?: string; status?: string; prompt?: string; worktree?: { path: string } }
      let state: Saved
      try {
        state = JSON.parse(readFileSync(file, 'utf8')) as Saved
      } catch (err) {
        lines.push(`  ${name}: unreadable (${(err as Error).message})`)
        continue
      }
      lines.push(
        `  ${name}: ${state.description ?? 'main'} ${state.status}${state.prompt === undefined ? ' (no task)' : ''}${state.worktree ? ` worktree ${state.worktree.path}` : ''}`
      )
    } else {
      const { events, issues } = await eventsOf(file)
      lines.push(
        `  ${name}: ${events.length} events (${events.slice(0, 12).join(', ')}${events.length > 12 ? ', …' : ''})${issues ? `; ${issues} issues` : ''}`
      )
    }
  }
  return lines.join('\n')
}

async function crashAndResume(point: Point): Promise<void> {
  const p = crashProject()
  mkdirSync(p.dataDir, { recursive: true })
  writeFileSync(join(p.dataDir, 'settings.json'), JSON.stringify({ limits: { maxConcurrent: 2 } }))
  holdingGit(p, point.stage)
  const readme = readFileSync(join(p.project, 'README.md'), 'utf8')
  const s = script(p, point.stage)
  const server = await startScriptedServer({ respond: s.respond })
  try {
    const first = startRun(p, server.url, ['-p', 'Fan out over the project.'])
    const launched = () => {
      const [id] = sessionIds(p)
      return !!id && existsSync(agentsDir(p, id)) && readdirSync(agentsDir(p, id)).filter((n) => n.endsWith('.state.json')).length >= TOP.length
    }
    const at: Record<Stage, () => boolean> = {
      queued: () => launched() && existsSync(p.marker('model-held')),
      'worktree-made': () => existsSync(p.marker('git-held')),
      running: () => existsSync(p.marker('model-held')),
      committing: () => existsSync(p.marker('git-held')),
      nested: () => existsSync(p.marker('model-held')),
      'nested-orphan': () => {
        const [id] = sessionIds(p)
        if (!id || !existsSync(p.marker('model-held'))) return false
        const dir = agentsDir(p, id)
        return readdirSync(dir).some((n) => n.endsWith('.jsonl') && /"type":"agent_end".*"kept":false/.test(readFileSync(join(dir, n), 'utf8')))
      }
    }
    await until(`the kill point (${point.name})`, at[point.stage], first, 120_000)
    killGroup(first)
    const killed = await first.done
    expect(killed.signal).toBe('SIGKILL')
    s.state.killed = true
    p.release()
    tally.killPoints++
    const [sessionId] = sessionIds(p)
    // What the kill left, before the resume reads (and rewrites) it: a lost agent's failure says which record lacked what.
    const atKill = await recordsAtKill(p, sessionId)

    const resumed = startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.'])
    const out = await Promise.race([resumed.done, new Promise<null>((r) => setTimeout(() => r(null), 150_000))])
    if (!out) {
      killGroup(resumed)
      throw new Error(`the resumed run did not finish (${point.name})`)
    }
    const seen = await agentRuns(p, sessionId)
    tally.agentRuns += seen.runs
    tally.runsInCheckout += seen.inCheckout.length
    const status = git(p.project, 'status', '--porcelain')
    const changed = status ? status.split('\n') : []
    if (readFileSync(join(p.project, 'README.md'), 'utf8') !== readme) changed.push('README.md rewritten')
    tally.checkoutChanges += changed.length
    const wrote = point.stage === 'nested-orphan' ? ALL.filter((n) => n !== 'fg-0') : ALL
    const lost = wrote.filter((n) => git(p.project, 'log', '--all', '--format=%H', '--', `${n}.txt`) === '')
    tally.workLost += lost.length

    expect(seen.inCheckout, 'every run of every agent was in its own worktree').toEqual([])
    expect(changed, 'no agent changed the checkout').toEqual([])
    const where = await Promise.all(lost.map((n) => whereIs(p, sessionId, n)))
    expect(
      lost,
      `every agent’s work is in a commit on its branch; of those lost:\n${where.join('\n')}\nthe records at the kill:\n${atKill}\nthe killed run's stderr:\n${killed.stderr.slice(-1500)}\nthe resume's stderr:\n${out.stderr.slice(-2000)}`
    ).toEqual([])
    expect(out.code, out.stderr).toBe(0)
    expect(JSON.parse(out.stdout).result).toBe(`reports=${ALL.length}`)
    expect(seen.runs).toBeGreaterThanOrEqual(ALL.length)
  } finally {
    s.state.killed = true
    p.release()
    await server.close()
    if (!process.env.FANOUT_KEEP_CRASH) rmSync(p.root, { recursive: true, force: true })
  }
}

describe('kill -9 with worktree agents queued past the concurrency cap, then --resume', () => {
  for (const point of POINTS) it(point.name, { timeout: 300_000 }, () => crashAndResume(point))
})

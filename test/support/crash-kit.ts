// The crash suite's kit: a 16-agent (or wider) `fanout run` over a real git repository and the scripted model server,
// killed with SIGKILL at a scripted point, then resumed; and the checks that say whether anything was lost,
// delivered twice or run twice. The script decides from each request's conversation (not from turn counts),
// as a model would, so it answers sensibly before the crash, after it, and after a second one.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentEvent } from '../../src/shared/events'
import { reply, startScriptedServer, type ParsedRequest, type ScriptedReply, type ScriptedServer } from '../../src/main/runtime/model/scripted'
import { readTranscript } from '../../src/main/runtime/store/transcript/reader'
import { repoRoot } from './cli'

/** Who the main agent starts: workers (a Bash side effect each), 2 worktree editors, 4 background watchers. */
export interface Roster {
  workers: string[]
  editors: string[]
  watchers: string[]
  all: string[]
}

/** A run of `size` agents (at least 16: worker-5 and worker-3 have parts to play). */
export function roster(size = 16): Roster {
  const workers = Array.from({ length: size - 6 }, (_, i) => `worker-${i}`)
  const editors = ['editor-0', 'editor-1']
  const watchers = Array.from({ length: 4 }, (_, i) => `watcher-${i}`)
  return { workers, editors, watchers, all: [...workers, ...editors, ...watchers] }
}
/** What the main agent tells watcher-0 while it works; watcher-0's report acknowledges it. */
export const NOTE = 'Also report the build number'

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
  return r.stdout.trim()
}

export interface CrashProject {
  root: string
  project: string
  dataDir: string
  /** Created after a kill: whatever a killed run left waiting on it ends. */
  release(): void
  env(url: string): Record<string, string>
  /** `<project>/effects.log`: one line per side effect an agent's Bash call had. */
  effects(): string[]
  marker(name: string): string
  /** The agents the run starts. */
  agents: Roster
}

/** A git repository, and a `git` on the run's PATH that holds the first worktree commit (the mid-commit kill point) until released. */
export function crashProject(size = 16): CrashProject {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-crash-')))
  const project = join(root, 'project')
  const dataDir = join(root, 'data')
  mkdirSync(project)
  writeFileSync(join(project, 'README.md'), '# Crash test project\n')
  git(project, 'init', '-q', '-b', 'main')
  git(project, 'add', '-A')
  git(project, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'init')
  // Markers a sandboxed Bash command touches are in the working tree (the only place it may write); the
  // others (the held git's, the test's own) beside it.
  const marker = (name: string) => (name === 'tool' || name === 'team' ? join(project, `.${name}.marker`) : join(root, `${name}.marker`))
  const release = join(root, 'release')
  // Fanout's git runs no repository hook (core.hooksPath=/dev/null), so the mid-commit point holds in a `git`
  // ahead of the real one on the run's PATH: the first commit (`commit-tree`, how Fanout commits a worktree) waits there, armed by the scenario that kills
  // mid-commit (crashScript with holdCommit), until the release; every other git command goes straight through.
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim()
  const bin = join(root, 'bin')
  mkdirSync(bin)
  writeFileSync(
    join(bin, 'git'),
    `#!/bin/sh\ncase " $* " in\n  *" commit "*|*" commit-tree "*)\n    if [ -e "${marker('arm-commit')}" ] && [ ! -e "${marker('commit')}" ]; then\n      touch "${marker('commit')}"\n      while [ ! -e "${release}" ]; do sleep 0.05; done\n    fi ;;\nesac\nexec "${realGit}" "$@"\n`
  )
  chmodSync(join(bin, 'git'), 0o755)
  return {
    root,
    project,
    dataDir,
    release: () => writeFileSync(release, ''),
    env: (url) => ({
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_AUTH_TOKEN: '',
      ANTHROPIC_BASE_URL: url,
      FANOUT_DATA_DIR: dataDir,
      HOME: root,
      PATH: `${bin}:${process.env.PATH ?? ''}`
    }),
    effects: () => (existsSync(join(project, 'effects.log')) ? readFileSync(join(project, 'effects.log'), 'utf8').split('\n').filter(Boolean) : []),
    marker,
    agents: roster(size)
  }
}

/** Where a scenario holds its run so the kill lands there (until the first kill). */
export interface Holds {
  /** worker-3's report streams slowly (the mid-stream point). */
  slowStream?: boolean
  /** worker-5's Bash call waits for the release (the mid-tool point). */
  blockTool?: boolean
  /** The first worktree commit waits in the run's git for the release (the mid-commit point). */
  holdCommit?: boolean
  /**
   * The compacting agent's summary request waits for the release (the mid-compaction point): that agent runs
   * on haiku, whose window the data folder's settings make 100k tokens with compaction at half of it, and its
   * task is padded past that, so it compacts before its first request.
   */
  holdCompaction?: boolean
  /** A team member's side effect for its claimed task waits for the release (a kill with a team task claimed). */
  holdTeamTask?: boolean
  /**
   * The main agent's fan-out reply stops streaming after half of its Agent calls (the mid-reply point): the
   * calls that arrived whole have started their agents (loop/early-calls.ts), the rest never arrive.
   */
  holdReply?: boolean
}

/**
 * The team of a run with `--teams` (crashScript's `team`): the lead creates it beside its first fan-out. Its
 * workers claim the tasks one at a time, each task's side effect (`team-<subject>` in effects.log) then
 * TaskUpdate completed; crew-idle claims nothing and goes idle at once. Each member's last words carry its
 * report marker.
 */
export const TEAM = {
  name: 'crew',
  workers: ['crew-0', 'crew-1'],
  idle: 'crew-idle',
  tasks: ['task-a', 'task-b', 'task-c'],
  get members(): string[] {
    return [...this.workers, this.idle]
  }
}

/** The agent that compacts (mid-compaction point), its model's window, and the padding that fills half of it. */
export const COMPACTING = 'worker-7'
const COMPACT_MODEL = 'claude-haiku-5-5'
const PADDING = `\n\nBackground you may skim:\n${'Ledger line: nothing to do here. '.repeat(9_000)}`

/** Whether watcher-0's transcript has the main agent's message (its second model call waits for it, always). */
function heardNote(p: CrashProject): boolean {
  const sessions = join(p.dataDir, 'sessions')
  if (!existsSync(sessions)) return false
  for (const id of readdirSync(sessions)) {
    const dir = join(sessions, id, 'agents')
    if (!existsSync(dir)) continue
    for (const n of readdirSync(dir)) {
      if (!n.endsWith('.jsonl')) continue
      const text = readFileSync(join(dir, n), 'utf8')
      if (startedAs(text, 'watcher-0') && text.split('\n').some((l) => l.includes('"type":"message_received"') && l.includes(NOTE))) return true
    }
  }
  return false
}

const texts = (req: ParsedRequest): string => JSON.stringify(req.messages)

interface Call {
  id: string
  input: Record<string, unknown>
  /** Its result's text; undefined while unanswered. */
  result?: string
}

/** Every call of `tool` in the conversation, with its result. */
function calls(req: ParsedRequest, tool: string): Call[] {
  const out: Call[] = []
  const byId = new Map<string, Call>()
  for (const m of req.messages) {
    if (!Array.isArray(m.content)) continue
    for (const b of m.content as Array<Record<string, any>>) {
      if (m.role === 'assistant' && b.type === 'tool_use' && b.name === tool) {
        const c: Call = { id: b.id, input: b.input ?? {} }
        out.push(c)
        byId.set(c.id, c)
      } else if (b.type === 'tool_result' && byId.has(b.tool_use_id)) {
        byId.get(b.tool_use_id)!.result =
          typeof b.content === 'string' ? b.content : (b.content as Array<{ text?: string }>).map((x) => x.text ?? '').join('\n')
      }
    }
  }
  return out
}

/** After a restart a call that never ran says so (a Write also when its file never got its content): a sensible model makes it again. */
const NOT_RUN = /did not run: Fanout stopped|did not finish: Fanout stopped|had not started when Fanout stopped \(it was closed or crashed\); nothing of it ran/
/** One that may have partly run says so too: a sensible model checks what it did (`done`) before making it again. */
const MAYBE_RAN = /may have done part of its work/
const mustRun = (req: ParsedRequest, tool: string, done: () => boolean = () => false): boolean => {
  const made = calls(req, tool)
  return !made.length || made.every((c) => c.result !== undefined && (NOT_RUN.test(c.result) || (MAYBE_RAN.test(c.result) && !done())))
}
/** Whose request it is: its task, or (compacted) the summary that names it; null for the main agent. */
const agentOf = (req: ParsedRequest): string | null =>
  /^Task (\S+)$/m.exec(req.firstUserText)?.[1] ?? /\bTask ((?:worker|editor|watcher)-\d+)\b/.exec(req.firstUserText)?.[1] ?? null

/** Each report's marker, as the main agent counts them. */
export const reportMarker = (name: string) => `REPORT ${name} DONE`

export interface CrashScript {
  respond: (req: ParsedRequest) => Promise<ScriptedReply>
  /** Set by the test once it has killed the run: holds let go, and what follows is the recovery. */
  killed: boolean
}

/**
 * The scripted model of a crash run. `team`: the lead also creates TEAM; `'abandon'`: after the kill, a worker
 * that holds a task claimed before it leaves it unfinished and goes idle (work a resume cannot finish).
 */
export function crashScript(p: CrashProject, holds: Holds, opts: { team?: boolean | 'abandon' } = {}): CrashScript {
  if (holds.holdCommit) writeFileSync(p.marker('arm-commit'), '')
  if (holds.holdCompaction) {
    mkdirSync(p.dataDir, { recursive: true })
    writeFileSync(join(p.dataDir, 'settings.json'), JSON.stringify({ context: { windows: { [COMPACT_MODEL]: 100_000 }, autoCompactPercent: 50 } }))
  }
  const state: CrashScript = {
    killed: false,
    respond: async (req) => {
      const agent = agentOf(req)
      if (req.isSummaryRequest) {
        if (holds.holdCompaction && agent === COMPACTING && !state.killed) {
          writeFileSync(p.marker('compaction'), '')
          await waitFor(() => state.killed)
        }
        // The summary names the task (as a model's would), so the compacted agent still knows who it is.
        return reply.text(`Task ${agent ?? 'main'}: the conversation so far was its task and background notes; nothing of it has been done yet.`)
      }
      const member = /^Team member (\S+)\./.exec(req.firstUserText)?.[1]
      if (member) return memberTurn(member, req)
      if (!agent) return mainTurn(req)
      return agentTurn(agent, req)
    }
  }
  // A hold lets go at its condition, or after a minute (a script must never keep a request open for good).
  const waitFor = async (cond: () => boolean) => {
    const deadline = Date.now() + 60_000
    while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  }

  function mainTurn(req: ParsedRequest): ScriptedReply {
    const spawned = calls(req, 'Agent')
    // Each agent is started once, and again only if the restart says its start never happened.
    const toStart = p.agents.all.filter((name) => {
      const mine = spawned.filter((c) => c.input.description === name)
      return !mine.length || mine.every((c) => c.result !== undefined && NOT_RUN.test(c.result))
    })
    const team = opts.team && mustRun(req, 'TeamCreate', () => existsSync(teamLog(p))) ? [teamCreate()] : []
    if (toStart.length || team.length) {
      const fanOut = reply.toolUses([
        ...team,
        ...toStart.map((name) => ({
          name: 'Agent',
          input: {
            description: name,
            prompt: `Task ${name}${holds.holdCompaction && name === COMPACTING ? PADDING : ''}`,
            subagent_type: 'general-purpose',
            ...(holds.holdCompaction && name === COMPACTING ? { model: 'haiku' } : {}),
            ...(name.startsWith('watcher') ? { run_in_background: true, name } : {}),
            ...(name.startsWith('editor') ? { isolation: 'worktree' } : {})
          }
        }))
      ])
      if (!holds.holdReply || state.killed) return fanOut
      // Held after half of its calls (each streams in chunks of 7 characters) until the kill.
      const half = fanOut.content.slice(0, Math.ceil(fanOut.content.length / 2))
      const afterDeltas = half.reduce((n, b) => n + (b.type === 'tool_use' ? Math.ceil(JSON.stringify(b.input).length / 7) : 0), 0) + 1
      writeFileSync(p.marker('reply'), '')
      return { ...fanOut, pause: { afterDeltas, until: waitFor(() => state.killed) } }
    }
    if (mustRun(req, 'SendMessage')) return reply.toolUse('SendMessage', { to: 'watcher-0', message: NOTE })
    const all = texts(req)
    const seen = p.agents.all.filter((n) => all.includes(reportMarker(n)))
    const twice = p.agents.all.filter((n) => all.split(reportMarker(n)).length > 2)
    // A report read twice is the one thing this suite exists to catch: keep what the main agent saw.
    if (twice.length) writeFileSync(join(p.root, '..', `fanout-crash-dup-${Date.now()}.json`), JSON.stringify(req.messages, null, 1))
    return reply.text(`reports=${seen.length} dups=${twice.length} ack=${all.split('build-number-ack').length - 1}`)
  }

  async function agentTurn(agent: string, req: ParsedRequest): Promise<ScriptedReply> {
    if (agent.startsWith('editor')) {
      // Writing the same file again does no harm: whether it was written need not be checked.
      if (mustRun(req, 'Write')) return reply.toolUse('Write', { file_path: `${agent}.txt`, content: `${agent} was here\n` })
      return reply.text(reportMarker(agent))
    }
    if (mustRun(req, 'Bash', () => p.effects().includes(agent))) {
      const block = holds.blockTool && agent === 'worker-5' && !state.killed
      const command = block
        ? `echo ${agent} >> effects.log && touch "${p.marker('tool')}" && while [ ! -e "${join(p.root, 'release')}" ]; do sleep 0.05; done`
        : `echo ${agent} >> effects.log`
      return reply.toolUse('Bash', { command, description: `effect of ${agent}` })
    }
    if (agent === 'watcher-0') {
      const heard = texts(req).includes(NOTE)
      if (!calls(req, 'Glob').length) {
        // Its model call is out when the main agent's message comes: it waits in the inbox for the next turn.
        await waitFor(() => heardNote(p))
        return reply.toolUse('Glob', { pattern: '*.md' })
      }
      return reply.text(`${reportMarker(agent)}${heard ? ' build-number-ack' : ''}`)
    }
    if (agent === 'worker-3' && holds.slowStream && !state.killed)
      return reply.text(`${reportMarker(agent)} ${'streaming slowly '.repeat(200)}`, { textChunk: 6, chunkDelayMs: 25 })
    return reply.text(reportMarker(agent))
  }
  /** A team member's turn, decided from its conversation: claim, do the task's side effect once, complete; idle when none is left. */
  function memberTurn(name: string, req: ParsedRequest): ScriptedReply {
    const idle = () => reply.text(`${reportMarker(name)} idle`)
    if (name === TEAM.idle) return idle()
    const claims = calls(req, 'TaskClaim')
    const lastClaim = claims.at(-1)
    // A claim a crash cut off (or never made): claim again; the member's own in-progress task comes back to it.
    if (!lastClaim || lastClaim.result === undefined || NOT_RUN.test(lastClaim.result) || MAYBE_RAN.test(lastClaim.result))
      return reply.toolUse('TaskClaim', {})
    const claimed = /You claimed task (\S+?)\.\n[^]*?\b(task-[a-z])\b/.exec(lastClaim.result)
    if (!claimed) return idle() // "No task is available": nothing left to do.
    const [, taskId, subject] = claimed
    if (opts.team === 'abandon' && state.killed) return reply.text(`${reportMarker(name)} idle: I will finish ${subject} later`)
    const effect = `team-${subject}`
    const doneBy = (c: Call) => c.input.taskId === taskId && c.result !== undefined && !NOT_RUN.test(c.result) && !MAYBE_RAN.test(c.result)
    const effectCalls = calls(req, 'Bash').filter((c) => c.input.description === `effect of ${effect}`)
    if (
      !effectCalls.length ||
      effectCalls.every((c) => c.result !== undefined && (NOT_RUN.test(c.result) || (MAYBE_RAN.test(c.result) && !p.effects().includes(effect))))
    ) {
      const block = holds.holdTeamTask && !state.killed
      const command = block
        ? `echo ${effect} >> effects.log && touch "${p.marker('team')}" && while [ ! -e "${join(p.root, 'release')}" ]; do sleep 0.05; done`
        : `echo ${effect} >> effects.log`
      return reply.toolUse('Bash', { command, description: `effect of ${effect}` })
    }
    // Completing twice does no harm (the second is refused as already completed): only a completion known done counts.
    if (!calls(req, 'TaskUpdate').some(doneBy)) return reply.toolUse('TaskUpdate', { taskId, status: 'completed', result: `${effect} done` })
    return reply.toolUse('TaskClaim', {})
  }

  function teamCreate() {
    return {
      name: 'TeamCreate',
      input: {
        team_name: TEAM.name,
        description: 'does the team tasks',
        members: TEAM.members.map((name) => ({ name, agent_type: 'general-purpose', prompt: `Team member ${name}. Work through the team's tasks.` })),
        tasks: TEAM.tasks.map((subject) => ({ subject }))
      }
    }
  }
  return state
}

/**
 * For a failed report count: each agent whose report the main agent's last request lacks, with what its
 * conversation says of it (the Agent call's result, or a notification naming it), to tell a lost report from one
 * never asked for.
 */
export function missingReports(p: CrashProject, requests: ParsedRequest[]): string[] {
  const main = requests.filter((r) => !r.isSummaryRequest && agentOf(r) === null && !/^Team member /.test(r.firstUserText)).at(-1)
  if (!main) return ['no request of the main agent']
  const all = texts(main)
  const agentCalls = calls(main, 'Agent')
  return p.agents.all
    .filter((n) => !all.includes(reportMarker(n)))
    .map((n) => {
      const made = agentCalls.filter((c) => c.input.description === n)
      const told = made.map((c) => (c.result === undefined ? 'unanswered' : c.result.slice(0, 300)))
      const mentions = all.split(n).length - 1
      const last = all.lastIndexOf(n)
      const around = last < 0 ? '' : `; last named in: ${all.slice(Math.max(0, last - 300), last + 300)}`
      return `${n}: ${made.length} Agent call(s) [${told.join(' | ')}]; named ${mentions} times in the conversation${around}`
    })
}

/** Each agent's life in one line (its name, then its key events in order), for a failure's message. */
export function lifeLines(p: CrashProject, sessionId: string): string[] {
  const KEY = new Set(['agent_start', 'agent_end', 'message_received', 'tool_run', 'tool_end', 'message'])
  return Object.entries(transcriptTexts(p, sessionId)).map(([id, text]) => {
    const name = p.agents.all.find((n) => startedAs(text, n)) ?? id
    const steps = text.split('\n').flatMap((l) => {
      const type = /"type":"(\w+)"/.exec(l)?.[1]
      if (!type || !KEY.has(type)) return []
      const status = type === 'agent_end' ? `(${/"status":"(\w+)"/.exec(l)?.[1]})` : ''
      const tool = type === 'tool_run' || type === 'tool_end' ? `(${/"name":"(\w+)"/.exec(l)?.[1]})` : ''
      return [`${type}${status}${tool}`]
    })
    return `${name}: ${steps.join(' ')}`
  })
}

/** The session's team log (written by TeamCreate). */
export function teamLog(p: CrashProject): string {
  const [id] = sessionIds(p)
  return join(p.dataDir, 'sessions', id ?? 'none', 'team', 'log.jsonl')
}

export async function startCrashServer(script: CrashScript): Promise<ScriptedServer> {
  return startScriptedServer({ respond: (req) => script.respond(req) })
}

/** A crash test's start: the project (`size` agents), its script with `holds`, and the server playing it. End it with endCrashTest. */
export async function startCrashTest(
  size: number | undefined,
  holds: Holds,
  opts: { team?: boolean | 'abandon' } = {}
): Promise<{ p: CrashProject; script: CrashScript; server: ScriptedServer }> {
  const p = crashProject(size)
  const script = crashScript(p, holds, opts)
  const server = await startCrashServer(script)
  return { p, script, server }
}

/**
 * The end of a crash test, passed or failed: the script stops holding requests, the project is let go, the
 * server closes and the project's folder is removed (kept, to look into, with FANOUT_KEEP_CRASH=1).
 */
export async function endCrashTest(p: CrashProject, script: CrashScript, server: ScriptedServer): Promise<void> {
  script.killed = true
  p.release()
  await server.close()
  if (!process.env.FANOUT_KEEP_CRASH) rmSync(p.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 })
}

export interface Run {
  child: ChildProcess
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

/** `fanout run` in its own process group (so a kill takes git and the hooks it started too). */
export function startRun(p: CrashProject, url: string, args: string[]): Run {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'bin/fanout'), 'run', '--cwd', p.project, '--permission-mode', 'bypassPermissions', '--output-format', 'json', ...args],
    {
      cwd: p.project,
      env: { ...process.env, ...p.env(url) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true
    }
  )
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d) => (stdout += d))
  child.stderr!.on('data', (d) => (stderr += d))
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  )
  return { child, done }
}

export function killGroup(run: Run): void {
  try {
    process.kill(-run.child.pid!, 'SIGKILL')
  } catch {
    run.child.kill('SIGKILL')
  }
}

export async function until(what: string, cond: () => boolean, run?: Run, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs
  let exited = false
  void run?.done.then(() => (exited = true))
  while (!cond()) {
    if (exited) throw new Error(`the run ended before ${what}`)
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 15))
  }
}

export function sessionIds(p: CrashProject): string[] {
  const dir = join(p.dataDir, 'sessions')
  return existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith('.')) : []
}

export const agentsDir = (p: CrashProject, sessionId: string) => join(p.dataDir, 'sessions', sessionId, 'agents')

/**
 * Lines of every transcript of the session, by agent id (file name), as text. Read while a run may be going: a
 * transcript opened ahead for an agent that never started is removed as its writer closes (jsonl-writer.ts), so one
 * listed may be gone by its read; it is left out, as it would be from a listing a moment later.
 */
export function transcriptTexts(p: CrashProject, sessionId: string): Record<string, string> {
  const dir = agentsDir(p, sessionId)
  if (!existsSync(dir)) return {}
  const texts: Record<string, string> = {}
  for (const n of readdirSync(dir)) {
    if (!n.endsWith('.jsonl')) continue
    try {
      texts[n.slice(0, -6)] = readFileSync(join(dir, n), 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
  }
  return texts
}

/** Whether a transcript is the one of the subagent started for `name` (its agent_start says so; its parent's Agent call says it too). */
const startedAs = (text: string, name: string) =>
  text.split('\n').some((l) => l.includes('"type":"agent_start"') && (l.includes(`"prompt":"Task ${name}"`) || l.includes(`"prompt":"Task ${name}\\n`)))

/** The agent id of the subagent started for `name`, from the transcripts. */
export function agentIdOf(p: CrashProject, sessionId: string, name: string): string | null {
  for (const [id, text] of Object.entries(transcriptTexts(p, sessionId))) if (startedAs(text, name)) return id
  return null
}

export interface Findings {
  /** Transcript problems other than a torn last line. */
  unreadable: string[]
  /** Deliveries received and never consumed, or consumed twice, or received twice. */
  lost: string[]
  twice: string[]
  /** A run started while another run of the same agent was open. */
  runTwice: string[]
}

/** Reads every transcript back (only a torn last line is allowed right after a kill) and checks deliveries and runs. */
export async function inspect(p: CrashProject, sessionId: string, opts: { afterKill: boolean }): Promise<Findings> {
  const f: Findings = { unreadable: [], lost: [], twice: [], runTwice: [] }
  const dir = agentsDir(p, sessionId)
  for (const name of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.jsonl')) : []) {
    const t = await readTranscript(join(dir, name))
    for (const issue of t.issues) {
      // Right after a kill only the last line may be torn; after a resume that fragment sits mid-file (skipped, said).
      if (issue.kind === 'torn-last-line' || (!opts.afterKill && issue.kind === 'corrupt-line')) continue
      f.unreadable.push(issue.message)
    }
    checkRuns(t.events, name, f)
    if (!opts.afterKill) checkDeliveries(t.events, name, f)
  }
  return f
}

function checkRuns(events: AgentEvent[], name: string, f: Findings): void {
  let open = false
  for (const e of events) {
    if (e.type === 'agent_start') {
      if (open) f.runTwice.push(`${name}: agent_start at ${e.ts} while its previous run had not ended`)
      open = true
    } else if (e.type === 'agent_end') open = false
  }
}

function checkDeliveries(events: AgentEvent[], name: string, f: Findings): void {
  const received = new Map<string, number>()
  const consumed = new Map<string, number>()
  for (const e of events) {
    if (e.type === 'message_received' && e.deliveryId) received.set(e.deliveryId, (received.get(e.deliveryId) ?? 0) + 1)
    if (e.type === 'message') for (const id of e.deliveries ?? []) consumed.set(id, (consumed.get(id) ?? 0) + 1)
  }
  for (const [id, n] of received) {
    if (n > 1) f.twice.push(`${name}: ${id} received ${n} times`)
    const c = consumed.get(id) ?? 0
    if (c === 0) f.lost.push(`${name}: ${id} received, never read`)
    if (c > 1) f.twice.push(`${name}: ${id} read ${c} times`)
  }
}

/** Files an isolated agent wrote that are in no commit of the repository: changes lost. */
export function lostWorktreeChanges(p: CrashProject): string[] {
  return p.agents.editors.filter((name) => git(p.project, 'log', '--all', '--format=%H', '--', `${name}.txt`) === '')
}

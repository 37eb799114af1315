// The differential harness: one scenario (project files, hooks to record, a scripted model, a prompt and
// command-line options) run through Claude Code and through Fanout, each in its own copy of the project, its
// own HOME and its own scripted server, so what each one did (stdout, hook payloads, API requests) can be
// compared side by side.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { startScriptedServer, type RecordedRequest, type Respond } from '../../src/main/runtime/model/scripted'
import { ensureCliBundle, runCli } from '../support/cli'
import { readJsonLines, runClaudeCode, type ProcessResult } from './claude-code'

export type Side = 'claude-code' | 'fanout'

export interface RecordedHook {
  /** `Event` or `Event:matcher`, as the scenario named the entry. */
  label: string
  input: Record<string, any>
}

export interface Scenario {
  /** Files of the project (a git repository with one commit), e.g. `.claude/agents/helper.md`. */
  files?: Record<string, string>
  /** Files of the folder that holds the project (above its repository root), e.g. `CLAUDE.md`. */
  outerFiles?: Record<string, string>
  /** Files of the run's HOME, e.g. `.claude/rules/style.md` or `.claude/settings.json`. */
  homeFiles?: Record<string, string>
  /**
   * Hook entries that record their input; `label` defaults to `event:matcher`. A hook may also answer: `stdout`
   * (e.g. a JSON object), `stderr` and its exit `code` (default 0).
   */
  hooks?: Array<{ event: string; matcher?: string; label?: string; stdout?: string; stderr?: string; code?: number }>
  /** More settings for `.claude/settings.json` (beside the hooks). */
  settings?: Record<string, unknown>
  respond: Respond
  prompt: string
  /** Options for both (`--output-format json` ...), after `-p PROMPT`. */
  args?: string[]
  /** Options for one side only. */
  sideArgs?: Partial<Record<Side, string[]>>
  env?: Record<string, string>
  /** Fanout's own settings.json (its data folder), for what Claude Code reads from the environment. */
  fanoutSettings?: Record<string, unknown>
  /**
   * The whole command line, as a user's script writes it (`-p PROMPT …` is not added). Fanout gets exactly
   * these words too, without `run` in front: `alias claude=fanout` must work.
   */
  argv?: string[]
  /** What stdin carries. */
  input?: string
}

export interface SideResult extends ProcessResult {
  side: Side
  project: string
  home: string
  hooks: RecordedHook[]
  /** POST /v1/messages requests, in arrival order. */
  requests: RecordedRequest[]
}

const RECORDER = `import { appendFileSync } from 'node:fs'
const [log, label, stdout = '', stderr = '', code = '0'] = process.argv.slice(2)
let text = ''
process.stdin.on('data', (c) => (text += c))
process.stdin.on('end', () => {
  appendFileSync(log, JSON.stringify({ label, input: JSON.parse(text) }) + '\\n')
  process.stdout.write(stdout)
  process.stderr.write(stderr)
  process.exitCode = Number(code)
})
`

/** One word for sh, whatever it holds (a hook's JSON answer has quotes and braces). */
const shellWord = (s: string) => `'${s.replaceAll("'", "'\\''")}'`

const roots: string[] = []

/** Removes every folder the runs made (call in afterAll). */
export function cleanupRuns(): void {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 })
}

/** Runs `each` over the cases two at a time: each case starts two processes (Claude Code's and Fanout's), and the machine is shared. */
export async function twoAtATime(names: string[], each: (name: string) => Promise<void>): Promise<void> {
  for (let i = 0; i < names.length; i += 2) await Promise.all(names.slice(i, i + 2).map(each))
}

/**
 * For a describe block that compares one scenario: both sides run it once before its tests (each must exit
 * 0), `got` receives the two results, and the runs' folders are removed after.
 */
export function runBothSides(scenario: Scenario, got: (claude: SideResult, fanout: SideResult) => void): void {
  beforeAll(async () => {
    const [claude, fanout] = await Promise.all([runSide('claude-code', scenario), runSide('fanout', scenario)])
    got(claude, fanout)
    expect(claude.code, claude.stderr).toBe(0)
    expect(fanout.code, fanout.stderr).toBe(0)
  }, 180_000)
  afterAll(cleanupRuns)
}

function makeProject(root: string, scenario: Scenario): { project: string; home: string; hookLog: string } {
  const project = join(root, 'project')
  const home = join(root, 'home')
  mkdirSync(join(home, 'tmp'), { recursive: true })
  mkdirSync(project, { recursive: true })
  const hookLog = join(root, 'hooks.jsonl')
  const recorder = join(root, 'record-hook.mjs')
  writeFileSync(recorder, RECORDER)
  for (const [dir, files] of [
    [project, scenario.files],
    [root, scenario.outerFiles],
    [home, scenario.homeFiles]
  ] as const)
    for (const [rel, text] of Object.entries(files ?? {})) {
      const file = join(dir, rel)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, text)
    }
  const hooks: Record<string, unknown[]> = {}
  for (const h of scenario.hooks ?? []) {
    const label = h.label ?? (h.matcher !== undefined ? `${h.event}:${h.matcher}` : h.event)
    ;(hooks[h.event] ??= []).push({
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      hooks: [{ type: 'command', command: ['node', recorder, hookLog, label, h.stdout ?? '', h.stderr ?? '', String(h.code ?? 0)].map(shellWord).join(' ') }]
    })
  }
  if (scenario.hooks?.length || scenario.settings) {
    mkdirSync(join(project, '.claude'), { recursive: true })
    writeFileSync(join(project, '.claude/settings.json'), JSON.stringify({ ...scenario.settings, ...(scenario.hooks?.length ? { hooks } : {}) }, null, 2))
  }
  // The folder is trusted, as a user's own project is (Claude Code ignores a project's permission rules otherwise).
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('-c', 'user.email=kit@fanout.invalid', '-c', 'user.name=kit', 'add', '-A')
  git('-c', 'user.email=kit@fanout.invalid', '-c', 'user.name=kit', 'commit', '-q', '--allow-empty', '-m', 'init')
  return { project, home, hookLog }
}

/** Runs the scenario through one side. Claude Code's requests are not validated: it sends `system` messages mid-conversation. */
export async function runSide(side: Side, scenario: Scenario): Promise<SideResult> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `fanout-diff-${side}-`)))
  roots.push(root)
  const { project, home, hookLog } = makeProject(root, scenario)
  const server = await startScriptedServer({ respond: scenario.respond, validate: side === 'fanout' })
  try {
    const args = [...(scenario.argv ?? ['-p', scenario.prompt, ...(scenario.args ?? [])]), ...(scenario.sideArgs?.[side] ?? [])]
    const input = scenario.input !== undefined ? { input: scenario.input } : {}
    let out: ProcessResult
    if (side === 'claude-code') {
      out = await runClaudeCode({ cwd: project, args, baseUrl: server.url, home, ...(scenario.env ? { env: scenario.env } : {}), ...input })
    } else {
      if (scenario.fanoutSettings) {
        mkdirSync(join(root, 'data'), { recursive: true })
        writeFileSync(join(root, 'data', 'settings.json'), JSON.stringify(scenario.fanoutSettings))
      }
      // The person trusts their own project (Claude Code's side has hasTrustDialogAccepted): Fanout asks for
      // that per folder, so its side runs with the folder's hooks, settings and agent modes approved.
      args.push('--trust-project')
      const env = {
        ...scenario.env,
        HOME: home,
        FANOUT_DATA_DIR: join(root, 'data'),
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_AUTH_TOKEN: '',
        TMPDIR: join(home, 'tmp')
      }
      // FANOUT_KIT_REPO=/path/to/another/checkout runs the kit against that build (e.g. main, to see what it fixed).
      const other = process.env.FANOUT_KIT_REPO
      const argv = scenario.argv ? args : ['run', ...args]
      if (other) out = await runCli(argv, { cwd: project, env, timeoutMs: 90_000, bin: join(other, 'bin/fanout'), ...input })
      else {
        ensureCliBundle()
        out = await runCli(argv, { cwd: project, env, timeoutMs: 90_000, ...input })
      }
    }
    return { ...out, side, project, home, hooks: readJsonLines(hookLog, `${side} hook log`) as RecordedHook[], requests: server.messageRequests() }
  } finally {
    await server.close()
  }
}

/** The text of everything a request carries (system prompt, tool descriptions, every message). */
export function requestText(req: RecordedRequest): string {
  const parts: string[] = [req.system]
  for (const t of req.tools) parts.push(t.description ?? '')
  for (const m of req.messages as Array<{ content: unknown }>) {
    if (typeof m.content === 'string') parts.push(m.content)
    else if (Array.isArray(m.content)) for (const b of m.content as any[]) if (typeof b?.text === 'string') parts.push(b.text)
  }
  return parts.join('\n')
}

/**
 * The entries of the "Available agent types …:" block a request carries (the last such block), one string per
 * agent: `- name: description (Tools: …)`, a description over several lines kept whole. The block ends at
 * the first blank line.
 */
export function agentListingLines(req: RecordedRequest): string[] {
  const text = requestText(req)
  let found: string[] = []
  for (const m of text.matchAll(/^Available agent types[^\n]*:\n/gm)) {
    const rest = text.slice(m.index + m[0].length)
    const block = rest.slice(0, rest.search(/\n\s*\n|$/))
    if (!block.startsWith('- ')) continue
    found = block.split(/\n(?=- [^\s:][^:\n]*: )/)
  }
  return found
}

/** Every text a request carries joined: `conversation(req).includes('MARKER')` routes a scripted reply. */
export function conversation(req: { messages: Array<{ content: unknown }> }): string {
  return JSON.stringify(req.messages)
}

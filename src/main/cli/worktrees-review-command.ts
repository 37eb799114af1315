// `fanout worktrees diff|merge|discard|preview`: the CLI twin of the app's Changes view. What isolated agents
// changed on their branches, the conflict preview, merging into the current branch (all or nothing each,
// stopping at the first conflict with a non-zero exit that names the files) and discarding after a yes.
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import type { AgentChanges, ChangedFile, MergePreview, MergeStop } from '../../shared/review'
import { resolveDataDir } from '../runtime/store/data-dir'
import { AgentWorkReview, discardWarning, ReviewError } from '../runtime/review'
import { runGitRaw, runGitResult } from '../runtime/worktrees/git'
import { errorMessage } from '../../shared/error-message'

export const REVIEW_USAGE: Record<string, string> = {
  diff: `Usage: fanout worktrees diff [AGENT|BRANCH...] [--stat] [--cwd DIR]
  What agents changed on their branches (every agent branch when none is named): commits, files with
  line counts, then the diff against where the branch forks from the current branch. Changes an agent has
  not committed yet (still at work, or cut off by a crash) follow, marked as such. --stat: no diff.
  AGENT is an agent id, a unique id prefix (4+ characters) or an agent type; BRANCH is fanout/<id>.
`,
  merge: `Usage: fanout worktrees merge [AGENT|BRANCH...] [--all] [--squash] [--cwd DIR]
  Merges agents' branches into the branch checked out in DIR, each all or nothing: a dirty checkout or a
  conflict is refused before anything changes (no MERGE_HEAD, no conflict markers). Several are merged in
  an order that avoids conflicts where one exists; it stops at the first real conflict, names the agents
  and files, keeps that branch and the rest, and exits 1. A merged agent's worktree and branch are removed.
  --all      every agent branch whose agent is not still running
  --squash   one ordinary commit per agent instead of a merge commit
`,
  discard: `Usage: fanout worktrees discard AGENT|BRANCH... [--yes] [--cwd DIR]
  Deletes agents' work: their worktree (uncommitted files included) and branch. Says exactly what is lost
  and asks first (a "y" on stdin); --yes skips the question. Exits 1 when nothing was confirmed.
`,
  preview: `Usage: fanout worktrees preview [--json] [--cwd DIR]
  Before merging: for each agent with work to land, whether its branch merges cleanly into the current
  branch; for each pair of agents, the files both changed and whether their branches merge with each other
  (git merge-tree dry runs: nothing is touched); and the order "merge --all" takes. Exits 1 when merging
  all would stop at a conflict.
`
}

const out = (s: string) => process.stdout.write(s)
const err = (s: string) => process.stderr.write(s)

const STATUS_LETTER: Record<ChangedFile['status'], string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R', copied: 'C', 'type-changed': 'T' }
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
const who = (c: { agentType?: string; agentId: string; description?: string }) =>
  `${c.agentType ? `${c.agentType} agent` : 'agent'} ${c.agentId}${c.description ? ` "${c.description}"` : ''}`

function fileLine(f: ChangedFile): string {
  const name = f.oldPath ? `${f.oldPath} → ${f.path}` : f.path
  const counts = f.binary ? 'binary' : `+${f.additions} −${f.deletions}`
  return `    ${STATUS_LETTER[f.status]}  ${name}  ${counts}\n`
}

function summary(c: AgentChanges): string {
  const state = {
    running: 'still working',
    ready: `${plural(c.commits.length, 'commit')}, ${plural(c.files.length, 'file')}, +${c.additions} −${c.deletions}`,
    merged: 'already on the current branch',
    empty: 'no changes'
  }[c.state]
  let s = `${c.branch}  ${who(c)}  (${state})\n`
  s += `  worktree: ${c.worktreePath ?? '(folder gone; the work is on the branch)'}\n`
  if (c.commits.length) s += `  commits:\n${c.commits.map((k) => `    ${k.sha.slice(0, 10)}  ${k.subject}\n`).join('')}`
  if (c.files.length) s += `  files:\n${c.files.map(fileLine).join('')}`
  if (c.uncommitted.length) s += `  not committed yet (in the worktree):\n${c.uncommitted.map(fileLine).join('')}`
  return s
}

/** git's own diff output (colored on a terminal), whatever its exit status (`--no-index` exits 1 on a difference). */
function gitDiff(dir: string, args: string[]): Promise<string> {
  const color = process.stdout.isTTY ? '--color=always' : '--no-color'
  return runGitResult(dir, ['diff', color, ...args], { allowExitCodes: [1], maxBuffer: 512 * 1024 * 1024 }).then((r) => r.stdout.toString('utf8'))
}

/** New files git does not track yet (shown whole, as additions). */
async function untracked(dir: string): Promise<string[]> {
  return (await runGitRaw(dir, ['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter(Boolean)
}

async function diff(review: AgentWorkReview, cwd: string, names: string[], stat: boolean): Promise<number> {
  const list = await review.list(cwd, names.length ? (await review.resolve(cwd, names)).map((b) => b.agentId) : undefined)
  if (!list.agents.length) {
    out('No agent branches: no isolated agent has work waiting here.\n')
    return 0
  }
  for (const c of list.agents) {
    out(summary(c))
    if (stat) continue
    if (c.files.length)
      out('\n' + (await gitDiff(list.checkout.root, ['-M', `${list.checkout.head ? `${list.checkout.head}...` : `${c.baseCommit}..`}${c.tip}`])))
    if (c.uncommitted.length && c.worktreePath) {
      out(`\n# not committed yet, in ${c.worktreePath}:\n`)
      out(await gitDiff(c.worktreePath, ['-M', 'HEAD']))
      for (const f of await untracked(c.worktreePath)) out(await gitDiff(c.worktreePath, ['--no-index', '--', '/dev/null', f]))
    }
    out('\n')
  }
  return 0
}

function stopText(s: MergeStop): string {
  return `fanout worktrees merge: stopped at ${s.branch}: ${s.message}\n${s.files.map((f) => `  ${f}\n`).join('')}`
}

async function merge(review: AgentWorkReview, cwd: string, names: string[], all: boolean, squash: boolean): Promise<number> {
  if (!names.length && !all) {
    err(`fanout worktrees merge: name the agents to merge, or --all\n\n${REVIEW_USAGE.merge}`)
    return 2
  }
  const onWait = (message: string) => err(`fanout worktrees merge: ${message}\n`)
  const r = await review.merge(cwd, { agents: names, all, strategy: squash ? 'squash' : 'merge', onWait })
  for (const s of r.skipped) out(`skipped: ${s}\n`)
  for (const m of r.merged) {
    const how = m.files === 0 ? 'was already on' : `${m.strategy === 'merge' ? 'merged into' : 'squashed onto'}`
    out(
      `${m.branch} ${how} ${r.into} as ${m.commit.slice(0, 10)}${m.files ? ` (${plural(m.files, 'file')})` : ''}; ${m.cleanup ?? 'worktree and branch removed'}\n`
    )
  }
  if (r.stopped) {
    err(stopText(r.stopped))
    err(`not merged (branches kept): ${r.notMerged.join(', ')}\n`)
    return 1
  }
  if (!r.merged.length && !r.skipped.length) out('Nothing to merge: no agent branches here.\n')
  return 0
}

async function confirm(question: string): Promise<boolean> {
  out(question)
  const rl = createInterface({ input: process.stdin, terminal: false })
  const line = await new Promise<string | null>((done) => {
    rl.once('line', (l) => done(l))
    rl.once('close', () => done(null))
  })
  rl.close()
  if (line === null) out('\n')
  return /^\s*y(es)?\s*$/i.test(line ?? '')
}

async function discard(review: AgentWorkReview, cwd: string, names: string[], yes: boolean): Promise<number> {
  if (!names.length) {
    err(`fanout worktrees discard: name the agents whose work to discard\n\n${REVIEW_USAGE.discard}`)
    return 2
  }
  const branches = await review.resolve(cwd, names)
  const list = await review.list(
    cwd,
    branches.map((b) => b.agentId)
  )
  let refused = 0
  for (const c of list.agents) {
    out(summary(c))
    out(`${discardWarning(c)}\n`)
    if (!yes && !(await confirm(`Discard ${c.branch}? [y/N] `))) {
      out(`Not discarded: ${c.branch} is kept.\n`)
      refused++
      continue
    }
    const done = await review.discard(cwd, c.agentId, c.tip, { onWait: (message) => err(`fanout worktrees discard: ${message}\n`) })
    out(
      `discarded ${done.branch}: ${done.removedWorktree ? 'worktree removed, ' : ''}${done.deletedBranch ? 'branch deleted' : 'branch kept (it moved)'}${c.commits.length ? ` (its last commit was ${c.tip.slice(0, 10)})` : ''}\n`
    )
  }
  return refused ? 1 : 0
}

/** Agents are numbered in the preview, so the pair table stays narrow however long their ids. */
function matrix(p: MergePreview): string {
  const n = p.agents.length
  const cell = (i: number, j: number) => {
    if (i === j) return '—'
    const [a, b] = [p.agents[i].agentId, p.agents[j].agentId]
    const pair = p.pairs.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a))!
    return !pair.result.clean ? 'CONFLICT' : pair.overlap.length ? `shared ${pair.overlap.length}` : 'ok'
  }
  const w = 10
  let s =
    '      ' +
    Array.from({ length: n }, (_, j) => String(j + 1).padEnd(w))
      .join('')
      .trimEnd() +
    '\n'
  for (let i = 0; i < n; i++)
    s +=
      `  ${String(i + 1).padEnd(4)}` +
      Array.from({ length: n }, (_, j) => cell(i, j).padEnd(w))
        .join('')
        .trimEnd() +
      '\n'
  return s
}

async function preview(review: AgentWorkReview, cwd: string, json: boolean): Promise<number> {
  const p = await review.preview(cwd)
  if (json) {
    out(JSON.stringify(p, null, 2) + '\n')
    return p.blocked ? 1 : 0
  }
  const into = p.checkout.branch ?? 'the detached HEAD'
  out(
    `Current branch: ${into}${p.checkout.head ? ` (${p.checkout.head.slice(0, 10)})` : ''}${p.checkout.dirtyFiles.length ? ' — it has uncommitted changes: merging is refused until they are committed or stashed' : ''}\n`
  )
  if (!p.agents.length) {
    out('No agent has work to merge.\n')
    return 0
  }
  const number = new Map(p.agents.map((a, i) => [a.agentId, String(i + 1)]))
  const typeWidth = Math.max(...p.agents.map((a) => (a.agentType ?? 'agent').length))
  const branchWidth = Math.max(...p.agents.map((a) => a.branch.length))
  out('\nAgents with work to merge, each against the current branch:\n')
  for (const [i, a] of p.agents.entries()) {
    const verdict = a.againstHead.clean ? `merges cleanly into ${into}` : `CONFLICTS with ${into} in ${a.againstHead.conflicts.join(', ')}`
    const files = plural(a.files.length, 'file')
    out(
      `  ${String(i + 1).padEnd(3)}${(a.agentType ?? 'agent').padEnd(typeWidth + 2)}${a.branch.padEnd(branchWidth + 2)}${files.padEnd(10)}${verdict}${a.uncommitted ? ` (${plural(a.uncommitted, 'uncommitted file')} will be committed first)` : ''}\n`
    )
  }
  if (p.pairs.length) {
    out('\nEach pair (ok: no file in common; shared N: N files both changed, merging cleanly; CONFLICT: they do not merge):\n')
    out(matrix(p))
    const label = (id: string) => `${number.get(id)} × `
    for (const pair of p.pairs.filter((x) => !x.result.clean)) out(`  ${label(pair.a)}${number.get(pair.b)}: conflict in ${pair.result.conflicts.join(', ')}\n`)
    for (const pair of p.pairs.filter((x) => x.result.clean && x.overlap.length))
      out(`  ${label(pair.a)}${number.get(pair.b)}: both changed ${pair.overlap.join(', ')} (they merge cleanly)\n`)
  }
  const names = (ids: string[]) => ids.map((id) => `${number.get(id)} (${p.agents.find((a) => a.agentId === id)!.agentType ?? id})`).join(', ')
  out(
    `\nmerge --all would merge ${p.order.length ? names(p.order) : 'nothing'}${p.blocked ? `, then stop at ${names([p.blocked.agentId])}: ${p.blocked.message}` : ''}\n`
  )
  if (p.blocked) for (const f of p.blocked.files) out(`  ${f}\n`)
  return p.blocked ? 1 : 0
}

const OPTIONS = {
  cwd: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  all: { type: 'boolean' },
  squash: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  stat: { type: 'boolean' },
  json: { type: 'boolean' }
} as const

export async function worktreesReviewCommand(sub: string, argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS })
  } catch (e) {
    err(`fanout worktrees ${sub}: ${errorMessage(e)}\n\n${REVIEW_USAGE[sub]}`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.help) {
    out(REVIEW_USAGE[sub])
    return 0
  }
  const allowed: Record<string, string[]> = { diff: ['stat'], merge: ['all', 'squash'], discard: ['yes'], preview: ['json'] }
  const stray = Object.keys(values).filter((k) => k !== 'cwd' && k !== 'help' && !allowed[sub].includes(k))
  if (stray.length || (sub === 'preview' && positionals.length)) {
    err(`fanout worktrees ${sub}: ${stray.length ? `--${stray[0]} does not apply here` : 'preview takes no agent names'}\n\n${REVIEW_USAGE[sub]}`)
    return 2
  }
  const cwd = resolve(values.cwd ?? process.cwd())
  // Another merge or discard in the repository (another process, the app) is waited for, and said on stderr.
  const review = new AgentWorkReview({ app: `fanout worktrees ${sub}`, dataDir: resolveDataDir() })
  try {
    if (sub === 'diff') return await diff(review, cwd, positionals, values.stat === true)
    if (sub === 'merge') return await merge(review, cwd, positionals, values.all === true, values.squash === true)
    if (sub === 'discard') return await discard(review, cwd, positionals, values.yes === true)
    return await preview(review, cwd, values.json === true)
  } catch (e) {
    if (e instanceof ReviewError) {
      err(`fanout worktrees ${sub}: ${e.message}\n`)
      return e.code === 'invalid_request' || e.code === 'not_found' ? 2 : 1
    }
    throw e
  }
}

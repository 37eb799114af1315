// `fanout worktrees list|clean`: agent worktrees left behind by a crash or a killed process, and their
// cleanup. Cleanup never loses work: a worktree with uncommitted changes is kept unless --force, which
// commits the changes to the agent's branch first; branches that hold work are always kept.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { cleanupOrphanWorktree, findOrphanWorktrees, type OrphanWorktree } from '../runtime/worktrees'
import { errorMessage } from '../../shared/error-message'

export const WORKTREES_USAGE = `Usage:
  fanout worktrees list [--cwd DIR]             agent worktrees whose agent is no longer running
  fanout worktrees clean [--cwd DIR] [--force]  remove them; --force also removes ones with uncommitted
                                                changes, after committing those to the agent's branch
  fanout worktrees diff [AGENT|BRANCH...]       what agents changed on their branches
  fanout worktrees preview                      which agents' branches merge cleanly, with HEAD and each other
  fanout worktrees merge [AGENT|BRANCH...] [--all] [--squash]
                                                merge into the current branch, stopping at a conflict
  fanout worktrees discard AGENT|BRANCH... [--yes]
                                                delete agents' worktrees and branches, after a yes
  Each takes --cwd DIR and --help.
`

export function describeOrphan(o: OrphanWorktree): string {
  const what = [o.agentType && `${o.agentType} agent`, o.description && `"${o.description}"`].filter(Boolean).join(' ') || `agent ${o.agentId}`
  const state = o.halfMade
    ? 'left half made by a stopped git worktree add'
    : !o.exists
      ? 'folder deleted'
      : o.uncommittedChanges
        ? 'uncommitted changes'
        : o.commitsAhead
          ? `${o.commitsAhead} commit${o.commitsAhead === 1 ? '' : 's'} on ${o.branch}`
          : 'no changes'
  return `${o.path}  (${what}; ${state})`
}

export async function worktreesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === 'diff' || sub === 'merge' || sub === 'discard' || sub === 'preview')
    return (await import('./worktrees-review-command')).worktreesReviewCommand(sub, rest)
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(WORKTREES_USAGE)
    return 0
  }
  if (sub !== 'list' && sub !== 'clean') {
    process.stderr.write(WORKTREES_USAGE)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(WORKTREES_USAGE)
    return 0
  }
  let values: { cwd?: string; force?: boolean }
  try {
    values = parseArgs({ args: rest, options: { cwd: { type: 'string' }, force: { type: 'boolean' } }, strict: true }).values
  } catch (err) {
    process.stderr.write(`fanout worktrees: ${errorMessage(err)}\n\n${WORKTREES_USAGE}`)
    return 2
  }
  const cwd = resolve(values.cwd ?? process.cwd())
  const orphans = await findOrphanWorktrees({ repoCwd: cwd })
  if (!orphans.length) {
    process.stdout.write('No agent worktrees are left behind.\n')
    return 0
  }
  if (sub === 'list') {
    for (const o of orphans) process.stdout.write(`${describeOrphan(o)}\n`)
    return 0
  }
  let kept = 0
  for (const o of orphans) {
    const r = await cleanupOrphanWorktree(o, { force: values.force === true })
    if (r.removed) {
      const branch = r.branchDeleted ? 'branch deleted' : `branch ${o.branch} kept${r.commit ? ` (uncommitted changes saved as ${r.commit.slice(0, 12)})` : ''}`
      process.stdout.write(`removed ${o.path}; ${branch}\n`)
    } else {
      kept++
      process.stdout.write(`kept ${o.path}: ${r.reason ?? 'not removed'}\n`)
    }
  }
  return kept ? 1 : 0
}

// The conflict preview: for each agent with work to land, whether its branch merges cleanly into the current
// branch, whether each pair of agents' branches merge with each other (and which files both touched), and
// the order "merge all" takes — found by merging in memory one branch after another, taking next whichever
// merges cleanly onto what is merged so far. Nothing is touched: only unreferenced objects are written.
import type { AgentChanges, DryRun, MergePreview, MergeStop, PreviewPair, CheckoutState } from '../../../shared/review'
import { runGit } from '../worktrees/git'
import type { AgentBranch } from './agent-branches'
import { mergeTrees } from './dry-run'
import { agentLabel } from './merge-one'

/** Past this many agents, pairs that share no file are not dry-run (they merge cleanly but for rare directory/file clashes). */
const ALL_PAIRS_UP_TO = 20

/** Identity for the in-memory commits of the simulation (never referenced, never seen). */
const SIM_IDENTITY = ['user.name=Fanout preview', 'user.email=fanout-preview@localhost.invalid']

export const touched = (c: AgentChanges): string[] => [...new Set(c.files.flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path])))]

export interface MergePlan {
  order: string[]
  blocked: MergeStop | null
}

/**
 * The order to merge `candidates` onto `head`: repeatedly the first (in start order) that merges cleanly onto
 * what is merged so far. Stops at the first agent none of the rest can get past, naming its conflicts and the
 * agents (already in the order) that touched those files.
 */
export async function planMerges(
  dir: string,
  head: string,
  candidates: AgentBranch[],
  filesOf: (id: string) => string[],
  branchName: string | null
): Promise<MergePlan> {
  const order: string[] = []
  let current = head
  const remaining = [...candidates]
  while (remaining.length) {
    let picked: { index: number; tree: string } | null = null
    let firstConflict: { branch: AgentBranch; result: DryRun } | null = null
    for (let i = 0; i < remaining.length; i++) {
      const r = await mergeTrees(dir, current, remaining[i].tip)
      if (r.clean) {
        picked = { index: i, tree: r.tree }
        break
      }
      firstConflict ??= { branch: remaining[i], result: r }
    }
    if (!picked) {
      const b = firstConflict!.branch
      const files = firstConflict!.result.conflicts
      const withAgents = order.filter((id) => filesOf(id).some((f) => files.includes(f)))
      const whom = withAgents.length ? withAgents.map((id) => `agent ${id}`).join(', ') : (branchName ?? 'the current commit')
      return {
        order,
        blocked: {
          agentId: b.agentId,
          branch: b.branch,
          reason: 'conflict',
          message: `The ${agentLabel(b)} conflicts with ${whom} in ${files.join(', ') || 'its files'}.`,
          files,
          with: withAgents
        }
      }
    }
    const [b] = remaining.splice(picked.index, 1)
    order.push(b.agentId)
    if (remaining.length)
      current = await runGit(dir, ['commit-tree', picked.tree, '-p', current, '-p', b.tip, '-m', 'fanout merge preview'], { config: SIM_IDENTITY })
  }
  return { order, blocked: null }
}

export async function previewMerges(dir: string, checkout: CheckoutState, branches: AgentBranch[], changes: Map<string, AgentChanges>): Promise<MergePreview> {
  const ready = branches.filter((b) => changes.get(b.agentId)?.state === 'ready')
  const filesOf = (id: string) => touched(changes.get(id)!)
  const head = checkout.head
  const agents: MergePreview['agents'] = []
  for (const b of ready) {
    const c = changes.get(b.agentId)!
    agents.push({
      agentId: b.agentId,
      branch: b.branch,
      ...(b.agentType ? { agentType: b.agentType } : {}),
      ...(b.description ? { description: b.description } : {}),
      files: filesOf(b.agentId),
      againstHead: head ? await mergeTrees(dir, head, b.tip).then(({ clean, conflicts }) => ({ clean, conflicts })) : { clean: true, conflicts: [] },
      uncommitted: c.uncommitted.length
    })
  }
  const pairs: PreviewPair[] = []
  for (let i = 0; i < ready.length; i++) {
    for (let j = i + 1; j < ready.length; j++) {
      const [a, b] = [ready[i], ready[j]]
      const bFiles = new Set(filesOf(b.agentId))
      const overlap = filesOf(a.agentId).filter((f) => bFiles.has(f))
      const result: DryRun =
        overlap.length || ready.length <= ALL_PAIRS_UP_TO
          ? await mergeTrees(dir, a.tip, b.tip).then(({ clean, conflicts }) => ({ clean, conflicts }))
          : { clean: true, conflicts: [] }
      pairs.push({ a: a.agentId, b: b.agentId, overlap, result })
    }
  }
  const plan = head ? await planMerges(dir, head, ready, filesOf, checkout.branch) : { order: [], blocked: null }
  return { checkout, agents, pairs, order: plan.order, blocked: plan.blocked }
}

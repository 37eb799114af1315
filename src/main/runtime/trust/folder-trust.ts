// Whether each thing a folder brings may take effect, and recording the person's answer. An item is
// approved by, in this order: the `--trust-project` flag; the person's answer in Fanout for this folder
// (approved or declined, for exactly this content); Claude Code's settings (enabledMcpjsonServers and the
// like, .mcp.json servers only, see claude-approvals.ts). Anything else waits, and nothing waiting runs.
import { createHash } from 'node:crypto'
import type { FolderTrust, FolderTrustState, ProjectCommand, TrustItem } from '../../../shared/trust'
import { HostCallError } from '../../../shared/host-call-error'
import { folderKey, readFolderAnswer, writeFolderAnswer, type FolderAnswer } from './trust-store'
import type { Collected } from './scan'

export interface TrustOptions {
  /** Where the person's answers are kept; absent: only the flag and Claude Code's settings approve. */
  dataDir?: string
  /** The folder whose answers apply (a "Try it" worktree uses its project's). */
  trustFolder: string
  /** `--trust-project`: everything the folder brings is approved for this run. */
  trustAll?: boolean
  /** Claude Code's approval of a .mcp.json server by name: the file that approves it, or null. */
  claudeApproves?: (serverName: string) => string | null
}

/** listHash of the empty list (the first half of sha256 of nothing): a folder that brings no commands is hashed without loading node:crypto at start. */
export const EMPTY_LIST_HASH = 'e3b0c44298fc1c149afbf4c8996fb924'

export function listHash(items: readonly ProjectCommand[]): string {
  if (items.length === 0) return EMPTY_LIST_HASH
  return createHash('sha256')
    .update(
      items
        .map((i) => i.hash)
        .sort()
        .join('\n')
    )
    .digest('hex')
    .slice(0, 32)
}

export function evaluateTrust(collected: Collected & { problems?: string[] }, opts: TrustOptions): FolderTrust {
  const { answer, problem } = opts.dataDir ? readFolderAnswer(opts.dataDir, opts.trustFolder) : { answer: null }
  const approved = new Set(answer?.approved)
  const declined = new Set(answer?.declined)
  const seen = new Set(answer?.seen)
  const items: TrustItem[] = collected.items.map((item) => {
    if (opts.trustAll) return { ...item, state: 'approved', by: 'flag' }
    if (approved.has(item.hash)) return { ...item, state: 'approved', by: 'you' }
    if (declined.has(item.hash)) return { ...item, state: 'declined' }
    const byClaude = item.kind === 'mcp-server' ? opts.claudeApproves?.(item.name) : null
    if (byClaude) return { ...item, state: 'approved', by: 'claude-settings' }
    return { ...item, state: 'waiting', ...(seen.has(item.id) ? { changed: true } : {}) }
  })
  const state: FolderTrustState = !items.length
    ? 'none'
    : items.some((i) => i.state === 'waiting')
      ? 'waiting'
      : items.some((i) => i.state === 'declined')
        ? 'declined'
        : 'trusted'
  return {
    folder: folderKey(opts.trustFolder),
    state,
    items,
    hash: listHash(items),
    notRun: collected.notRun,
    problems: [...(collected.problems ?? []), ...(problem ? [problem] : [])]
  }
}

/** The approval test the gates use: an item may take effect only if its exact content is approved. */
export function approvedIn(trust: FolderTrust): (item: ProjectCommand) => boolean {
  const ok = new Set(trust.items.filter((i) => i.state === 'approved').map((i) => i.hash))
  return (item) => ok.has(item.hash)
}

export type TrustDecision = 'trust' | 'decline'

/**
 * Records the person's answer for the items they saw. `expectedHash` is the list's hash as shown: when the
 * files changed in between, nothing is recorded and the caller is told to look again.
 */
export async function answerTrust(dataDir: string, trust: FolderTrust, decision: TrustDecision, expectedHash: string): Promise<void> {
  if (trust.hash !== expectedHash)
    throw new HostCallError('conflict', 'What this folder would run changed while you were reviewing it. Review the new list before you answer.')
  const hashes = trust.items.map((i) => i.hash)
  const answer: FolderAnswer = {
    approved: decision === 'trust' ? hashes : [],
    declined: decision === 'decline' ? hashes : [],
    seen: trust.items.map((i) => i.id),
    answeredAt: Date.now()
  }
  await writeFolderAnswer(dataDir, trust.folder, answer)
}

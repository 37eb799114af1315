// Fanout's record of a `git worktree add` it has started: which agent, which folder, which commit is being
// checked out, and which process is doing it. Written before git runs and dropped once the worktree's own
// metadata (metadata.ts) is written, so at every moment one of the two names the agent and its maker.
//
// Why a second record: a kill inside `git worktree add` leaves git's registration without Fanout's metadata
// (written only after git returns), and before git points the worktree's HEAD at the agent's branch nothing
// in it says whose it is. Worse, nothing says whether its maker is still at it: another live Fanout process's
// add in progress looks exactly like a killed one. The record answers both (half-made.ts).
//
// Why here, `<common git folder>/fanout/worktree-adds/<agentId>.json`: not in the worktree's admin folder, which
// git makes (and names) inside the add and removes with the worktree; not beside the worktree folder, which an
// admin folder left before git wrote its `gitdir` names nowhere. The repository's git folder is what every
// Fanout process and `fanout worktrees` already look at (the landed log lives beside it), and no agent
// worktree's sandbox can write it (security/sandbox/git-dir-policy.ts). It decides nothing alone: a worktree
// it names is removed only when git's own files say the add never finished and no file in it is agent work.
import { readdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeJsonAtomic } from '../store/atomic-file'
import { readConfigFile } from '../store/read-config'
import { lazy } from '../../../shared/lazy'
import { metadataSchema } from './metadata'

// Built at first use, as the metadata's (a run without worktrees reads neither).
const pendingSchema = lazy(() =>
  metadataSchema().extend({
    /** The worktree folder given to git. */
    path: z.string(),
    /** The commit git checks out: the start commit, or the tip of the agent's kept branch. */
    checkout: z.string()
  })
)

export type PendingAdd = z.infer<ReturnType<typeof pendingSchema>>

const folder = (commonDir: string) => join(commonDir, 'fanout', 'worktree-adds')
export const pendingAddFile = (commonDir: string, agentId: string) => join(folder(commonDir), `${agentId}.json`)

export async function writePendingAdd(commonDir: string, record: PendingAdd): Promise<void> {
  // No fsync: it guards against a killed process, not a lost disk write (as the metadata).
  await writeJsonAtomic(pendingAddFile(commonDir, record.agentId), record, { fsync: false })
}

/** The agent's record, or null (none, or unreadable: a pipe or a huge file planted there is not read). */
export function readPendingAdd(commonDir: string, agentId: string): PendingAdd | null {
  try {
    const read = readConfigFile(pendingAddFile(commonDir, agentId), 64 * 1024)
    if (!('text' in read)) return null
    const parsed = pendingSchema().safeParse(JSON.parse(read.text))
    return parsed.success && parsed.data.agentId === agentId ? parsed.data : null
  } catch {
    return null
  }
}

/** Every agent's record in the repository. */
export async function pendingAdds(commonDir: string): Promise<PendingAdd[]> {
  const names = await readdir(folder(commonDir)).catch(() => [] as string[])
  return names.flatMap((n) => (n.endsWith('.json') ? (readPendingAdd(commonDir, n.slice(0, -'.json'.length)) ?? []) : []))
}

export async function dropPendingAdd(commonDir: string, agentId: string): Promise<void> {
  await unlink(pendingAddFile(commonDir, agentId)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err
  })
}

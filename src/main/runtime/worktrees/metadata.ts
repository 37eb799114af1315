// Facts about an agent worktree that git does not keep (the commit it started from, which agent made it),
// stored in the worktree's own admin folder (.git/worktrees/<name>/) so git removes them with the worktree.
// A sandboxed agent cannot write it (security/sandbox/git-dir-policy.ts): it is Fanout's record.
import { writeJsonAtomic } from '../store/atomic-file'
import { join } from 'node:path'
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'
import { readConfigFile } from '../store/read-config'
import { findAdminDir } from './git-dirs'

const FILE = 'fanout.json'

// Built at first use: a run without worktrees reads no metadata.
export const metadataSchema = lazy(() =>
  z.object({
    version: z.literal(1),
    agentId: z.string(),
    baseCommit: z.string(),
    repoRoot: z.string(),
    relativeCwd: z.string(),
    createdAt: z.string(),
    agentType: z.string().optional(),
    description: z.string().optional(),
    /** The process using the worktree; its start time tells a live owner from a later process given its pid. */
    owner: z.object({ pid: z.number(), hostname: z.string(), processStart: z.string().nullable().optional() }).optional(),
    /** Set when the agent's run ended and its work was committed; cleared when it runs again (resume). */
    finishedAt: z.string().optional()
  })
)

export type WorktreeMetadata = z.infer<ReturnType<typeof metadataSchema>>

/** The admin folder, found from the repository's common folder (never through the worktree's own `.git` file). */
async function adminDir(worktreePath: string, commonDir: string): Promise<string> {
  const dir = await findAdminDir(commonDir, worktreePath)
  if (!dir) throw new Error(`${worktreePath} is not a worktree of the repository at ${commonDir}`)
  return dir
}

/** Written beside and renamed over: never through whatever stands at the name (a link included). */
export async function writeMetadata(worktreePath: string, commonDir: string, meta: WorktreeMetadata): Promise<void> {
  const dir = await adminDir(worktreePath, commonDir)
  // No fsync: a lost write leaves the metadata before it, which a worktree made by an older build lacks anyway.
  await writeJsonAtomic(join(dir, FILE), meta, { fsync: false, createDir: false })
}

/** Changes some fields of the stored metadata; does nothing when there is none (a worktree made by hand or an older build). */
export async function updateMetadata(worktreePath: string, commonDir: string, patch: Partial<Omit<WorktreeMetadata, 'version'>>): Promise<void> {
  const meta = await readMetadata(worktreePath, commonDir)
  if (!meta) return
  const next: Record<string, unknown> = { ...meta, ...patch }
  for (const [k, v] of Object.entries(next)) if (v === undefined) delete next[k]
  await writeMetadata(worktreePath, commonDir, next as WorktreeMetadata)
}

/**
 * The stored metadata, or null when it is missing or unreadable (a worktree made by an older build or by hand).
 * Found from the repository's common folder, so also when the worktree's folder has been deleted.
 */
export async function readMetadata(worktreePath: string, commonDir: string): Promise<WorktreeMetadata | null> {
  const dir = await findAdminDir(commonDir, worktreePath)
  return dir ? readMetadataIn(dir) : null
}

/** The file's text; it lives in the repository's git folder, so a pipe or a huge file there is refused, not read. */
function readMetadataText(path: string): string {
  const read = readConfigFile(path, 64 * 1024)
  if (!('text' in read)) throw new Error('missing' in read ? 'no metadata' : read.error)
  return read.text
}

/** The metadata in an admin folder (`<common>/worktrees/<name>`). */
export async function readMetadataIn(adminDir: string): Promise<WorktreeMetadata | null> {
  try {
    const parsed = metadataSchema().safeParse(JSON.parse(readMetadataText(join(adminDir, FILE))))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

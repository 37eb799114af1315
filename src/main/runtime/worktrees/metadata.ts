// Facts about an agent worktree that git does not keep (the commit it started from, which agent made it),
// stored in the worktree's own admin folder (.git/worktrees/<name>/) so git removes them with the worktree.
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { z } from 'zod'
import { runGit, tryGit } from './git'

const FILE = 'fanout.json'

const metadataSchema = z.object({
  version: z.literal(1),
  agentId: z.string(),
  baseCommit: z.string(),
  repoRoot: z.string(),
  relativeCwd: z.string(),
  createdAt: z.string(),
  agentType: z.string().optional(),
  description: z.string().optional(),
  owner: z.object({ pid: z.number(), hostname: z.string() }).optional(),
  /** Set when the agent's run ended and its work was committed; cleared when it runs again (resume). */
  finishedAt: z.string().optional()
})

export type WorktreeMetadata = z.infer<typeof metadataSchema>

async function adminDir(worktreePath: string): Promise<string> {
  return runGit(worktreePath, ['rev-parse', '--absolute-git-dir'])
}

export async function writeMetadata(worktreePath: string, meta: WorktreeMetadata): Promise<void> {
  await writeFile(join(await adminDir(worktreePath), FILE), JSON.stringify(meta, null, 2) + '\n', 'utf8')
}

/** Changes some fields of the stored metadata; does nothing when there is none (a worktree made by hand or an older build). */
export async function updateMetadata(worktreePath: string, patch: Partial<Omit<WorktreeMetadata, 'version'>>): Promise<void> {
  const meta = await readMetadata(worktreePath)
  if (!meta) return
  const next: Record<string, unknown> = { ...meta, ...patch }
  for (const [k, v] of Object.entries(next)) if (v === undefined) delete next[k]
  await writeMetadata(worktreePath, next as WorktreeMetadata)
}

/**
 * The stored metadata, or null when it is missing or unreadable (a worktree made by an older build or by hand).
 * With `commonDir`, it is found even when the worktree's folder has been deleted.
 */
export async function readMetadata(worktreePath: string, commonDir?: string): Promise<WorktreeMetadata | null> {
  const dir = (await tryGit(worktreePath, ['rev-parse', '--absolute-git-dir'])) ?? (commonDir ? await findAdminDir(commonDir, worktreePath) : null)
  if (!dir) return null
  try {
    const parsed = metadataSchema.safeParse(JSON.parse(await readFile(join(dir, FILE), 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The admin folder (.git/worktrees/<name>) whose `gitdir` file points into `worktreePath`. */
async function findAdminDir(commonDir: string, worktreePath: string): Promise<string | null> {
  const root = join(commonDir, 'worktrees')
  let names: string[]
  try {
    names = await readdir(root)
  } catch {
    return null
  }
  for (const name of names) {
    try {
      const gitdir = (await readFile(join(root, name, 'gitdir'), 'utf8')).trim()
      if (resolve(dirname(resolve(root, name, gitdir))) === resolve(worktreePath)) return join(root, name)
    } catch {}
  }
  return null
}

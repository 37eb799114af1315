// The person's answers about folders, in `<dataDir>/trusted-folders.json`: for each folder (by its real
// path, so a link to it is the same folder), the hashes of the items approved and of those declined, and
// the ids of the items listed when they answered (so an item whose content changed since can be shown as
// changed rather than new). Shared by the app, browser mode and `fanout run` through the data folder.
import { realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'
import { writeJsonAtomic } from '../store/atomic-file'
import { readConfigJson } from '../store/read-config'

export interface FolderAnswer {
  approved: string[]
  declined: string[]
  /** Ids of every item listed when the person answered. */
  seen: string[]
  answeredAt: number
}

// Built at first use: the store is read only for a folder that runs something by itself.
const FolderAnswerSchema = lazy(() =>
  z.object({
    approved: z.array(z.string()),
    declined: z.array(z.string()),
    seen: z.array(z.string()),
    answeredAt: z.number()
  })
)

const StoreSchema = lazy(() => z.object({ version: z.literal(1), folders: z.record(z.string(), FolderAnswerSchema()) }))
type StoreFile = z.infer<ReturnType<typeof StoreSchema>>

export const trustStorePath = (dataDir: string): string => join(dataDir, 'trusted-folders.json')

/** The folder as the store knows it: its real path (a link to a trusted folder is that folder). */
export function folderKey(folder: string): string {
  try {
    return realpathSync(folder)
  } catch {
    return resolve(folder)
  }
}

function read(dataDir: string): { store: StoreFile; problem?: string } {
  const file = trustStorePath(dataDir)
  const got = readConfigJson(file)
  if ('missing' in got) return { store: { version: 1, folders: {} } }
  if ('error' in got)
    return { store: { version: 1, folders: {} }, problem: `${file} ${got.error}; every folder is treated as not approved until you answer again` }
  const parsed = StoreSchema().safeParse(got.json)
  if (!parsed.success)
    return {
      store: { version: 1, folders: {} },
      problem: `${file} is not a Fanout trusted-folders file; every folder is treated as not approved until you answer again`
    }
  return { store: parsed.data }
}

/** What the person last answered for this folder (null: never), and any problem reading the file. */
export function readFolderAnswer(dataDir: string, folder: string): { answer: FolderAnswer | null; problem?: string } {
  const { store, problem } = read(dataDir)
  return { answer: store.folders[folderKey(folder)] ?? null, ...(problem ? { problem } : {}) }
}

/** Records an answer (replacing the folder's earlier one). */
export async function writeFolderAnswer(dataDir: string, folder: string, answer: FolderAnswer): Promise<void> {
  const { store } = read(dataDir)
  store.folders[folderKey(folder)] = answer
  await writeJsonAtomic(trustStorePath(dataDir), store, { mode: 0o600 })
}

/** Forgets the folder's answer: everything it brings waits again. */
export async function forgetFolder(dataDir: string, folder: string): Promise<boolean> {
  const { store } = read(dataDir)
  const key = folderKey(folder)
  if (!store.folders[key]) return false
  delete store.folders[key]
  await writeJsonAtomic(trustStorePath(dataDir), store, { mode: 0o600 })
  return true
}

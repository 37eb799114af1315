// Finds agent files under a folder: `.md` files at any depth (Claude Code reads agents/ recursively), in
// a stable order, following symlinks without looping, and bounded so a huge or cyclic tree cannot hang us.
import type { Dirent } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Diagnostic } from '../../../shared/agent-definition'
import { isPlaceholder } from '../security/placeholders'
import { diagnostic } from './diagnostics'

export const MAX_SCAN_DEPTH = 16
export const MAX_SCAN_FILES = 5000

export interface ScannedFile {
  path: string
  /** Subfolders between the scanned folder and the file: plugin agents are namespaced by them. */
  namespace: string[]
  /** Where the file really is (no link on the way), when the scan knew it without asking: a plain file in a folder it resolved. */
  real?: string
}

export interface ScanResult {
  files: ScannedFile[]
  diagnostics: Diagnostic[]
  /** False when the folder does not exist (which is normal: most sources are optional). */
  exists: boolean
}

const AT_START = { line: 1, column: 1 }
const errorCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code

export async function scanAgentDir(root: string): Promise<ScanResult> {
  const result: ScanResult = { files: [], diagnostics: [], exists: true }
  // `.claude/agents` as an empty placeholder of the Bash sandbox (a command is running): no folder yet.
  if (isPlaceholder(root)) return { ...result, exists: false }
  try {
    if (!(await stat(root)).isDirectory()) {
      result.diagnostics.push(diagnostic(root, AT_START, 'warning', 'not-a-folder', 'expected a folder of agent files, but this is a file'))
      return result
    }
  } catch (err) {
    if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') return { ...result, exists: false }
    result.diagnostics.push(diagnostic(root, AT_START, 'warning', 'unreadable-folder', `the folder cannot be read (${errorCode(err) ?? String(err)})`))
    return result
  }
  const visited = new Set<string>()
  let truncated = false

  const walk = async (dir: string, namespace: string[]): Promise<void> => {
    let real: string
    if (namespace.length > MAX_SCAN_DEPTH) {
      result.diagnostics.push(
        diagnostic(dir, AT_START, 'warning', 'folder-too-deep', `folders nested more than ${MAX_SCAN_DEPTH} deep are not searched for agents`)
      )
      return
    }
    try {
      real = await realpath(dir)
      if (visited.has(real)) return // a symlink loop, or the same folder linked twice
      visited.add(real)
    } catch {
      return
    }
    let entries: Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (err) {
      result.diagnostics.push(diagnostic(dir, AT_START, 'warning', 'unreadable-folder', `the folder cannot be read (${errorCode(err) ?? String(err)})`))
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue // .git, .DS_Store, editor swap files: never agents
      const path = join(dir, entry.name)
      let isDir = entry.isDirectory()
      let isFile = entry.isFile()
      const linked = entry.isSymbolicLink()
      if (linked) {
        try {
          const s = await stat(path)
          isDir = s.isDirectory()
          isFile = s.isFile()
        } catch {
          result.diagnostics.push(diagnostic(path, AT_START, 'warning', 'broken-link', 'this symbolic link points to nothing, so it is skipped'))
          continue
        }
      }
      if (isDir) {
        await walk(path, [...namespace, entry.name])
      } else if (isFile) {
        if (!/\.md$/i.test(entry.name)) {
          result.diagnostics.push(diagnostic(path, AT_START, 'info', 'not-markdown', 'skipped: only `.md` files are agent definitions'))
        } else if (result.files.length >= MAX_SCAN_FILES) {
          truncated = true
        } else {
          // A plain file in a resolved folder is where it is named: the loader need not resolve it again (a
          // realpath per file, ~12 µs each, ~1.2 ms of a start with a hundred agent files).
          result.files.push(linked ? { path, namespace } : { path, namespace, real: join(real, entry.name) })
        }
      }
    }
  }
  await walk(root, [])
  if (truncated) {
    result.diagnostics.push(
      diagnostic(root, AT_START, 'warning', 'too-many-files', `more than ${MAX_SCAN_FILES} agent files: only the first ${MAX_SCAN_FILES} are read`)
    )
  }
  return result
}

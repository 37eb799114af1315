// Hot reload: watches the folders agents come from and reports, debounced, which of them changed. A folder
// that does not exist yet (a new project's .claude/agents, a fresh ~/.claude) is watched through its nearest
// existing parent, so the first agent file created there is noticed too. Watch errors (a folder deleted
// while watched) re-arm the watch instead of failing.
//
// The Bash sandbox's placeholders come and go with every sandboxed command (an empty `.claude` folder, or an
// empty file at `.claude/agents`): a placeholder is not an agent folder, so its coming and going reports
// nothing, and a watched parent that vanishes with it is replaced by the next one up.
//
// Subfolders are watched one by one rather than with `recursive: true`: on Linux, Node's recursive watch
// stops reporting changes to a file once it has been replaced by a rename — which is exactly how editors
// (and this editor's atomic save) write files.
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs'
import { dirname, join } from 'node:path'
import { placeholderAt } from '../security/placeholders'

export interface WatchedFolder {
  path: string
  /** Watch for the folder being created when it does not exist (the user's and the workspace's folders). */
  awaitCreation: boolean
}

interface Armed {
  folder: WatchedFolder
  watchers: FSWatcher[]
  /** The folder itself is watched (with its subfolders), not a parent waiting for it. */
  direct: boolean
}

/** Parents watched while waiting for a folder to appear, at most this far up. */
const MAX_PARENT_LEVELS = 4
/** Agent folders are small; a huge tree is not searched for subfolders beyond these bounds. */
const MAX_DEPTH = 8
const MAX_DIRS = 200

/** The agent folder is there (a placeholder is not). */
const folderPresent = (path: string): boolean => existsSync(path) && placeholderAt(path) === null
/** A step towards it is there to be watched (a placeholder folder is: a real file may be put in it). */
const stepPresent = (path: string): boolean => existsSync(path) && placeholderAt(path)?.kind !== 'file'

function subfolders(root: string): string[] {
  const out = [root]
  for (let i = 0; i < out.length && out.length < MAX_DIRS; i++) {
    const depth = out[i].slice(root.length).split(/[\\/]/).length - 1
    if (depth >= MAX_DEPTH) continue
    try {
      for (const entry of readdirSync(out[i], { withFileTypes: true })) {
        if (entry.isDirectory() && !entry.name.startsWith('.') && out.length < MAX_DIRS) out.push(join(out[i], entry.name))
      }
    } catch {
      // Gone or unreadable: nothing below it to watch.
    }
  }
  return out
}

export class AgentFolderWatcher {
  private armed = new Map<string, Armed>()
  private pending = new Set<string>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private closed = false

  constructor(
    private readonly onChange: (folders: string[]) => void,
    private readonly debounceMs = 120
  ) {}

  /** Watches exactly these folders from now on. */
  setFolders(folders: WatchedFolder[]): void {
    const wanted = new Map(folders.map((f) => [f.path, f]))
    for (const [path, armed] of this.armed) {
      if (!wanted.has(path)) {
        this.disarm(armed)
        this.armed.delete(path)
      }
    }
    for (const folder of wanted.values()) {
      const existing = this.armed.get(folder.path)
      if (existing && existing.folder.awaitCreation === folder.awaitCreation && (existing.direct || !folderPresent(folder.path))) continue
      this.arm(folder)
    }
  }

  /** Folders watched directly right now (for tests and diagnostics). */
  watching(): string[] {
    return [...this.armed.values()].filter((a) => a.direct).map((a) => a.folder.path)
  }

  /** Reports a change now (debounced with the others), e.g. after the editor wrote a file itself. */
  touch(folder: string): void {
    for (const armed of this.armed.values()) {
      const path = armed.folder.path
      if (folder === path || folder.startsWith(path + '/') || folder.startsWith(path + '\\')) {
        this.arm(armed.folder) // picks up a folder that was just created, and new subfolders
        this.schedule(path)
        return
      }
    }
    this.schedule(folder)
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    for (const armed of this.armed.values()) this.disarm(armed)
    this.armed.clear()
  }

  private disarm(armed: Armed): void {
    for (const w of armed.watchers.splice(0)) w.close()
  }

  private arm(folder: WatchedFolder): void {
    const previous = this.armed.get(folder.path)
    if (previous) this.disarm(previous)
    if (this.closed) return
    const armed: Armed = { folder, watchers: [], direct: false }
    this.armed.set(folder.path, armed)
    if (folderPresent(folder.path)) {
      armed.direct = true
      for (const dir of subfolders(folder.path)) {
        const w = this.open(dir, (event) => {
          if (this.armed.get(folder.path) !== armed) return
          // A folder appeared or disappeared: watch the tree as it is now.
          if (event === 'rename') this.arm(folder)
          this.schedule(folder.path)
        })
        if (w) armed.watchers.push(w)
      }
      return
    }
    if (!folder.awaitCreation) return
    let parent = dirname(folder.path)
    for (let level = 0; level < MAX_PARENT_LEVELS && !existsSync(parent) && dirname(parent) !== parent; level++) parent = dirname(parent)
    if (!existsSync(parent)) return
    // The step from `parent` towards the folder: once it exists, watch one level closer (or the folder).
    let next = folder.path
    while (dirname(next) !== parent) next = dirname(next)
    const w = this.open(parent, () => {
      if (this.armed.get(folder.path) !== armed) return
      // The watched parent itself went (a placeholder folder removed, or deleted by hand): wait one level up.
      if (!existsSync(parent)) return this.arm(folder)
      if (!stepPresent(next)) return
      this.arm(folder)
      if (folderPresent(folder.path)) this.schedule(folder.path)
    })
    if (w) armed.watchers.push(w)
  }

  private open(path: string, onEvent: (event: string) => void): FSWatcher | null {
    try {
      const w = watch(path, { persistent: false }, (event) => onEvent(event))
      // The folder went away under the watch: treat it as a change (arm() then waits for it again).
      w.on('error', () => onEvent('rename'))
      return w
    } catch {
      return null
    }
  }

  private schedule(folder: string): void {
    if (this.closed) return
    this.pending.add(folder)
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      const folders = [...this.pending]
      this.pending.clear()
      this.onChange(folders)
    }, this.debounceMs)
  }
}

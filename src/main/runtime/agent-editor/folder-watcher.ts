// Hot reload: watches the folders agents come from and reports, debounced, which of them changed. A folder
// that does not exist yet (a new project's .claude/agents, a fresh ~/.claude) is watched through its nearest
// existing parent, so the first agent file created there is noticed too. Watch errors (a folder deleted
// while watched) re-arm the watch instead of failing.
import { existsSync, watch, type FSWatcher } from 'node:fs'
import { dirname } from 'node:path'

export interface WatchedFolder {
  path: string
  /** Watch for the folder being created when it does not exist (the user's and the workspace's folders). */
  awaitCreation: boolean
}

interface Armed {
  folder: WatchedFolder
  watcher: FSWatcher | null
  /** The folder itself is watched (recursively), not a parent waiting for it. */
  direct: boolean
}

/** Parents watched while waiting for a folder to appear, at most this far up. */
const MAX_PARENT_LEVELS = 4

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
        armed.watcher?.close()
        this.armed.delete(path)
      }
    }
    for (const folder of wanted.values()) {
      const existing = this.armed.get(folder.path)
      if (existing && existing.folder.awaitCreation === folder.awaitCreation && (existing.direct || !existsSync(folder.path))) continue
      existing?.watcher?.close()
      this.arm(folder)
    }
  }

  /** Folders watched directly right now (for tests and diagnostics). */
  watching(): string[] {
    return [...this.armed.values()].filter((a) => a.direct).map((a) => a.folder.path)
  }

  /** Reports a change now (debounced with the others), e.g. after the editor wrote a file itself. */
  touch(folder: string): void {
    const armed = this.armed.get(folder)
    if (armed && !armed.direct && existsSync(folder)) this.arm(armed.folder)
    this.schedule(folder)
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    for (const armed of this.armed.values()) armed.watcher?.close()
    this.armed.clear()
  }

  private arm(folder: WatchedFolder): void {
    if (this.closed) return
    const armed: Armed = { folder, watcher: null, direct: false }
    this.armed.set(folder.path, armed)
    if (existsSync(folder.path)) {
      armed.direct = true
      armed.watcher = this.open(folder.path, true, () => (existsSync(folder.path) ? this.schedule(folder.path) : this.rearm(folder)), () => this.rearm(folder))
      return
    }
    if (!folder.awaitCreation) return
    let parent = dirname(folder.path)
    for (let level = 0; level < MAX_PARENT_LEVELS && !existsSync(parent) && dirname(parent) !== parent; level++) parent = dirname(parent)
    if (!existsSync(parent)) return
    // The step from `parent` towards the folder: once it exists, watch one level closer (or the folder).
    let next = folder.path
    while (dirname(next) !== parent) next = dirname(next)
    armed.watcher = this.open(parent, false, () => {
      if (this.armed.get(folder.path) !== armed || !existsSync(next)) return
      armed.watcher?.close()
      this.arm(folder)
      if (existsSync(folder.path)) this.schedule(folder.path)
    }, () => this.rearm(folder))
  }

  private rearm(folder: WatchedFolder): void {
    const armed = this.armed.get(folder.path)
    armed?.watcher?.close()
    if (armed) this.arm(folder)
    this.schedule(folder.path)
  }

  private open(path: string, recursive: boolean, onEvent: () => void, onError: () => void): FSWatcher | null {
    try {
      const w = watch(path, { recursive, persistent: false }, onEvent)
      w.on('error', onError)
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

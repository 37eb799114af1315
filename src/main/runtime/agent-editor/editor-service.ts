// The agent editor behind the host's `agents.*` calls: the library, reading, analysing, editing, repairing
// and saving agent files, the file operations, and the folder watch that makes a change on disk show at
// once and apply to the next spawn. Every path from the UI is checked (agent-paths.ts); saves of one file
// run one after another.
import { dirname, resolve } from 'node:path'
import type { AgentSource } from '../../../shared/agent-definition'
import type { AgentAnalysis, AgentLibrary, AgentScope, FieldChange, FileVersion, OpenedAgentFile, SaveResult } from '../../../shared/agent-editor'
import { builtinPlaceholders, defaultDocsDir } from '../definitions/builtins'
import { projectAgentDirs, userAgentsDir } from '../definitions/sources'
import { BASE_TOOL_NAMES } from '../orchestration'
import { requireEditable, requireReadable, type AgentPathContext, type AgentSourcesConfig } from './agent-paths'
import { analyzeAgentText } from './analyze'
import { applyFieldChanges } from './edit-fields'
import { createAgentFile, deleteAgentFile, duplicateAgentFile, moveAgentFile, renameAgentFile } from './file-ops'
import { AgentFileError, readVersioned, saveChecked } from './file-store'
import { AgentFolderWatcher, type WatchedFolder } from './folder-watcher'
import { readFrontmatterDoc } from './frontmatter-doc'
import { buildLibrary } from './library'
import { repairAgentText } from './repair'
import { finishTryRun, planTryRun, type TryPlan } from './try-agent'
import { loadPlugins } from '../plugins'

export interface AgentEditorOptions {
  home: string
  /** Plugins, the managed folder and built-ins, as the sessions load them. */
  sources?: AgentSourcesConfig
  /** Tools the runtime offers a session; default: the built-in tools plus Agent, SendMessage, TaskOutput, TaskStop. */
  availableTools?: () => readonly string[]
  /** Tools of the MCP servers a folder's sessions connect to (`mcp__server__tool`), as far as they are known. */
  mcpTools?: (cwd: string) => readonly string[]
  /** Agent folders changed, on disk or through the editor (debounced). */
  onAgentsChanged?: (folders: string[]) => void
  /** Debounce of the folder watch. */
  watchDebounceMs?: number
}

const DEFAULT_TOOLS = (): readonly string[] => BASE_TOOL_NAMES

export class AgentEditorService {
  private readonly watcher: AgentFolderWatcher
  private readonly queues = new Map<string, Promise<unknown>>()

  constructor(private readonly options: AgentEditorOptions) {
    this.watcher = new AgentFolderWatcher((folders) => options.onAgentsChanged?.(folders), options.watchDebounceMs)
  }

  private ctx(cwd: string): AgentPathContext {
    const sources = this.options.sources ?? {}
    return { cwd: resolve(cwd), home: this.options.home, sources: { ...sources, pluginDirs: this.pluginDirs(cwd) } }
  }

  /** The plugins a session in `cwd` loads: the configured ones and those its settings files enable (read-only here). */
  private pluginDirs(cwd: string): Array<{ name: string; dir: string }> {
    return [...(this.options.sources?.pluginDirs ?? []), ...loadPlugins({ cwd: resolve(cwd), home: this.options.home }).pluginDirs]
  }

  /** Watches the agent folders that apply to these working directories (the workspace, live sessions). */
  watch(cwds: readonly string[]): void {
    const folders = new Map<string, WatchedFolder>()
    const add = (path: string, awaitCreation: boolean) => {
      const had = folders.get(path)
      folders.set(path, { path, awaitCreation: awaitCreation || Boolean(had?.awaitCreation) })
    }
    add(userAgentsDir(this.options.home), true)
    for (const cwd of cwds) projectAgentDirs(resolve(cwd), this.options.home).forEach((dir, i) => add(dir, i === 0))
    for (const cwd of cwds) for (const plugin of this.pluginDirs(cwd)) add(resolve(plugin.dir, 'agents'), false)
    if (this.options.sources?.managedDir) add(this.options.sources.managedDir, false)
    this.watcher.setFolders([...folders.values()])
  }

  close(): void {
    this.watcher.close()
  }

  private parseOptions(found: { source: AgentSource; plugin?: string; namespace?: string[] }) {
    return {
      ...(found.plugin ? { plugin: found.plugin, namespace: found.namespace ?? [] } : {}),
      ...(found.source === 'built-in' ? { placeholders: builtinPlaceholders(this.options.sources?.docsDir ?? defaultDocsDir()) } : {})
    }
  }

  private analysis(cwd: string, file: string, text: string): AgentAnalysis {
    const found = requireReadable(file, this.ctx(cwd))
    return analyzeAgentText(text, file, found.source, { ...this.parseOptions(found), ...this.tools(cwd) })
  }

  /** One write at a time per file, so two saves cannot interleave their check and write. */
  private serial<T>(file: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(file) ?? Promise.resolve()
    const next = prev.then(fn, fn)
    const settled = next.catch(() => undefined)
    this.queues.set(file, settled)
    void settled.then(() => this.queues.get(file) === settled && this.queues.delete(file))
    return next
  }

  private changed(...files: string[]): void {
    for (const f of files) this.watcher.touch(dirname(f))
  }

  private tools(cwd: string): { availableTools: readonly string[]; mcpTools?: readonly string[] } {
    return {
      availableTools: (this.options.availableTools ?? DEFAULT_TOOLS)(),
      ...(this.options.mcpTools ? { mcpTools: this.options.mcpTools(resolve(cwd)) } : {})
    }
  }

  library = ({ cwd }: { cwd: string }): Promise<AgentLibrary> => {
    const { availableTools, mcpTools = [] } = this.tools(cwd)
    return buildLibrary(this.ctx(cwd), [...new Set([...availableTools, ...mcpTools])])
  }

  open = async ({ cwd, file }: { cwd: string; file: string }): Promise<OpenedAgentFile> => {
    const ctx = this.ctx(cwd)
    const found = requireReadable(file, ctx)
    const read = await readVersioned(file)
    if (!read) throw new AgentFileError('not_found', `${file} does not exist (it may have been moved or deleted).`)
    const scope = found.source === 'user' || found.source === 'project' ? (found.source as AgentScope) : undefined
    return { file, text: read.text, version: read.version, source: found.source, ...(scope ? { scope } : {}), analysis: this.analysis(cwd, file, read.text) }
  }

  analyze = ({ cwd, file, text }: { cwd: string; file: string; text: string }): AgentAnalysis => this.analysis(cwd, file, text)

  /**
   * Applies form changes, then a new body, to a draft. Each change on its own: one that cannot be made leaves
   * its field as the text had it and is named in `error`; the others of the batch are made all the same (a
   * keystroke in one field is never lost to another field's bad YAML).
   */
  edit = ({ cwd, file, text, changes, body }: { cwd: string; file: string; text: string; changes: FieldChange[]; body?: string }) => {
    let next = text
    let error: { key?: string; message: string } | undefined
    for (const change of changes) {
      const edited = applyFieldChanges(next, [change], file)
      if (edited.ok) next = edited.text
      else error ??= { ...(edited.key ? { key: edited.key } : {}), message: edited.message }
    }
    if (body !== undefined && (!error || readFrontmatterDoc(next).ok)) next = next.slice(0, readFrontmatterDoc(next).bodyStart) + body
    return { text: next, analysis: this.analysis(cwd, file, next), ...(error ? { error } : {}) }
  }

  repair = ({ cwd, file, text }: { cwd: string; file: string; text: string }) => {
    const fixed = repairAgentText(text, file)
    const out = fixed?.text ?? text
    return { text: out, changes: fixed?.changes ?? [], analysis: this.analysis(cwd, file, out) }
  }

  save = ({ cwd, file, text, base, force }: { cwd: string; file: string; text: string; base: FileVersion | null; force?: boolean }): Promise<SaveResult> => {
    requireEditable(file, this.ctx(cwd))
    return this.serial(file, async () => {
      const saved = await saveChecked(file, text, base, force)
      if ('conflict' in saved) return { saved: false as const, conflict: saved.conflict }
      this.changed(file)
      return { saved: true as const, version: saved.version, analysis: this.analysis(cwd, file, text) }
    })
  }

  create = async ({ cwd, scope, name, template }: { cwd: string; scope: AgentScope; name: string; template: string }) => {
    const file = await createAgentFile(this.ctx(cwd), scope, name, template)
    this.changed(file)
    return { file }
  }

  duplicate = async ({ cwd, file, text, scope }: { cwd: string; file: string; text: string; scope?: AgentScope }) => {
    requireReadable(file, this.ctx(cwd))
    const copy = await duplicateAgentFile(this.ctx(cwd), file, text, scope)
    this.changed(copy)
    return { file: copy }
  }

  rename = ({ cwd, file, name, text, base }: { cwd: string; file: string; name: string; text: string; base: FileVersion | null }) =>
    this.serial(file, async () => {
      const renamed = await renameAgentFile(this.ctx(cwd), file, name, text, base)
      this.changed(file, renamed.file)
      return renamed
    })

  move = ({ cwd, file, scope, base }: { cwd: string; file: string; scope: AgentScope; base: FileVersion | null }) =>
    this.serial(file, async () => {
      const moved = await moveAgentFile(this.ctx(cwd), file, scope, base)
      this.changed(file, moved)
      return { file: moved }
    })

  delete = ({ cwd, file, base }: { cwd: string; file: string; base: FileVersion | null }) =>
    this.serial(file, async () => {
      await deleteAgentFile(this.ctx(cwd), file, base)
      this.changed(file)
      return {}
    })

  planTry = ({ cwd, file, text }: { cwd: string; file: string; text: string }): Promise<TryPlan> => {
    const found = requireReadable(file, this.ctx(cwd))
    return planTryRun({ cwd: resolve(cwd), text, file, source: found.source, parse: this.parseOptions(found) })
  }

  finishTry = (plan: TryPlan, prompt: string) => finishTryRun(plan, prompt)
}

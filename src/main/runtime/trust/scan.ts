// Lists what a folder brings that would run or grant something by itself, from the configuration exactly
// as the loaders read it (so what is listed is what would run, byte for byte — see store/read-config.ts):
// - servers of the .mcp.json files in the folder and above it (the ones that win; a server switched off in
//   settings is not listed, as it never starts);
// - every hook of the folder's .claude/settings.json and .claude/settings.local.json, of every hook event
//   (events Fanout does not run yet included: when it does, they are approved already or still wait);
// - hooks, inline MCP servers and a permissionMode that asks less in the folder's agent files;
// - permissions.allow rules, a defaultMode that asks less, and additionalDirectories in the folder's settings.
// Settings naming commands Fanout never runs (apiKeyHelper and the like) are listed apart, as not run.
import type { AgentDefinition, LoadedAgent, PermissionMode } from '../../../shared/agent-definition'
import type { ProjectCommand } from '../../../shared/trust'
import type { ClaudeMdEntry } from '../context'
import type { SettingsFile } from '../hooks/settings-files'
import type { McpServerEntry } from '../mcp/load-config'
import { isAbsolute, relative } from 'node:path'
import { describeServer, folderRelative, makeItem } from './items'

/** Modes that ask the person less than the default: granting one is a pre-approval. */
export const LOOSER_MODES: ReadonlySet<PermissionMode> = new Set<PermissionMode>(['acceptEdits', 'bypassPermissions'])

/** Settings Claude Code runs as commands that Fanout never runs. */
const NOT_RUN_SETTINGS = ['apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'gcpAuthRefresh', 'proxyAuthHelper', 'otelHeadersHelper']

export const isFolderSource = (f: Pick<SettingsFile, 'source'>): boolean => f.source === 'project' || f.source === 'local'

/** A definition that came with the folder (its `.claude/agents`), not one the person installed. */
export const isFolderDefinition = (def: Pick<AgentDefinition, 'source'>): boolean => def.source === 'project'

export interface CollectInput {
  folder: string
  settingsFiles: readonly SettingsFile[]
  mcpServers: readonly McpServerEntry[]
  agents: readonly LoadedAgent[]
  /** The CLAUDE.md files read for the folder, and the top of the project they belong to. */
  claudeMd?: { entries: readonly ClaudeMdEntry[]; root: string }
}

export interface Collected {
  items: ProjectCommand[]
  notRun: Array<{ file: string; setting: string; command: string }>
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

export function mcpServerItem(folder: string, entry: McpServerEntry, kind: 'mcp-server' | 'agent-mcp-server' = 'mcp-server'): ProjectCommand {
  const what = describeServer(entry.raw)
  return makeItem({ kind, folder, file: entry.file ?? folder, name: entry.name, ...what, content: entry.raw ?? null })
}

/** What a hook entry does, whatever its type (a command, a prompt, a URL). */
function hookWhat(hook: unknown): string {
  if (!isRecord(hook)) return JSON.stringify(hook) ?? String(hook)
  for (const key of ['command', 'url', 'prompt'] as const) if (typeof hook[key] === 'string') return hook[key] as string
  return JSON.stringify(hook)
}

export function hookItem(folder: string, file: string, event: string, matcher: unknown, hook: unknown, kind: 'hook' | 'agent-hook' = 'hook'): ProjectCommand {
  const on = typeof matcher === 'string' && matcher !== '' && matcher !== '*' ? `${event} (${matcher})` : event
  return makeItem({ kind, folder, file, name: on, command: hookWhat(hook), content: [event, matcher ?? null, hook] })
}

/** Every hook entry of a `hooks` value, as written, with where it sits (for the gate to keep or drop it). */
export function eachHook(value: unknown, visit: (event: string, matcher: unknown, hook: unknown) => void): void {
  if (!isRecord(value)) return
  for (const [event, matchers] of Object.entries(value)) {
    if (!Array.isArray(matchers)) continue
    for (const m of matchers) {
      if (!isRecord(m) || !Array.isArray(m.hooks)) continue
      for (const h of m.hooks) visit(event, m.matcher, h)
    }
  }
}

export function permissionItems(folder: string, f: SettingsFile): ProjectCommand[] {
  const p = f.json.permissions
  if (!isRecord(p)) return []
  const items: ProjectCommand[] = []
  for (const rule of Array.isArray(p.allow) ? p.allow : []) if (typeof rule === 'string') items.push(permissionRuleItem(folder, f.file, rule))
  if (typeof p.defaultMode === 'string' && LOOSER_MODES.has(p.defaultMode as PermissionMode)) items.push(permissionModeItem(folder, f.file, p.defaultMode))
  for (const dir of Array.isArray(p.additionalDirectories) ? p.additionalDirectories : [])
    if (typeof dir === 'string') items.push(permissionDirectoryItem(folder, f.file, dir))
  return items
}

export const permissionRuleItem = (folder: string, file: string, rule: string) =>
  makeItem({ kind: 'permission-rule', folder, file, name: rule, command: 'the calls this rule covers run without asking you', content: rule })
export const permissionModeItem = (folder: string, file: string, mode: string) =>
  makeItem({
    kind: 'permission-mode',
    folder,
    file,
    name: `defaultMode: ${mode}`,
    command: `sessions here start in ${mode} mode${mode === 'bypassPermissions' ? ', which runs every tool call without asking' : ', which makes file edits without asking'}`,
    content: mode
  })
export const permissionDirectoryItem = (folder: string, file: string, dir: string) =>
  makeItem({ kind: 'permission-directory', folder, file, name: dir, command: 'tools may read and edit the files in this folder too', content: dir })

export function agentItems(folder: string, def: AgentDefinition, inlineServers: (def: AgentDefinition) => McpServerEntry[]): ProjectCommand[] {
  const file = def.file ?? folder
  const items: ProjectCommand[] = []
  eachHook(def.hooks, (event, matcher, hook) => items.push(hookItem(folder, file, event, matcher, hook, 'agent-hook')))
  for (const entry of inlineServers(def)) items.push(mcpServerItem(folder, { ...entry, file }, 'agent-mcp-server'))
  if (def.permissionMode && LOOSER_MODES.has(def.permissionMode))
    items.push(
      makeItem({
        kind: 'agent-mode',
        folder,
        file,
        name: `${def.agentType}: ${def.permissionMode}`,
        command: `agent ${def.agentType} runs in ${def.permissionMode} mode, asking you less`,
        content: def.permissionMode
      })
    )
  return items
}

/** A definition's inline servers (`mcpServers: [{name: {command…}}]` or `{name: {command…}}`), as written. */
export function inlineServersOf(def: Pick<AgentDefinition, 'mcpServers'>): McpServerEntry[] {
  const value = def.mcpServers
  const pairs: Array<[string, unknown]> = []
  if (Array.isArray(value)) for (const item of value) if (isRecord(item)) pairs.push(...Object.entries(item))
  if (isRecord(value)) pairs.push(...Object.entries(value))
  return pairs.map(([name, raw]) => ({ name, scope: 'agent', raw }))
}

/** A project CLAUDE.md (or a file it imports) whose real path lies outside the project: another file's content would go to the model. */
export function isOutsideFile(entry: ClaudeMdEntry, root: string): boolean {
  if (entry.scope === 'user') return false
  // A CLAUDE.md of a folder above the repository (and its imports) is judged against that folder.
  const rel = relative(entry.base ?? root, entry.path)
  return rel.startsWith('..') || isAbsolute(rel)
}

export function outsideFileItem(folder: string, entry: ClaudeMdEntry): ProjectCommand {
  return makeItem({
    kind: 'outside-file',
    folder,
    file: entry.importedFrom ?? entry.path,
    name: entry.path,
    command: entry.importedFrom
      ? `imports ${entry.path} into every prompt, sending its content to the model`
      : `is a link to ${entry.path}, whose content would be sent to the model with every prompt`,
    content: [entry.importedFrom ?? null, entry.path]
  })
}

export function collectItems(input: CollectInput): Collected {
  const { folder } = input
  const items: ProjectCommand[] = []
  const notRun: Collected['notRun'] = []
  for (const entry of input.mcpServers) {
    if (entry.scope !== 'project' || entry.disabled) continue
    items.push(mcpServerItem(folder, entry))
    if (isRecord(entry.raw) && typeof entry.raw.headersHelper === 'string')
      notRun.push({ file: folderRelative(folder, entry.file ?? folder), setting: `mcpServers.${entry.name}.headersHelper`, command: entry.raw.headersHelper })
  }
  for (const f of input.settingsFiles) {
    if (!isFolderSource(f)) continue
    // `disableAllHooks` switches every hook off: none of them would run, so none needs approving.
    if (!input.settingsFiles.some((s) => s.json.disableAllHooks === true))
      eachHook(f.json.hooks, (event, matcher, hook) => items.push(hookItem(folder, f.file, event, matcher, hook)))
    items.push(...permissionItems(folder, f))
    const file = folderRelative(folder, f.file)
    for (const setting of NOT_RUN_SETTINGS) if (typeof f.json[setting] === 'string') notRun.push({ file, setting, command: f.json[setting] as string })
    const status = f.json.statusLine
    if (isRecord(status) && typeof status.command === 'string') notRun.push({ file, setting: 'statusLine', command: status.command })
  }
  for (const a of input.agents) if (isFolderDefinition(a.definition)) items.push(...agentItems(folder, a.definition, inlineServersOf))
  for (const e of input.claudeMd?.entries ?? []) if (isOutsideFile(e, input.claudeMd!.root)) items.push(outsideFileItem(folder, e))
  // The same entry written twice (two identical hooks) is one approval.
  const seen = new Set<string>()
  return { items: items.filter((i) => !seen.has(i.hash) && seen.add(i.hash)), notRun }
}

// Applying the answers: what a folder brings and the person has not approved is taken out before anything
// can use it. Each gate rebuilds its configuration from the approved entries only (anything it cannot
// read as an entry is dropped too), working on the same raw values the items were listed from, so nothing
// unlisted can slip through: a .mcp.json server is marked untrusted (never started, listed as waiting),
// hooks are removed from the folder's settings files and agent files, an agent file's inline servers and
// looser permissionMode are removed, and the folder's pre-approvals are withheld from the permission rules.
import type { AgentDefinition, LoadedAgent } from '../../../shared/agent-definition'
import type { ProjectCommand } from '../../../shared/trust'
import type { ClaudeMdEntry } from '../context'
import type { SettingsFile } from '../hooks/settings-files'
import type { McpConfig } from '../mcp/load-config'
import type { PermissionPreapproval } from '../permissions/settings'
import type { PermissionMode } from '../../../shared/agent-definition'
import {
  agentItems,
  hookItem,
  inlineServersOf,
  isFolderDefinition,
  isFolderSource,
  isOutsideFile,
  LOOSER_MODES,
  mcpServerItem,
  outsideFileItem,
  permissionDirectoryItem,
  permissionModeItem,
  permissionRuleItem
} from './scan'

export type Approved = (item: ProjectCommand) => boolean

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** Project servers not approved stay configured (the UI lists them) but are marked untrusted: never started. */
export function gateMcpConfig(config: McpConfig, folder: string, approved: Approved): McpConfig {
  return {
    ...config,
    servers: config.servers.map((e) => (e.scope === 'project' && !e.disabled && !approved(mcpServerItem(folder, e)) ? { ...e, untrusted: true } : e))
  }
}

/** A `hooks` value with only the approved entries left. */
export function keepApprovedHooks(value: unknown, keep: (event: string, matcher: unknown, hook: unknown) => boolean): { hooks: unknown; dropped: number } {
  if (value === undefined || value === null) return { hooks: value, dropped: 0 }
  if (!isRecord(value)) return { hooks: undefined, dropped: 1 }
  let dropped = 0
  const out: Record<string, unknown[]> = {}
  for (const [event, matchers] of Object.entries(value)) {
    if (!Array.isArray(matchers)) {
      dropped++
      continue
    }
    const groups: unknown[] = []
    for (const m of matchers) {
      if (!isRecord(m) || !Array.isArray(m.hooks)) {
        dropped++
        continue
      }
      const hooks = m.hooks.filter((h) => keep(event, m.matcher, h) || (dropped++, false))
      if (hooks.length) groups.push({ ...m, hooks })
    }
    if (groups.length) out[event] = groups
  }
  return { hooks: out, dropped }
}

/** The folder's settings files with their unapproved hooks removed (other files are the person's own). */
export function gateSettingsFiles(files: readonly SettingsFile[], folder: string, approved: Approved): SettingsFile[] {
  return files.map((f) => {
    if (!isFolderSource(f) || f.json.hooks === undefined) return f
    const { hooks } = keepApprovedHooks(f.json.hooks, (event, matcher, hook) => approved(hookItem(folder, f.file, event, matcher, hook)))
    return { ...f, json: { ...f.json, hooks } }
  })
}

/** Whether a definition's entry in `mcpServers` may stay: a name refers to a configured server (gated itself); an inline one must be approved. */
function gateInlineServers(def: AgentDefinition, folder: string, approved: Approved): unknown {
  const file = def.file ?? folder
  const ok = (name: string, raw: unknown) => approved(mcpServerItem(folder, { name, scope: 'agent', raw, file }, 'agent-mcp-server'))
  const value = def.mcpServers
  if (Array.isArray(value))
    return value.flatMap((item: unknown): unknown[] => {
      if (typeof item === 'string') return [item]
      if (!isRecord(item)) return []
      const kept = Object.entries(item).filter(([name, raw]) => ok(name, raw))
      return kept.length ? [Object.fromEntries(kept)] : []
    })
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).filter(([name, raw]) => ok(name, raw)))
  return value === undefined ? undefined : []
}

export interface GatedAgents {
  agents: Map<string, LoadedAgent>
  /** Per agent type, what was taken out of its definition and waits for approval. */
  withheld: Map<string, ProjectCommand[]>
}

/** The folder's agent definitions without their unapproved hooks, inline servers and looser permissionMode. */
export function gateAgents(byType: ReadonlyMap<string, LoadedAgent>, folder: string, approved: Approved): GatedAgents {
  const agents = new Map<string, LoadedAgent>()
  const withheld = new Map<string, ProjectCommand[]>()
  for (const [type, loaded] of byType) {
    const def = loaded.definition
    if (!isFolderDefinition(def)) {
      agents.set(type, loaded)
      continue
    }
    const waiting = agentItems(folder, def, inlineServersOf).filter((i) => !approved(i))
    if (!waiting.length) {
      agents.set(type, loaded)
      continue
    }
    const file = def.file ?? folder
    const gated: AgentDefinition = { ...def }
    if (def.hooks !== undefined)
      gated.hooks = keepApprovedHooks(def.hooks, (event, matcher, hook) => approved(hookItem(folder, file, event, matcher, hook, 'agent-hook'))).hooks
    if (def.mcpServers !== undefined) gated.mcpServers = gateInlineServers(def, folder, approved)
    if (waiting.some((i) => i.kind === 'agent-mode')) delete gated.permissionMode
    agents.set(type, { ...loaded, definition: gated })
    withheld.set(type, waiting)
  }
  return { agents, withheld }
}

/** For loadPermissionSettings: whether a pre-approval of the folder's own settings is withheld. */
export function permissionWithhold(folder: string, approved: Approved): (p: PermissionPreapproval) => boolean {
  return (p) => {
    if (p.source !== 'project' && p.source !== 'local') return false
    if (p.kind === 'defaultMode' && !LOOSER_MODES.has(p.value as PermissionMode)) return false
    const item =
      p.kind === 'allow'
        ? permissionRuleItem(folder, p.file, p.value)
        : p.kind === 'defaultMode'
          ? permissionModeItem(folder, p.file, p.value)
          : permissionDirectoryItem(folder, p.file, p.value)
    return !approved(item)
  }
}

/** CLAUDE.md entries without an outside file the person has not approved, nor the files that one imports. */
export function gateClaudeMd(entries: readonly ClaudeMdEntry[], folder: string, root: string, approved: Approved): ClaudeMdEntry[] {
  const dropped = new Set<string>()
  return entries.filter((e) => {
    if ((e.importedFrom && dropped.has(e.importedFrom)) || (isOutsideFile(e, root) && !approved(outsideFileItem(folder, e)))) {
      dropped.add(e.path)
      return false
    }
    return true
  })
}

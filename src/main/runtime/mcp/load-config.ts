// The MCP servers a session may use, from every place Claude Code reads them, lowest precedence first:
// Fanout's own settings, `~/.claude.json` (`mcpServers`: user scope), `.mcp.json` in the project folder and
// the folders above it (the closest wins), enabled plugins' servers (`plugin:<plugin>:<server>`, of the folder's
// scope when the folder brought the plugin), and `~/.claude.json` `projects[<folder>].mcpServers` (local scope).
// A later source replaces an earlier server with the same name. `.mcp.json` servers listed in a settings file's
// `disabledMcpjsonServers` (or `disabledMcpServers` for the folder in `~/.claude.json`) are kept but disabled,
// so the UI can say why they do not run. Nothing here throws: problems come back as sentences.
import { dirname, join, resolve } from 'node:path'
import type { SettingsFile } from '../hooks/settings-files'
import { readConfigJson } from '../store/read-config'
import { parseServerConfig, type McpTransportConfig } from './server-config'

export type McpScope = 'fanout' | 'user' | 'project' | 'local' | 'agent'

export interface McpServerEntry {
  name: string
  scope: McpScope
  /** The file that defines it (absent for Fanout settings and inline definitions). */
  file?: string
  /** Absent when the entry is invalid (see error). */
  config?: McpTransportConfig
  /** Why the server cannot be started from this configuration. */
  error?: string
  /** Switched off in settings: never started. */
  disabled?: boolean
  /** A project server the person has not approved for this folder yet: never started (see trust/). */
  untrusted?: boolean
  /** The entry as written in its file, before `${VAR}` expansion: what a person approves. */
  raw?: unknown
}

export interface LoadMcpConfigOptions {
  cwd: string
  home: string
  /** Servers from Fanout's own settings (`mcpServers` there). */
  fanoutServers?: Record<string, unknown>
  /** Claude Code settings files, for `disabledMcpjsonServers`. */
  settingsFiles?: SettingsFile[]
  env?: Record<string, string | undefined>
  /** Only `fanoutServers` (Claude Code's `--strict-mcp-config`): ~/.claude.json, the .mcp.json files and plugins are not read. */
  strict?: boolean
  /** Enabled plugins' servers (plugins/), already named `plugin:<plugin>:<server>`. */
  pluginServers?: ReadonlyArray<{ name: string; raw: unknown; file: string; folderBrought: boolean }>
}

export interface McpConfig {
  servers: McpServerEntry[]
  problems: string[]
  /** `~/.claude.json`'s entry for this folder (`projects[cwd]`): Claude Code's approvals live there too. */
  claudeProject?: Record<string, unknown>
}

/** `~/.claude.json` also holds Claude Code's history of every project: allow it room. */
const MAX_CLAUDE_JSON_BYTES = 64 * 1024 * 1024

function readJson(file: string, problems: string[], maxBytes?: number): Record<string, unknown> | null {
  const read = readConfigJson(file, maxBytes)
  if ('json' in read) return read.json
  if ('error' in read) problems.push(`${file} ${read.error}; its MCP servers are not loaded`)
  return null
}

function serversOf(json: Record<string, unknown> | null | undefined, file: string, problems: string[]): Record<string, unknown> {
  const servers = json?.mcpServers
  if (servers === undefined || servers === null) return {}
  if (typeof servers !== 'object' || Array.isArray(servers)) {
    problems.push(`${file}: "mcpServers" must be an object mapping server names to their configuration`)
    return {}
  }
  return servers as Record<string, unknown>
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [])

/** `.mcp.json` files from the filesystem root down to `cwd`: the closest is applied last and wins. */
function projectFiles(cwd: string): string[] {
  const out: string[] = []
  let dir = resolve(cwd)
  for (;;) {
    out.unshift(join(dir, '.mcp.json'))
    const parent = dirname(dir)
    if (parent === dir) return out
    dir = parent
  }
}

export function loadMcpConfig(opts: LoadMcpConfigOptions): McpConfig {
  const env = opts.env ?? process.env
  const problems: string[] = []
  const byName = new Map<string, McpServerEntry>()
  const add = (raw: Record<string, unknown>, scope: McpScope, file: string | undefined, where: string) => {
    for (const [name, value] of Object.entries(raw)) {
      const parsed = parseServerConfig(name, value, where, env)
      const disabled = !!value && typeof value === 'object' && (value as Record<string, unknown>).disabled === true
      byName.delete(name) // keep the order of the winning source
      byName.set(name, {
        name,
        scope,
        raw: value,
        ...(file ? { file } : {}),
        ...('config' in parsed ? { config: parsed.config } : { error: parsed.error }),
        ...(disabled ? { disabled: true } : {})
      })
    }
  }

  if (opts.fanoutServers) add(opts.fanoutServers, 'fanout', undefined, 'Fanout settings')
  if (opts.strict) return { servers: [...byName.values()], problems }
  const claudeJsonFile = join(opts.home, '.claude.json')
  const claudeJson = readJson(claudeJsonFile, problems, MAX_CLAUDE_JSON_BYTES)
  add(serversOf(claudeJson, claudeJsonFile, problems), 'user', claudeJsonFile, claudeJsonFile)
  for (const file of projectFiles(opts.cwd)) {
    const json = readJson(file, problems)
    if (json) add(serversOf(json, file, problems), 'project', file, file)
  }
  for (const p of opts.pluginServers ?? []) add({ [p.name]: p.raw }, p.folderBrought ? 'project' : 'user', p.file, p.file)
  const projects = claudeJson?.projects
  const local =
    projects && typeof projects === 'object' ? ((projects as Record<string, unknown>)[resolve(opts.cwd)] as Record<string, unknown> | undefined) : undefined
  if (local && typeof local === 'object')
    add(
      serversOf(local, `${claudeJsonFile} (projects["${resolve(opts.cwd)}"])`, problems),
      'local',
      claudeJsonFile,
      `${claudeJsonFile} for ${resolve(opts.cwd)}`
    )

  const disabledProject = new Set([
    ...(opts.settingsFiles ?? []).flatMap((f) => stringList(f.json.disabledMcpjsonServers)),
    ...stringList(local?.disabledMcpjsonServers)
  ])
  const disabledAny = new Set(stringList(local?.disabledMcpServers))
  for (const entry of byName.values()) {
    if ((entry.scope === 'project' && disabledProject.has(entry.name)) || disabledAny.has(entry.name)) entry.disabled = true
  }
  return { servers: [...byName.values()], problems, ...(local && typeof local === 'object' ? { claudeProject: local } : {}) }
}

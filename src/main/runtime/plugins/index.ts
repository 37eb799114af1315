// Claude Code plugins: each enabled plugin (find.ts) read through its manifest (manifest.ts) into what it
// contributes — agents and skills (its `agents/` and `skills/`, named `plugin:name`), hooks (`hooks/hooks.json`
// and the manifest's `hooks`), MCP servers (`.mcp.json` and the manifest's `mcpServers`, named
// `plugin:<plugin>:<server>` as Claude Code names them) and command folders for the slash-command loader.
// `${CLAUDE_PLUGIN_ROOT}` (and `${CLAUDE_PLUGIN_DATA}`) in hook commands and server configurations become the
// plugin's folder (its data folder); hook commands get both as environment variables too. Hooks reach the
// session as settings files and servers as `.mcp.json` entries: a plugin the folder brought is of the folder's
// level (`project`), so the folder's approvals gate it exactly as they gate the folder's own (trust/).
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { readSettingsFiles, type SettingsFile } from '../hooks/settings-files'
import { readConfigJson } from '../store/read-config'
import { findPlugins, type FoundPlugin } from './find'
import { readManifest, type PluginManifest } from './manifest'

export { findPlugins, type FoundPlugin } from './find'
export { manifestSchema, readManifest, type PluginManifest } from './manifest'

export interface LoadedPlugin extends FoundPlugin {
  name: string
  manifest: PluginManifest | null
  /** `~/.claude/plugins/data/<name>-<marketplace>`: CLAUDE_PLUGIN_DATA. */
  dataDir: string
}

export interface PluginServer {
  /** `plugin:<plugin>:<server>`. */
  name: string
  raw: unknown
  file: string
  folderBrought: boolean
}

export interface Plugins {
  plugins: LoadedPlugin[]
  /** For the agents and skills loaders (`agents/` and `skills/` under `dir`). */
  pluginDirs: Array<{ name: string; dir: string }>
  /** Hooks as settings files: `project` for a plugin the folder brought, `user` for the person's own. */
  hookFiles: SettingsFile[]
  servers: PluginServer[]
  problems: string[]
}

export interface LoadPluginsOptions {
  cwd: string
  home: string
  /** The settings files as read (enabledPlugins, extraKnownMarketplaces); read here when absent. */
  settingsFiles?: readonly SettingsFile[]
  managedFile?: string | null
  /** `--plugin-dir` values. */
  pluginDirs?: readonly string[]
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** Every string in a JSON value with the plugin's placeholders replaced. */
function expand(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g, (_all, k: string) => vars[k])
  if (Array.isArray(value)) return value.map((v) => expand(v, vars))
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, vars)]))
  return value
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** A `hooks` map whose commands know where their plugin is: placeholders expanded, both variables exported. */
function pluginHooks(value: unknown, vars: Record<string, string>): unknown {
  const exports = `export CLAUDE_PLUGIN_ROOT=${quote(vars.CLAUDE_PLUGIN_ROOT)} CLAUDE_PLUGIN_DATA=${quote(vars.CLAUDE_PLUGIN_DATA)}; `
  const expanded = expand(value, vars)
  if (!isRecord(expanded)) return expanded
  return Object.fromEntries(
    Object.entries(expanded).map(([event, matchers]) => [
      event,
      Array.isArray(matchers)
        ? matchers.map((m) =>
            isRecord(m) && Array.isArray(m.hooks)
              ? { ...m, hooks: m.hooks.map((h) => (isRecord(h) && typeof h.command === 'string' ? { ...h, command: exports + h.command } : h)) }
              : m
          )
        : matchers
    ])
  )
}

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])

/** A hooks file's or inline value's events map: `{hooks: {...}}` as hooks.json writes it, or the map itself. */
const eventsOf = (json: Record<string, unknown>): unknown => (isRecord(json.hooks) ? json.hooks : json)

/** A servers file's or inline value's servers: `{mcpServers: {...}}` as .mcp.json writes it, or the map itself. */
const serversOf = (json: Record<string, unknown>): Record<string, unknown> => (isRecord(json.mcpServers) ? json.mcpServers : json)

function readJsonFile(file: string, what: string, problems: string[]): Record<string, unknown> | null {
  const read = readConfigJson(file)
  if ('json' in read) return read.json
  if ('error' in read) problems.push(`${file} ${read.error}; the plugin's ${what} from it are not loaded`)
  return null
}

/**
 * Where a plugin's hooks (or MCP servers) come from: its default file when it has one, then each entry of the
 * manifest's list — a path to a file (read unless it is the default again) or the part written inline.
 */
function partSources<T>(
  part: { root: string; manifestFile: string; problems: string[] },
  defaultFile: string,
  entries: PluginManifest['hooks'],
  what: string,
  valueOf: (json: Record<string, unknown>) => T
): Array<{ file: string; value: T }> {
  const sources: Array<{ file: string; value: T }> = []
  const fromFile = (file: string) => {
    const json = readJsonFile(file, what, part.problems)
    if (json) sources.push({ file, value: valueOf(json) })
  }
  if (existsSync(defaultFile)) fromFile(defaultFile)
  for (const e of asList(entries)) {
    if (typeof e === 'string') {
      const file = resolve(part.root, e)
      if (file !== defaultFile) fromFile(file)
    } else sources.push({ file: part.manifestFile, value: valueOf(e) })
  }
  return sources
}

function loadOne(found: FoundPlugin, home: string, out: Plugins): void {
  const read = readManifest(found.root)
  if ('error' in read) {
    out.problems.push(`${read.error}; plugin ${found.key} is not loaded`)
    return
  }
  const manifest = 'manifest' in read ? read.manifest : null
  const name = manifest?.name ?? basename(found.root)
  if (out.plugins.some((p) => p.name === name)) {
    out.problems.push(`plugin "${name}" at ${found.root} has the name of a plugin already loaded; it is not loaded twice`)
    return
  }
  const dataDir = join(home, '.claude', 'plugins', 'data', `${name}-${found.marketplace}`.replace(/[^A-Za-z0-9._-]/g, '-'))
  const vars = { CLAUDE_PLUGIN_ROOT: found.root, CLAUDE_PLUGIN_DATA: dataDir }
  const plugin: LoadedPlugin = { ...found, name, manifest, dataDir }
  out.plugins.push(plugin)
  out.pluginDirs.push({ name, dir: found.root })
  const source = found.folderBrought ? ('project' as const) : ('user' as const)
  const manifestFile = join(found.root, '.claude-plugin', 'plugin.json')

  const part = { root: found.root, manifestFile, problems: out.problems }

  const hookSources = partSources(part, join(found.root, 'hooks', 'hooks.json'), manifest?.hooks, 'hooks', eventsOf)
  for (const h of hookSources) out.hookFiles.push({ file: h.file, source, json: { hooks: pluginHooks(h.value, vars) } })

  const serverSources = partSources(part, join(found.root, '.mcp.json'), manifest?.mcpServers, 'MCP servers', serversOf)
  for (const { file, value: servers } of serverSources)
    for (const [server, raw] of Object.entries(servers))
      out.servers.push({ name: `plugin:${name}:${server}`, raw: expand(raw, vars), file, folderBrought: found.folderBrought })
  // Claude Code makes the data folder before a hook or server can write there; one segment, named from the manifest.
  if (hookSources.length || serverSources.length) {
    try {
      mkdirSync(dataDir, { recursive: true })
    } catch {}
  }
}

/** Finds and reads every enabled plugin. Never throws: what could not be loaded is in `problems`. */
export function loadPlugins(opts: LoadPluginsOptions): Plugins {
  const settingsFiles =
    opts.settingsFiles ??
    readSettingsFiles({ cwd: opts.cwd, home: opts.home, ...(opts.managedFile !== undefined ? { managedFile: opts.managedFile } : {}) }).files
  const found = findPlugins({ cwd: opts.cwd, home: opts.home, settingsFiles, ...(opts.pluginDirs ? { pluginDirs: opts.pluginDirs } : {}) })
  const out: Plugins = { plugins: [], pluginDirs: [], hookFiles: [], servers: [], problems: [...found.problems] }
  for (const p of found.plugins) loadOne(p, opts.home, out)
  return out
}

/** A folder of a plugin's command files; `file` when the manifest names one file; `folderBrought` as the plugin's. */
export interface PluginCommandDir {
  dir: string
  namespace: string
  file?: string
  folderBrought?: boolean
}

/**
 * The folders of plugin slash commands, for the commands loader: each plugin's `commands/` and the folders its
 * manifest's `commands` names (a file named there gives its folder and `file`). Commands are `/plugin:name`.
 */
export function pluginCommandDirs(plugins: Pick<Plugins, 'plugins'>): PluginCommandDir[] {
  const out: PluginCommandDir[] = []
  for (const p of plugins.plugins) {
    const dirs = [join(p.root, 'commands'), ...asList(p.manifest?.commands).map((c) => resolve(p.root, c))]
    for (const d of dirs) {
      let st: ReturnType<typeof statSync> | undefined
      try {
        st = statSync(d)
      } catch {
        continue
      }
      const brought = p.folderBrought ? { folderBrought: true } : {}
      if (st.isDirectory()) out.push({ dir: d, namespace: p.name, ...brought })
      else if (st.isFile()) out.push({ dir: dirname(d), namespace: p.name, file: d, ...brought })
    }
  }
  return out
}

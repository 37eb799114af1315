// Which plugins a session loads, and from where, as Claude Code finds them:
// - `--plugin-dir DIR` (repeatable): DIR is a plugin, or a folder of plugins (each child with a manifest);
// - `enabledPlugins: { "name@marketplace": true }` in the settings files (a later file wins on the same key),
//   resolved through `~/.claude/plugins/installed_plugins.json` (what `/plugin install` recorded), else through
//   the marketplace's folder: `~/.claude/plugins/known_marketplaces.json`, or a settings file's
//   `extraKnownMarketplaces` with a `directory` source, whose `.claude-plugin/marketplace.json` lists each
//   plugin's `source` folder. Remote marketplaces are not fetched: a plugin found nowhere on disk is said so.
// Each plugin also says whether the person chose it (command line; enabled in their own or managed settings
// and found in their own plugin folders) or the folder brought it (anything a project's settings enable or
// declare): the latter's hooks and MCP servers wait for the folder's approval like the folder's own.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { SettingsFile } from '../hooks/settings-files'
import { readConfigJson } from '../store/read-config'
import { MANIFEST_FILE } from './manifest'

export interface FoundPlugin {
  /** The folder holding `.claude-plugin/plugin.json`, `agents/`, `skills/`… */
  root: string
  /** `name@marketplace` as enabled, or the folder given on the command line. */
  key: string
  /** `inline` for a command-line folder, else the marketplace's name (for CLAUDE_PLUGIN_DATA). */
  marketplace: string
  /** The folder's settings brought it (or its marketplace): its hooks and servers need the folder's approval. */
  folderBrought: boolean
}

export interface FindPluginsOptions {
  cwd: string
  home: string
  settingsFiles: readonly SettingsFile[]
  /** `--plugin-dir` values, resolved against cwd. */
  pluginDirs?: readonly string[]
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory()
  } catch {
    return false
  }
}
const isPersonSource = (f: Pick<SettingsFile, 'source'>): boolean => f.source === 'user' || f.source === 'managed'

/** A `--plugin-dir` value: the plugin itself, or a folder of plugins (each child with a manifest). */
function commandLinePlugins(dir: string, problems: string[]): FoundPlugin[] {
  if (!isDir(dir)) {
    problems.push(`--plugin-dir ${dir}: no such folder; no plugin was loaded from it`)
    return []
  }
  const one = (root: string): FoundPlugin => ({ root, key: root, marketplace: 'inline', folderBrought: false })
  if (existsSync(join(dir, MANIFEST_FILE))) return [one(dir)]
  const children = readdirSync(dir)
    .sort()
    .map((c) => join(dir, c))
    .filter((c) => isDir(c) && existsSync(join(c, MANIFEST_FILE)))
  // A folder with no manifest anywhere is a plugin named after itself, as Claude Code takes it.
  return children.length ? children.map(one) : [one(dir)]
}

/** `installed_plugins.json` (version 1: key → record; version 2: key → list of records) → install folders by key. */
function installedPlugins(home: string, cwd: string, problems: string[]): Map<string, string> {
  const file = join(home, '.claude', 'plugins', 'installed_plugins.json')
  const read = readConfigJson(file)
  const out = new Map<string, string>()
  if ('error' in read) problems.push(`${file} ${read.error}; installed plugins are not loaded from it`)
  if (!('json' in read) || !isRecord(read.json.plugins)) return out
  for (const [key, value] of Object.entries(read.json.plugins)) {
    const records = (Array.isArray(value) ? value : [value]).filter(isRecord)
    // A project-scoped install counts in its own project only.
    const record = records.find((r) => typeof r.installPath === 'string' && (typeof r.projectPath !== 'string' || resolve(r.projectPath) === resolve(cwd)))
    if (record) out.set(key, resolve(record.installPath as string))
  }
  return out
}

interface Marketplace {
  dir: string
  folderBrought: boolean
}

/** Marketplaces with a folder on disk: the person's known ones, and those settings files declare. */
function marketplaces(opts: FindPluginsOptions, problems: string[]): Map<string, Marketplace> {
  const out = new Map<string, Marketplace>()
  const file = join(opts.home, '.claude', 'plugins', 'known_marketplaces.json')
  const read = readConfigJson(file)
  if ('error' in read) problems.push(`${file} ${read.error}; its marketplaces are not used`)
  if ('json' in read)
    for (const [name, value] of Object.entries(read.json))
      if (isRecord(value) && typeof value.installLocation === 'string') out.set(name, { dir: resolve(value.installLocation), folderBrought: false })
  for (const f of opts.settingsFiles) {
    const extra = f.json.extraKnownMarketplaces
    if (!isRecord(extra)) continue
    for (const [name, value] of Object.entries(extra)) {
      if (out.has(name) && !out.get(name)!.folderBrought) continue // the person's own marketplace of that name stays theirs
      const source = isRecord(value) && isRecord(value.source) ? value.source : null
      if (!source || (source.source !== 'directory' && source.source !== 'file') || typeof source.path !== 'string') continue
      // Paths in a project's settings are the project's: relative to its folder; a user's, to their home.
      const base = isPersonSource(f) ? opts.home : opts.cwd
      const path = resolve(base, source.path)
      out.set(name, { dir: source.source === 'file' ? dirname(dirname(path)) : path, folderBrought: !isPersonSource(f) })
    }
  }
  return out
}

/** The plugin's folder in a marketplace, from its `.claude-plugin/marketplace.json` entry. */
function marketplacePlugin(market: Marketplace, marketName: string, plugin: string, problems: string[]): string | null {
  const file = join(market.dir, '.claude-plugin', 'marketplace.json')
  const read = readConfigJson(file)
  if (!('json' in read)) {
    problems.push(`${file} ${'error' in read ? read.error : 'is missing'}; plugin ${plugin}@${marketName} is not loaded`)
    return null
  }
  const entry = (Array.isArray(read.json.plugins) ? read.json.plugins : []).find((p) => isRecord(p) && p.name === plugin) as Record<string, unknown> | undefined
  if (!entry) {
    problems.push(`${file}: marketplace ${marketName} lists no plugin named "${plugin}"; it is not loaded`)
    return null
  }
  const base =
    isRecord(read.json.metadata) && typeof read.json.metadata.pluginRoot === 'string' ? resolve(market.dir, read.json.metadata.pluginRoot) : market.dir
  if (typeof entry.source === 'string') return isAbsolute(entry.source) ? entry.source : resolve(base, entry.source)
  problems.push(
    `${file}: plugin ${plugin}@${marketName} comes from a remote source, and Fanout does not fetch plugins; install it with Claude Code (/plugin install) and it loads from there`
  )
  return null
}

/** Every enabled plugin, command-line folders first, each once (the first of a root wins). */
export function findPlugins(opts: FindPluginsOptions): { plugins: FoundPlugin[]; problems: string[] } {
  const problems: string[] = []
  const found: FoundPlugin[] = []
  for (const dir of opts.pluginDirs ?? []) found.push(...commandLinePlugins(resolve(opts.cwd, dir), problems))

  // Settings files come lowest precedence first: the last to name a key decides it.
  const enabled = new Map<string, { on: boolean; byPerson: boolean; file: string }>()
  for (const f of opts.settingsFiles) {
    const ep = f.json.enabledPlugins
    if (ep === undefined) continue
    if (!isRecord(ep)) {
      problems.push(`${f.file}: "enabledPlugins" must be an object like {"name@marketplace": true}`)
      continue
    }
    for (const [key, on] of Object.entries(ep)) enabled.set(key, { on: on === true, byPerson: isPersonSource(f), file: f.file })
  }
  if ([...enabled.values()].some((e) => e.on)) {
    const installed = installedPlugins(opts.home, opts.cwd, problems)
    const markets = marketplaces(opts, problems)
    for (const [key, e] of enabled) {
      if (!e.on) continue
      const at = key.lastIndexOf('@')
      const [name, market] = at > 0 ? [key.slice(0, at), key.slice(at + 1)] : [key, '']
      let root = installed.get(key) ?? null
      let fromFolder = false
      if (!root) {
        const m = markets.get(market)
        if (m) {
          root = marketplacePlugin(m, market, name, problems)
          fromFolder = m.folderBrought
        } else problems.push(`${e.file}: plugin ${key} is enabled but not installed, and no marketplace "${market}" is known here; it is not loaded`)
      }
      if (!root) continue
      if (!isDir(root)) {
        problems.push(`${e.file}: plugin ${key} is enabled, but its folder ${root} is missing; it is not loaded`)
        continue
      }
      found.push({ root, key, marketplace: market || 'local', folderBrought: !e.byPerson || fromFolder })
    }
  }
  const seen = new Set<string>()
  return { plugins: found.filter((p) => !seen.has(p.root) && seen.add(p.root)), problems }
}

// Every place agents come from, in Claude Code's priority order (later wins on the same name):
//   built-in < plugin < user (~/.claude/agents) < project (.claude/agents, walking up from the working
//   directory, nearest wins) < CLI (--agents JSON) < managed (policy folder)
// Each winner remembers the definitions it shadowed, so the UI and `agents list --json` can show them.
import { realpathSync, statSync } from 'node:fs'
import { readConfigFile } from '../store/read-config'
import { basename, dirname, join, resolve } from 'node:path'
import type { AgentDefinition, AgentSource, Diagnostic, LoadedAgent } from '../../../shared/agent-definition'
import { builtinPlaceholders, defaultBuiltinDir, defaultDocsDir } from './builtins'
import { CLI_AGENTS_FILE, parseCliAgentsJson } from './cli-agents'
import { diagnostic } from './diagnostics'
import { builtParse } from './builtin-table'
import { cachedParse } from './parse-cache'
import { MAX_AGENT_FILE_CHARS, parseAgentMarkdown, substitutePlaceholders, type ParseAgentOptions, type ParsedAgent } from './parse'
import type { ScannedFile } from './scan'
import { scanAgentDir } from './scan'

export interface LoadAgentsOptions {
  cwd: string
  home: string
  /** Plugins in load order; `dir` is the plugin's root folder, whose `agents/` folder is read. */
  pluginDirs?: { name: string; dir: string }[]
  /** The `--agents` JSON, if given. */
  cliAgentsJson?: string
  /** The managed (policy) folder of agent files, read recursively. */
  managedDir?: string
  /** Fanout's built-in agents; defaults to the repository's agents/ folder. */
  builtinDir?: string
  /** What `{{FANOUT_DOCS_DIR}}` in built-in prompts becomes; defaults to the repository's docs/ folder. */
  docsDir?: string
}

export interface LoadAgentsResult {
  /** Every effective agent, in Claude Code's order (first appearance by priority). */
  agents: LoadedAgent[]
  byType: Map<string, LoadedAgent>
  /** Every diagnostic of every file read, loaded or not. */
  diagnostics: Diagnostic[]
}

/** One file (or `--agents` entry) read from one source: what it defined, and what was wrong with it. */
export interface SourceEntry {
  source: AgentSource
  file: string
  definition?: AgentDefinition
  diagnostics: Diagnostic[]
  /** Project folders: how far up from the working directory (0 = nearest); undefined elsewhere. */
  distance?: number
}

export const userAgentsDir = (home: string): string => join(home, '.claude', 'agents')

/** Where Claude Code keeps managed (policy) agents on each platform. */
export function defaultManagedAgentsDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/.claude/agents'
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\.claude\\agents'
  return '/etc/claude-code/.claude/agents'
}

/**
 * `.claude/agents` of the working directory and each folder above it, nearest first, stopping below the
 * home folder as Claude Code does (the home folder's `.claude/agents` is the user scope, not a project).
 */
export function projectAgentDirs(cwd: string, home: string): string[] {
  const dirs: string[] = []
  const homeDir = resolve(home)
  for (let dir = resolve(cwd); dir !== homeDir; dir = dirname(dir)) {
    dirs.push(join(dir, '.claude', 'agents'))
    if (dirname(dir) === dir) break
  }
  return dirs
}

/** How one file's text becomes a definition: parseAgentMarkdown, or for the built-ins the build's parse of the same text. */
type ParseFile = (text: string, file: ScannedFile, source: AgentSource, opts: ParseAgentOptions) => ParsedAgent

// A file's parse is kept by its text (parse-cache.ts): the trust check and the session read the same files, and
// `fanout run` reads a person's agent files at every start.
const parseFile: ParseFile = (text, file, source, opts) => cachedParse(text, file.path, source, opts, () => parseAgentMarkdown(text, file.path, source, opts))

const parseBuiltin: ParseFile = (text, file, source, opts) =>
  builtParse([...file.namespace, basename(file.path)].join('/'), file.path, text, opts.placeholders, substitutePlaceholders) ??
  parseAgentMarkdown(text, file.path, source, opts)

export async function readAgentFile(
  path: string,
  source: AgentSource,
  opts: ParseAgentOptions,
  parse: ParseFile = parseFile,
  scanned?: ScannedFile
): Promise<SourceEntry> {
  const at = { line: 1, column: 1 }
  try {
    const size = statSync(path).size
    if (size > MAX_AGENT_FILE_CHARS) {
      const d = diagnostic(
        path,
        at,
        'error',
        'file-too-large',
        `the file is ${size} bytes, more than the ${MAX_AGENT_FILE_CHARS} an agent file may have; the agent is not loaded`
      )
      return { source, file: path, diagnostics: [d] }
    }
    // A regular file only, read within a bound: a repository's agent file that is a named pipe or a link to a
    // device must not hang the load (store/read-config.ts).
    const read = readConfigFile(path, MAX_AGENT_FILE_CHARS * 4)
    if (!('text' in read)) throw Object.assign(new Error('unreadable'), { code: 'missing' in read ? 'ENOENT' : read.error })
    const text = read.text
    return { source, file: path, ...parse(text, scanned ?? { path, namespace: [] }, source, opts) }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err)
    return { source, file: path, diagnostics: [diagnostic(path, at, 'error', 'unreadable-file', `the file cannot be read (${code}); the agent is not loaded`)] }
  }
}

function realPathOr(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}

/** Reads every agent file under `dir`. Files already read through another path (symlinks) are skipped. */
export async function readAgentDir(
  dir: string,
  source: AgentSource,
  seen: Set<string>,
  opts: (namespace: string[]) => ParseAgentOptions = () => ({}),
  parse: ParseFile = parseFile
): Promise<{ entries: SourceEntry[]; diagnostics: Diagnostic[] }> {
  const scan = await scanAgentDir(dir)
  const entries: SourceEntry[] = []
  for (const file of scan.files) {
    // Sync, as the file itself is read (readConfigFile): one agent after another, a stat and a realpath through the
    // thread pool were two round trips each, ~30 ms of a start with 100 agent files in ~/.claude/agents.
    const real = file.real ?? realPathOr(file.path)
    if (seen.has(real)) {
      scan.diagnostics.push(
        diagnostic(file.path, { line: 1, column: 1 }, 'info', 'duplicate-file', 'this file was already read through another path, so it is not read twice')
      )
      continue
    }
    seen.add(real)
    entries.push(await readAgentFile(file.path, source, opts(file.namespace), parse, file))
  }
  return { entries, diagnostics: scan.diagnostics }
}

/** Reads every source, lowest priority first. `loadAgents` and `agents check` both start here. */
export async function readAllSources(options: LoadAgentsOptions): Promise<{ entries: SourceEntry[]; diagnostics: Diagnostic[] }> {
  const seen = new Set<string>()
  const entries: SourceEntry[] = []
  const diagnostics: Diagnostic[] = []
  const add = (r: { entries: SourceEntry[]; diagnostics: Diagnostic[] }): void => {
    entries.push(...r.entries)
    diagnostics.push(...r.diagnostics)
  }
  const placeholders = builtinPlaceholders(options.docsDir ?? defaultDocsDir())
  add(await readAgentDir(options.builtinDir ?? defaultBuiltinDir(), 'built-in', seen, () => ({ placeholders }), parseBuiltin))
  for (const plugin of options.pluginDirs ?? []) {
    add(await readAgentDir(join(plugin.dir, 'agents'), 'plugin', seen, (namespace) => ({ plugin: plugin.name, namespace })))
  }
  add(await readAgentDir(userAgentsDir(options.home), 'user', seen))
  const projectDirs = projectAgentDirs(options.cwd, options.home)
  for (let i = projectDirs.length - 1; i >= 0; i--) {
    const r = await readAgentDir(projectDirs[i], 'project', seen)
    add({ entries: r.entries.map((e) => ({ ...e, distance: i })), diagnostics: r.diagnostics })
  }
  if (options.cliAgentsJson !== undefined) {
    const cli = parseCliAgentsJson(options.cliAgentsJson)
    const attached = new Set(Object.values(cli.perAgent).flat())
    diagnostics.push(...cli.diagnostics.filter((d) => !attached.has(d)))
    entries.push(
      ...cli.definitions.map((definition) => ({
        source: 'cli' as const,
        file: CLI_AGENTS_FILE,
        definition,
        diagnostics: cli.perAgent[definition.agentType] ?? []
      }))
    )
  }
  if (options.managedDir) add(await readAgentDir(options.managedDir, 'managed', seen))
  return { entries, diagnostics }
}

/** Folds entries (lowest priority first) into the effective agents, recording what each one shadowed. */
export function resolvePriority(entries: readonly SourceEntry[]): { agents: LoadedAgent[]; byType: Map<string, LoadedAgent>; diagnostics: Diagnostic[] } {
  const byType = new Map<string, LoadedAgent>()
  const winners = new Map<string, SourceEntry>()
  const diagnostics: Diagnostic[] = []
  for (const entry of entries) {
    const def = entry.definition
    if (!def) continue
    const loaded: LoadedAgent = { definition: def, shadows: [], diagnostics: [...entry.diagnostics] }
    const previous = byType.get(def.agentType)
    const previousEntry = winners.get(def.agentType)
    if (previous && previousEntry) {
      loaded.shadows = [...previous.shadows, { source: previous.definition.source, ...(previous.definition.file ? { file: previous.definition.file } : {}) }]
      // Two files of one folder level defining one name is a mistake; a nearer or higher source is intended.
      if (previousEntry.source === entry.source && previousEntry.distance === entry.distance) {
        const d = diagnostic(
          entry.file,
          { line: 1, column: 1 },
          'warning',
          'duplicate-name',
          `another ${entry.source} agent is also named "${def.agentType}" (${previousEntry.file}); this file wins because it is read later`
        )
        loaded.diagnostics.push(d)
        diagnostics.push(d)
      }
    }
    byType.set(def.agentType, loaded) // Map keeps first-insertion order: Claude Code lists agents this way
    winners.set(def.agentType, entry)
  }
  return { agents: [...byType.values()], byType, diagnostics }
}

export async function loadAgents(options: LoadAgentsOptions): Promise<LoadAgentsResult> {
  const { entries, diagnostics } = await readAllSources(options)
  const folded = resolvePriority(entries)
  return {
    agents: folded.agents,
    byType: folded.byType,
    diagnostics: [...diagnostics, ...entries.flatMap((e) => e.diagnostics), ...folded.diagnostics]
  }
}

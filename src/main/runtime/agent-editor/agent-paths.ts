// Which files the editor may read and write. The UI names files by absolute path, so every path is checked
// here: reads are limited to the folders agents come from, writes to the user's and the project's agent
// folders (built-in, plugin, managed and command-line agents are read-only), and names become file names
// only when they are plain.
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import type { AgentSource } from '../../../shared/agent-definition'
import type { AgentScope } from '../../../shared/agent-editor'
import { defaultBuiltinDir } from '../definitions/builtins'
import { projectAgentDirs, userAgentsDir, type LoadAgentsOptions } from '../definitions/sources'
import { AgentFileError } from './file-store'

export type AgentSourcesConfig = Omit<LoadAgentsOptions, 'cwd' | 'home'>

export interface AgentPathContext {
  cwd: string
  home: string
  sources: AgentSourcesConfig
}

const inside = (dir: string, file: string): boolean => {
  const rel = relative(resolve(dir), resolve(file))
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel)
}

/** Where a new agent of each scope goes: the user's folder, or the workspace's `.claude/agents`. */
export function scopeDirs(ctx: AgentPathContext): Record<AgentScope, string> {
  return { user: userAgentsDir(ctx.home), project: join(resolve(ctx.cwd), '.claude', 'agents') }
}

/** The scope of an editable file, or undefined when the file is not in an editable folder. */
export function editableScope(file: string, ctx: AgentPathContext): AgentScope | undefined {
  if (!/\.md$/i.test(file)) return undefined
  if (inside(userAgentsDir(ctx.home), file)) return 'user'
  if (projectAgentDirs(ctx.cwd, ctx.home).some((dir) => inside(dir, file))) return 'project'
  return undefined
}

/** The source a readable agent file belongs to (and its plugin), or undefined when it is not an agent file. */
export function readableSource(file: string, ctx: AgentPathContext): { source: AgentSource; plugin?: string; namespace?: string[] } | undefined {
  if (!/\.md$/i.test(file)) return undefined
  const managed = ctx.sources.managedDir
  if (managed && inside(managed, file)) return { source: 'managed' }
  const scope = editableScope(file, ctx)
  if (scope) return { source: scope }
  for (const plugin of ctx.sources.pluginDirs ?? []) {
    const dir = join(plugin.dir, 'agents')
    if (inside(dir, file)) return { source: 'plugin', plugin: plugin.name, namespace: relative(dir, dirname(file)).split(sep).filter(Boolean) }
  }
  if (inside(ctx.sources.builtinDir ?? defaultBuiltinDir(), file)) return { source: 'built-in' }
  return undefined
}

export function requireReadable(file: string, ctx: AgentPathContext) {
  const found = readableSource(file, ctx)
  if (!found)
    throw new AgentFileError(
      'forbidden',
      `${file} is not an agent file of this workspace (agents live in .claude/agents, ~/.claude/agents, plugins and Fanout's own agents folder).`
    )
  return found
}

export function requireEditable(file: string, ctx: AgentPathContext): AgentScope {
  const scope = editableScope(file, ctx)
  if (scope) return scope
  const source = readableSource(file, ctx)?.source
  throw new AgentFileError(
    'forbidden',
    source
      ? `${basename(file)} is a ${source} agent, which is read-only here; duplicate it into your user or project folder to change it.`
      : `${file} is not in an agent folder Fanout may write to.`
  )
}

const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/

/** Checks an agent name can also be its file name. */
export function checkAgentName(name: string): string {
  const n = name.trim()
  if (!PLAIN_NAME.test(n) || n.endsWith('.') || n.toLowerCase().endsWith('.md')) {
    throw new AgentFileError(
      'invalid_request',
      `"${name}" cannot be an agent name: use letters, digits, "-", "_" or "." (no spaces, no ":"), starting with a letter or digit, at most 100 characters.`
    )
  }
  return n
}

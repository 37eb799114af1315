// What a folder brings that runs or grants something on its own: each one is an item a person approves
// before it takes effect (see folder-trust.ts). An item names its file, says in a line what it would do,
// and has a hash of everything that decides that, so an approval holds for exactly what was seen: change
// one character of a server's command and it waits again. Paths in hashes are relative to the folder, so a
// git worktree of an approved folder (where "Try it" runs) carries the same approvals.
import { createHash } from 'node:crypto'
import { relative, sep } from 'node:path'
import { displayCommand, type ProjectCommand, type ProjectCommandKind } from '../../../shared/trust'

/** A stable JSON text: object keys sorted, so the same content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** The file as the folder names it: `.mcp.json`, `.claude/settings.json`, `../.mcp.json`. */
export function folderRelative(folder: string, file: string): string {
  const rel = relative(folder, file)
  return (rel || file).split(sep).join('/')
}

export interface ItemInput {
  kind: ProjectCommandKind
  /** The session's folder, for relative paths. */
  folder: string
  file: string
  name: string
  /** What would run or be granted, in one line. */
  command: string
  detail?: string
  /** Everything that decides what runs (the raw configuration), hashed. */
  content: unknown
}

export function makeItem(input: ItemInput): ProjectCommand {
  const file = folderRelative(input.folder, input.file)
  const id = `${input.kind}:${file}:${input.name}`
  const hash = createHash('sha256')
    .update(canonicalJson([input.kind, file, input.name, input.content]))
    .digest('hex')
  // Shown to a person deciding whether to run it: every character visible (see displayCommand).
  return {
    id,
    kind: input.kind,
    file: displayCommand(file),
    name: displayCommand(input.name),
    command: displayCommand(input.command),
    ...(input.detail ? { detail: displayCommand(input.detail) } : {}),
    hash
  }
}

/** A command line as a person reads it: arguments with spaces or quotes are quoted. */
export function commandLine(command: string, args: readonly string[] = []): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)
  return [command, ...args.map(quote)].join(' ')
}

/** One line of a raw `.mcp.json` entry: its command line, or its URL. */
export function describeServer(raw: unknown): { command: string; detail?: string } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { command: JSON.stringify(raw) ?? String(raw) }
  const e = raw as Record<string, unknown>
  const names = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v as object) : [])
  if (typeof e.url === 'string' && typeof e.command !== 'string') {
    const headers = names(e.headers)
    return { command: `connects to ${e.url}`, ...(headers.length ? { detail: `sends the headers ${headers.join(', ')}` } : {}) }
  }
  const args = Array.isArray(e.args) ? e.args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))) : []
  const env = names(e.env)
  const details = [...(env.length ? [`with the environment variables ${env.join(', ')}`] : []), ...(typeof e.cwd === 'string' ? [`in ${e.cwd}`] : [])]
  return {
    command: commandLine(typeof e.command === 'string' ? e.command : (JSON.stringify(e.command) ?? ''), args),
    ...(details.length ? { detail: details.join('; ') } : {})
  }
}

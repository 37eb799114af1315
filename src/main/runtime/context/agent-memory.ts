// An agent's own persistent memory (`memory: user | project | local` in its definition): a folder per agent
// type whose MEMORY.md index is loaded into the agent's system prompt at start, and which the agent keeps
// up to date itself with its file tools. Same locations as Claude Code, so memories carry over.
import { lstat, mkdir } from 'node:fs/promises'
import { readConfigFile } from '../store/read-config'
import { dirname, join, relative } from 'node:path'
import type { MemoryScope } from '../../../shared/agent-definition'
import { leadsOutside, projectRootOf } from './project-root'

export const MEMORY_FILE = 'MEMORY.md'
export const MEMORY_MAX_LINES = 200
export const MEMORY_MAX_BYTES = 25 * 1024

export interface AgentMemoryOptions {
  agentType: string
  scope: MemoryScope
  /** The agent's working directory: the project is the repository around it (or the folder itself). */
  cwd: string
  home: string
  /**
   * Overrides the project folder for project/local scopes. For an agent in a worktree, pass the original
   * checkout's root so its memory lands in the user's project, not on the agent's branch.
   */
  projectRoot?: string
}

export interface AgentMemory {
  agentType: string
  scope: MemoryScope
  /** The memory folder (created if missing). */
  dir: string
  /** `<dir>/MEMORY.md`. */
  file: string
  /** What goes into the prompt: the file's start, at most 200 lines and 25 KB. */
  content: string
  exists: boolean
  truncated: boolean
  totalLines: number
  totalBytes: number
}

/** Agent types become folder names: plugin agents (`plugin:name`) and odd characters are made safe. */
export function memoryFolderName(agentType: string): string {
  const safe = agentType.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '')
  return safe || 'agent'
}

export async function agentMemoryDir(options: AgentMemoryOptions): Promise<string> {
  const name = memoryFolderName(options.agentType)
  if (options.scope === 'user') return join(options.home, '.claude', 'agent-memory', name)
  const root = options.projectRoot ?? (await projectRootOf(options.cwd))
  return join(root, '.claude', options.scope === 'project' ? 'agent-memory' : 'agent-memory-local', name)
}

/** Cuts to the first 200 lines, then to 25 KB at a line boundary (or a character boundary for one huge line). */
export function truncateMemory(text: string): { content: string; truncated: boolean } {
  const lines = text.split('\n')
  let content = lines.length > MEMORY_MAX_LINES ? lines.slice(0, MEMORY_MAX_LINES).join('\n') : text
  if (Buffer.byteLength(content, 'utf8') > MEMORY_MAX_BYTES) {
    const bytes = Buffer.from(content, 'utf8').subarray(0, MEMORY_MAX_BYTES)
    // Decoding may end in a broken multi-byte character, shown as U+FFFD: drop it.
    let cut = bytes.toString('utf8').replace(/\uFFFD$/, '')
    const lastNewline = cut.lastIndexOf('\n')
    if (lastNewline > 0) cut = cut.slice(0, lastNewline)
    content = cut
  }
  return { content, truncated: content !== text }
}

/** `path`, or its nearest ancestor that exists (a dangling link counts as existing: realpath then fails, loudly). */
async function nearestExisting(path: string): Promise<string> {
  for (let p = path; ; p = dirname(p)) {
    const found = await lstat(p).then(
      () => true,
      () => false
    )
    if (found || dirname(p) === p) return p
  }
}

/** Far beyond what is shown (truncateMemory keeps the head). */
const MAX_MEMORY_FILE_BYTES = 16 * 1024 * 1024

export async function loadAgentMemory(options: AgentMemoryOptions): Promise<AgentMemory> {
  const dir = await agentMemoryDir(options)
  // The folder becomes writable in every mode: a link the repository planted (.claude/agent-memory, or the
  // agent's folder in it, leading to ~/.ssh or anywhere else) would carry that to the place it leads. Checked
  // before the folder is created (nothing is made out there) and after.
  const root = options.scope === 'user' ? null : (options.projectRoot ?? (await projectRootOf(options.cwd)))
  const refuseOutside = async (path: string) => {
    const outside = root === null ? null : await leadsOutside(path, root)
    if (outside) throw new Error(`agent memory folder ${dir} leads to ${outside}, outside the project (a symbolic link); Fanout does not follow it`)
  }
  // Only what exists below the project root can be a planted link (the root itself may not exist yet).
  const existing = await nearestExisting(dir)
  if (root !== null && !relative(root, existing).startsWith('..') && relative(root, existing) !== '') await refuseOutside(existing)
  // The agent is told to write here; make sure it can, even on its first run.
  await mkdir(dir, { recursive: true })
  await refuseOutside(dir)
  const file = join(dir, MEMORY_FILE)
  // A project's memory file may be one the repository planted (a link to a pipe or /dev/zero): only a regular,
  // bounded file is read.
  const read = readConfigFile(file, MAX_MEMORY_FILE_BYTES)
  if ('error' in read) throw new Error(`cannot read agent memory ${file}: it ${read.error}`)
  const text: string | null = 'text' in read ? read.text : null
  const base = { agentType: options.agentType, scope: options.scope, dir, file }
  if (text === null) return { ...base, content: '', exists: false, truncated: false, totalLines: 0, totalBytes: 0 }
  const { content, truncated } = truncateMemory(text)
  return {
    ...base,
    content,
    exists: true,
    truncated,
    totalLines: text === '' ? 0 : text.replace(/\n$/, '').split('\n').length,
    totalBytes: Buffer.byteLength(text, 'utf8')
  }
}

const SCOPE_GUIDANCE: Record<MemoryScope, string> = {
  user: 'This memory is yours across every project the user works on, and nobody else reads it: keep notes that hold in general, not facts about one codebase.',
  project:
    "This memory lives in the project's .claude folder and is usually checked into version control, so the whole team sees it: keep notes specific to this project, and never write secrets or personal details there.",
  local: "This memory lives in the project's .claude folder but stays out of version control: notes about this project for this user on this machine."
}

/** The system-prompt section that shows the agent its memory and how to keep it. */
export function agentMemoryPrompt(memory: AgentMemory): string {
  const lines = [
    `You have a persistent memory folder at ${memory.dir}. It survives between runs of the ${memory.agentType} agent.`,
    SCOPE_GUIDANCE[memory.scope],
    '',
    `How to use it:`,
    `- ${memory.file} is the index. It is loaded into your instructions at the start of every run, but only its first ${MEMORY_MAX_LINES} lines (and at most ${MEMORY_MAX_BYTES / 1024} KB), so keep it short: key facts and pointers to topic files.`,
    `- Put longer notes in other files in ${memory.dir} (for example debugging.md or conventions.md) and Read them when a task calls for them.`,
    '- Create and change these files with your Write and Edit tools as you go. Record what will still be true next time: conventions, decisions and why, pitfalls, where things live. Skip the details of this one task.',
    '- Check a note against the code before relying on it, and fix or delete notes that turn out wrong or stale.',
    ''
  ]
  if (!memory.exists || memory.content.trim() === '') {
    lines.push(`${memory.file} does not exist yet or is empty. Create it when you learn something worth keeping.`)
  } else {
    lines.push(`Contents of ${memory.file}:`, '', memory.content.trimEnd())
    if (memory.truncated) {
      lines.push(
        '',
        `[MEMORY.md is longer (${memory.totalLines} lines, ${Math.ceil(memory.totalBytes / 1024)} KB) and was cut here. Read the file for the rest, and move detail into topic files so the index fits.]`
      )
    }
  }
  return lines.join('\n')
}

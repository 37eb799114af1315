// What a folder brings, in the IPC contract: its agents (with the loader's diagnostics), its MCP servers
// and the person's trust in what would run by itself.
import { z } from 'zod'
import { AGENT_SOURCES } from './agent-definition'
import type { Diagnostic, LoadedAgent } from './agent-definition'
import { AbsolutePath } from './contract-fields'
import { FolderTrustSchema } from './trust'
import { CommandInfoSchema } from './prompt-commands'

const DiagnosticSchema = z.object({
  file: z.string(),
  line: z.number(),
  column: z.number(),
  severity: z.enum(['error', 'warning', 'info']),
  code: z.string(),
  message: z.string()
}) satisfies z.ZodType<Diagnostic>

/** Loaded agents pass through whole (editors round-trip unknown keys); only the fields the UI needs are checked. */
const LoadedAgentSchema = z.custom<LoadedAgent>(
  (v: any) =>
    v !== null &&
    typeof v === 'object' &&
    typeof v.definition?.agentType === 'string' &&
    AGENT_SOURCES.includes(v.definition?.source) &&
    Array.isArray(v.diagnostics),
  'agents must be loaded agent definitions'
)

/** One MCP server of a folder: where it is configured, whether it runs, and its tools as agents see them. */
export const McpServerInfoSchema = z.object({
  name: z.string(),
  scope: z.enum(['fanout', 'user', 'project', 'local', 'agent']),
  transport: z.enum(['stdio', 'http']).nullable(),
  /** The command line or URL. */
  target: z.string(),
  /** `untrusted`: a project server waiting for the person's approval of the folder (never started). */
  status: z.enum(['connected', 'failed', 'disabled', 'pending', 'untrusted']),
  /** Why it failed: the server, the reason, the tail of its stderr. */
  error: z.string().optional(),
  file: z.string().optional(),
  /** `name` is what agents call (mcp__server__tool); `tool` is the server's own name. */
  tools: z.array(z.object({ name: z.string(), tool: z.string(), description: z.string(), readOnly: z.boolean() }))
})
export type McpServerInfo = z.infer<typeof McpServerInfoSchema>

/** The most files `folder.files` lists (the picker filters them in the page). */
export const FOLDER_FILES_MAX = 20_000

export const FOLDER_CONTRACT = {
  'agents.list': {
    request: z.object({ cwd: AbsolutePath }).strict(),
    response: z.object({ agents: z.array(LoadedAgentSchema), errors: z.array(DiagnosticSchema) })
  },
  /** The MCP servers sessions in a folder use: state (connected, failed, disabled) and tools. */
  'mcp.list': {
    request: z.object({ cwd: AbsolutePath }).strict(),
    response: z.object({ servers: z.array(McpServerInfoSchema), problems: z.array(z.string()) })
  },
  /** The `/` commands a prompt in this folder may start with: the app's own and the folder's skills. */
  'folder.commands': {
    request: z.object({ cwd: AbsolutePath }).strict(),
    response: z.object({ commands: z.array(CommandInfoSchema) })
  },
  /**
   * The folder's files for `@` mentions: root-relative, as a search sees them (.gitignore honoured, .git
   * left out), at most FOLDER_FILES_MAX; `complete` false when there were more.
   */
  'folder.files': {
    request: z.object({ cwd: AbsolutePath }).strict(),
    response: z.object({ files: z.array(z.string()), complete: z.boolean() })
  },
  /** What a folder brings that would run or grant by itself, and whether the person approved each. */
  'trust.get': { request: z.object({ cwd: AbsolutePath }).strict(), response: z.object({ trust: FolderTrustSchema() }) },
  /** The person's answer about a folder: trust what it brings (as listed), or not. */
  'trust.answer': {
    request: z
      .object({
        cwd: AbsolutePath,
        decision: z.enum(['trust', 'decline'], { error: 'decision must be "trust" or "decline"' }),
        /** The list's hash as the person saw it: a list that changed since is not answered. */
        hash: z.string().regex(/^[0-9a-f]{32}$/, 'hash must be the list hash trust.get returned')
      })
      .strict(),
    response: z.object({ trust: FolderTrustSchema() })
  }
} as const
export type FolderCallName = keyof typeof FOLDER_CONTRACT

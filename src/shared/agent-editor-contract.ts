// The agent editor's part of the IPC contract: zod request and response schemas of each call (each served
// by its entry in host/agent-editor-handlers.ts) and the notices the host pushes when agent files change. Spread into CONTRACT
// and HostNoticeSchema by ipc-contract.ts.
import { z } from 'zod'
import { Absolute, AbsolutePath } from './contract-fields'
import type { AgentAnalysis, AgentLibrary, OpenedAgentFile, SaveResult, TryAgentResult } from './agent-editor'
import { EDITOR_FIELD_KEYS } from './agent-editor'
import type { AgentStats } from './budget'

/** The loader refuses larger files (MAX_AGENT_FILE_CHARS in the runtime). */
const MAX_TEXT = 1024 * 1024

const Cwd = AbsolutePath
const AgentFile = Absolute('file').refine((p) => /\.md$/i.test(p), 'file must be a .md agent file')
const Text = z.string({ error: 'text must be a string' }).max(MAX_TEXT, `text is longer than ${MAX_TEXT} characters, the most an agent file may have`)
const Scope = z.enum(['user', 'project'])
const Name = z.string().trim().min(1, 'name is empty').max(100, 'name is longer than 100 characters')

export const FileVersionSchema = z.object({
  mtimeMs: z.number(),
  size: z.number().int().nonnegative(),
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'hash must be a sha256 in hex')
})

const FieldValueSchema = z.union([z.string().max(MAX_TEXT), z.number(), z.boolean(), z.array(z.string().max(2000)).max(500)])

export const FieldChangeSchema = z.object({ key: z.enum(EDITOR_FIELD_KEYS), value: FieldValueSchema.nullable() }).strict()

/** Big structured answers pass through whole; their shape is the host's own (typed), checked at the top. */
const shaped = <T>(what: string, check: (v: any) => boolean) =>
  z.custom<T>((v) => v !== null && typeof v === 'object' && check(v), `${what} has the wrong shape`)
const Analysis = shaped<AgentAnalysis>('analysis', (v) => typeof v.file === 'string' && Array.isArray(v.diagnostics) && typeof v.fields === 'object')
const Library = shaped<AgentLibrary>('library', (v) => Array.isArray(v.entries) && typeof v.listing === 'string')
const Opened = shaped<OpenedAgentFile>('document', (v) => typeof v.text === 'string' && typeof v.version?.hash === 'string')
const Saved = shaped<SaveResult>('save result', (v) => typeof v.saved === 'boolean')
const Tried = shaped<TryAgentResult>('try result', (v) => typeof v.sessionId === 'string' && typeof v.agentId === 'string')

const Stats = shaped<AgentStats>('stats', (v) => typeof v.runs === 'number' && Array.isArray(v.last))

export const AGENT_EDITOR_CONTRACT = {
  /** An agent definition's recorded runs (store/agent-history.ts): its figures and last runs; null before its first run. */
  'agents.history': {
    request: z.object({ agentType: Name, file: AgentFile.optional() }).strict(),
    response: z.object({ stats: Stats.nullable() })
  },
  /** Every agent file of a folder by source, with shadowing, diagnostics and the Agent tool's listing. */
  'agents.library': { request: z.object({ cwd: Cwd }).strict(), response: z.object({ library: Library }) },
  /** One agent file: its text, version and analysis. */
  'agents.open': { request: z.object({ cwd: Cwd, file: AgentFile }).strict(), response: z.object({ document: Opened }) },
  /** Analysis of a text (a draft): the loader's diagnostics, the form's values, the effective result. */
  'agents.analyze': { request: z.object({ cwd: Cwd, file: AgentFile, text: Text }).strict(), response: z.object({ analysis: Analysis }) },
  /** Applies form changes (or a new body) to a text and analyses the result; writes nothing. */
  'agents.edit': {
    request: z.object({ cwd: Cwd, file: AgentFile, text: Text, changes: z.array(FieldChangeSchema).max(50).default([]), body: Text.optional() }).strict(),
    response: z.object({
      text: z.string(),
      analysis: Analysis,
      /** The first change that could not be made: its field keeps what the text had; the batch's other changes are made. */
      error: z.object({ key: z.string().optional(), message: z.string() }).optional()
    })
  },
  /** The one-click fix of a text that does not load or loads only after Claude Code's repair. */
  'agents.repair': {
    request: z.object({ cwd: Cwd, file: AgentFile, text: Text }).strict(),
    response: z.object({ text: z.string(), changes: z.array(z.string()), analysis: Analysis })
  },
  /** Saves a text atomically, unless the file changed on disk since `base` (then returns the conflict). */
  'agents.save': {
    request: z.object({ cwd: Cwd, file: AgentFile, text: Text, base: FileVersionSchema.nullable(), force: z.boolean().optional() }).strict(),
    response: z.object({ result: Saved })
  },
  'agents.create': {
    request: z.object({ cwd: Cwd, scope: Scope, name: Name, template: z.string().min(1).max(50) }).strict(),
    response: z.object({ file: z.string() })
  },
  'agents.duplicate': {
    request: z.object({ cwd: Cwd, file: AgentFile, text: Text, scope: Scope.optional() }).strict(),
    response: z.object({ file: z.string() })
  },
  /** Renames the file and the `name` field together. */
  'agents.rename': {
    request: z.object({ cwd: Cwd, file: AgentFile, name: Name, text: Text, base: FileVersionSchema.nullable() }).strict(),
    response: z.object({ file: z.string(), version: FileVersionSchema })
  },
  /** Moves a file between the user and project folders. */
  'agents.move': {
    request: z.object({ cwd: Cwd, file: AgentFile, scope: Scope, base: FileVersionSchema.nullable() }).strict(),
    response: z.object({ file: z.string() })
  },
  'agents.delete': { request: z.object({ cwd: Cwd, file: AgentFile, base: FileVersionSchema.nullable() }).strict(), response: z.object({}) },
  /** Runs a draft on a prompt as the main agent of a new session (in its own worktree in a git repo). */
  'agents.try': {
    request: z
      .object({
        cwd: Cwd,
        file: AgentFile,
        text: Text,
        prompt: z.string().trim().min(1, 'prompt is empty').max(100_000, 'prompt is longer than 100,000 characters')
      })
      .strict(),
    response: z.object({ run: Tried })
  }
} as const
export type AgentEditorCallName = keyof typeof AGENT_EDITOR_CONTRACT

export const AGENT_EDITOR_NOTICES = [
  /** Agent files changed on disk (or through the editor): the library and open editors re-read them. */
  z.object({ type: z.literal('agents_changed'), folders: z.array(z.string()) }),
  /** A "Try it" run ended: what became of its worktree. */
  z.object({
    type: z.literal('agent_try_finished'),
    sessionId: z.string(),
    worktree: z
      .object({ path: z.string(), branch: z.string(), changed: z.boolean(), kept: z.boolean(), commit: z.string().optional(), error: z.string().optional() })
      .optional()
  })
] as const

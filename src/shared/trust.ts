// Trusted folders: what a folder brings that would run or grant something by itself (its .mcp.json
// servers, the hooks in its .claude settings, its agents' own hooks and servers, the permissions its
// settings pre-approve), and what the person said about each. Nothing of it takes effect in a folder until
// the person approves it there; a change to any of it waits for a new answer.
import { z } from 'zod'
import { lazy } from './lazy'

export const PROJECT_COMMAND_KINDS = [
  /** A server in .mcp.json (this folder's or a folder's above it): a program started, or a URL connected to. */
  'mcp-server',
  /** A hook command in .claude/settings.json or .claude/settings.local.json (any hook event). */
  'hook',
  /** A hook in the frontmatter of one of the folder's agent files. */
  'agent-hook',
  /** An MCP server defined inside one of the folder's agent files. */
  'agent-mcp-server',
  /** A `permissions.allow` rule: calls it covers run without asking. */
  'permission-rule',
  /** `permissions.defaultMode` set to a mode that asks less (acceptEdits, bypassPermissions). */
  'permission-mode',
  /** `permissions.additionalDirectories`: folders outside this one that tools may read and edit. */
  'permission-directory',
  /** An agent file's `permissionMode` that asks less than the session (acceptEdits, bypassPermissions). */
  'agent-mode',
  /**
   * A file outside the folder that its CLAUDE.md brings into every prompt (an `@~/…` import, or a CLAUDE.md
   * that is a link to a file elsewhere): its content would be sent to the model.
   */
  'outside-file'
] as const
export type ProjectCommandKind = (typeof PROJECT_COMMAND_KINDS)[number]

export interface ProjectCommand {
  /** Kind, file and name: stays the same when the content changes (so a change can be shown as one). */
  id: string
  kind: ProjectCommandKind
  /** The file that brings it, relative to the folder (`.mcp.json`, `.claude/settings.json`, `../.mcp.json`). */
  file: string
  /** The server's name, the hook's event and matcher, the rule. */
  name: string
  /** What would run, in one line: the command line, the URL, the rule. */
  command: string
  /** More about it: environment variables and headers it is given, where it runs. */
  detail?: string
  /** sha256 of everything that decides what it does. */
  hash: string
}

export type TrustItemState = 'approved' | 'declined' | 'waiting'
/** Who approved it: the person in Fanout, Claude Code's settings (enabledMcpjsonServers…), or a flag (--trust-project). */
export type TrustApprovedBy = 'you' | 'claude-settings' | 'flag'

export interface TrustItem extends ProjectCommand {
  state: TrustItemState
  by?: TrustApprovedBy
  /** An item approved or declined before whose content has changed since. */
  changed?: boolean
}

/** `none`: the folder brings nothing. `waiting`: something needs an answer. */
export type FolderTrustState = 'none' | 'waiting' | 'trusted' | 'declined'

export interface FolderTrust {
  folder: string
  state: FolderTrustState
  items: TrustItem[]
  /** Of the items as listed: an answer is taken only for the list the person saw. */
  hash: string
  /** Settings that name commands Fanout never runs (apiKeyHelper, statusLine…): listed so nothing is hidden. */
  notRun: Array<{ file: string; setting: string; command: string }>
  /** Files that could not be read, each with the reason (what they hold is not run either). */
  problems: string[]
}

const TrustItemSchema = () =>
  z.object({
    id: z.string(),
    kind: z.enum(PROJECT_COMMAND_KINDS),
    file: z.string(),
    name: z.string(),
    command: z.string(),
    detail: z.string().optional(),
    hash: z.string(),
    state: z.enum(['approved', 'declined', 'waiting']),
    by: z.enum(['you', 'claude-settings', 'flag']).optional(),
    changed: z.boolean().optional()
  }) satisfies z.ZodType<TrustItem>

/** Built at first use: only the app's contracts read it, never a run. */
export const FolderTrustSchema = lazy(
  () =>
    z.object({
      folder: z.string(),
      state: z.enum(['none', 'waiting', 'trusted', 'declined']),
      items: z.array(TrustItemSchema()),
      hash: z.string(),
      notRun: z.array(z.object({ file: z.string(), setting: z.string(), command: z.string() })),
      problems: z.array(z.string())
    }) satisfies z.ZodType<FolderTrust>
)

/** What each kind is, for headings in the dialog and lines on the command line. */
export const KIND_TEXT: Record<ProjectCommandKind, string> = {
  'mcp-server': 'MCP server',
  hook: 'Hook',
  'agent-hook': 'Agent hook',
  'agent-mcp-server': 'Agent MCP server',
  'permission-rule': 'Allowed without asking',
  'permission-mode': 'Permission mode',
  'permission-directory': 'Extra folder',
  'agent-mode': 'Agent permission mode',
  'outside-file': 'File sent to the model'
}

/**
 * A command or name as shown for consent: every character visible. Control codes (terminal escapes that
 * could repaint a terminal), bidirectional overrides and zero-width characters (which make text read other
 * than it runs) become escapes; line breaks become ⏎; long runs of spaces are counted, so nothing can be
 * pushed out of sight.
 */
export function displayCommand(text: string): string {
  return text
    .replace(/\r?\n/g, ' ⏎ ')
    .replace(
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g,
      (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`
    )
    .replace(/[ \t]{4,}/g, (run) => ` [${run.length} spaces] `)
}

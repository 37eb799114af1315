// The agent editor's contract calls, mapped to the RuntimeHost / `window.fanout` method serving each.
// Kept free of zod (like ipc-channels.ts, which spreads this in) so the preload can import it.
export const AGENT_EDITOR_CALLS = {
  /** Every agent file of a folder by source, with shadowing, diagnostics and the Agent tool's listing. */
  'agents.library': 'agentLibrary',
  /** One agent file: its text, version and analysis. */
  'agents.open': 'openAgentFile',
  /** Analysis of a text (a draft): the loader's diagnostics, the form's values, the effective result. */
  'agents.analyze': 'analyzeAgent',
  /** Applies form changes (or a new body) to a text and analyses the result; writes nothing. */
  'agents.edit': 'editAgent',
  /** The one-click fix of a text that does not load or loads only after Claude Code's repair. */
  'agents.repair': 'repairAgent',
  /** Saves a text atomically, unless the file changed on disk since `base` (then returns the conflict). */
  'agents.save': 'saveAgent',
  'agents.create': 'createAgent',
  'agents.duplicate': 'duplicateAgent',
  /** Renames the file and the `name` field together. */
  'agents.rename': 'renameAgent',
  /** Moves a file between the user and project folders. */
  'agents.move': 'moveAgent',
  'agents.delete': 'deleteAgent',
  /** Runs a draft on a prompt as the main agent of a new session (in its own worktree in a git repo). */
  'agents.try': 'tryAgent'
} as const

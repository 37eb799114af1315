// Which tools a subagent may have, before its own `tools` / `disallowedTools` are applied.
// Modelled on Claude Code's ALL_AGENT_DISALLOWED_TOOLS, CUSTOM_AGENT_DISALLOWED_TOOLS and
// ASYNC_AGENT_ALLOWED_TOOLS, with one deliberate difference: in Fanout a subagent MAY have the Agent tool
// (nesting is bounded by the spawn depth limit in orchestration/runs/limits.ts), except where a definition
// denies it (Explore, Plan) or the spawn path forbids it (forks).
//
// MCP tools (`mcp__*`) are never in these sets: like Claude Code, every agent may use connected MCP tools
// unless its own definition narrows them.

/**
 * Never given to any subagent. They belong to the conversation with the person: plan-mode transitions
 * (the parent owns the mode), questions to the user (a subagent cannot reach the user), and managing
 * other background tasks' output and lifetime (the parent's job).
 * ExitPlanMode is the one exception: an agent whose own permissionMode is `plan` keeps it.
 */
export const ALWAYS_BLOCKED_FOR_SUBAGENTS: ReadonlySet<string> = new Set([
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
  'TaskOutput',
  'TaskStop',
  // Landing agents' work on the person's branch is asked for by the main agent only.
  'RequestMerge'
])

/**
 * Never given to user-written (non-built-in) subagents. Today it equals the always-blocked set, as in
 * Claude Code; it is separate so a tool can be reserved for Fanout's own agents without touching the above.
 */
export const CUSTOM_AGENT_BLOCKED: ReadonlySet<string> = new Set([...ALWAYS_BLOCKED_FOR_SUBAGENTS])

/**
 * The only tools a background agent gets: it runs while the person does something else, so it cannot
 * stop to ask for anything, and it gets no Agent tool (a background tree nobody watches is not spawned).
 */
export const BACKGROUND_ALLOWED: ReadonlySet<string> = new Set([
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'Bash',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'Skill',
  'ToolSearch',
  'StructuredOutput',
  'EnterWorktree',
  'ExitWorktree'
])

/** Tools an agent with `memory` needs to read and write its memory files, added to an explicit list. */
export const MEMORY_TOOLS: readonly string[] = ['Read', 'Write', 'Edit']

// Likely typos in an agent file's tool names and model, for warnings. Only what is one or two keystrokes
// from a real name is called a typo: other unknown names (an MCP server not connected here, a tool of a
// newer Claude Code) are shown in the editor's effective tools, not flagged. Loading is never affected.
import { MODEL_ALIASES } from './schema'
import { isMcpToolName, parseToolSpec } from './tool-list'

/** Tools Fanout has, and Claude Code tools it does not, so that neither is mistaken for a typo. */
const KNOWN_TOOLS = [
  'Bash',
  'Glob',
  'Grep',
  'Read',
  'Edit',
  'Write',
  'NotebookEdit',
  'WebFetch',
  'TodoWrite',
  'Agent',
  'Task',
  'SendMessage',
  'TaskOutput',
  'TaskStop',
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
  'BashOutput',
  'KillShell',
  'KillBash',
  'WebSearch',
  'MultiEdit',
  'LS',
  'NotebookRead',
  'TodoRead',
  'Skill',
  'SlashCommand',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'TaskCreate',
  'TaskGet',
  'TaskUpdate',
  'TaskList',
  'TeamCreate',
  'TeamDelete',
  'SetPhase',
  'LSP',
  'ToolSearch'
]
const KNOWN = new Set(KNOWN_TOOLS)

/** Edits between two words, a swap of neighbours counting as one ("Grpe" is one edit from "Grep"). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}

/** The closest of `names` to `word` when it is a likely typo of it (case aside, at most two edits; one for short words). */
function closest(word: string, names: readonly string[]): string | undefined {
  const w = word.toLowerCase()
  let best: { name: string; d: number } | undefined
  for (const name of names) {
    // Lengths two apart are at least two edits apart: skip the work (tools lists can be long and odd).
    if (Math.abs(name.length - w.length) > 2) continue
    const d = distance(w, name.toLowerCase())
    if (d <= (word.length <= 4 ? 1 : 2) && (!best || d < best.d)) best = { name, d }
  }
  return best?.name
}

/** Each entry of a tools list that looks like a misspelt tool, with the name it probably meant. */
export function misspeltTools(list: readonly string[]): Array<{ spec: string; meant: string }> {
  const out: Array<{ spec: string; meant: string }> = []
  for (const spec of list) {
    const { toolName } = parseToolSpec(spec)
    if (toolName === '*' || KNOWN.has(toolName) || isMcpToolName(toolName)) continue
    // "shell" is one edit from nothing useful but plainly means the shell tool.
    const meant = /^(shell|terminal)$/i.test(toolName) ? 'Bash' : closest(toolName, KNOWN_TOOLS)
    if (meant) out.push({ spec, meant })
  }
  return out
}

/** The alias a bare word probably meant (`sonet` → `sonnet`). */
export const meantAlias = (word: string): string | undefined => closest(word, MODEL_ALIASES)

/** The name among `names` a word probably meant (one or two edits away), e.g. a misspelt skill. */
export const meantName = (word: string, names: readonly string[]): string | undefined => closest(word, names)

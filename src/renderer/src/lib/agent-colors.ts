// Agent colors: the names Claude Code agent files use (`color: blue`), mapped to theme variables,
// with a stable fallback per agent so panels stay distinguishable.
const NAMED = ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'pink'] as const
const FALLBACK = ['blue', 'green', 'purple', 'orange', 'cyan', 'pink', 'yellow', 'red'] as const

function hash(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0
  return Math.abs(h)
}

export function agentColorName(color: string | undefined, agentId: string): string {
  const c = color?.toLowerCase()
  if (c && (NAMED as readonly string[]).includes(c)) return c
  return FALLBACK[hash(agentId) % FALLBACK.length]
}

/** The main agent (no parent) without its own color stays neutral, so subagents stand out. */
export function agentColorVar(color: string | undefined, agentId: string, isRoot = false): string {
  if (isRoot && !color) return 'var(--agent-main)'
  return `var(--agent-${agentColorName(color, agentId)})`
}

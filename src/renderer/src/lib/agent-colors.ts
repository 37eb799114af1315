// Agent colors: the names Claude Code agent files use (`color: blue`), mapped to theme variables,
// with a stable fallback per agent so panels stay distinguishable. Each colour has a text variant
// (--agent-green-text): bars and dots use the bright one, an agent's name in text the readable one.
import type { CSSProperties } from 'react'

export const NAMED = ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'pink'] as const
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

/**
 * An agent's colours as an element's style: --agent-color for bars, dots and borders, and --agent-text for
 * its name written in that colour (the same hue, with 4.5:1 contrast on the theme's surfaces).
 */
export function agentColorStyle(color: string | undefined, agentId: string, isRoot = false): CSSProperties {
  const name = isRoot && !color ? 'main' : agentColorName(color, agentId)
  return { ['--agent-color' as string]: `var(--agent-${name})`, ['--agent-text' as string]: `var(--agent-${name}-text)` }
}

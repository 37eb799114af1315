// Agent colors: the names Claude Code agent files use (`color: blue`), mapped to theme variables. An agent
// type without a color of its own gets one from its type's name alone — so every Explore agent, in every
// panel and every session, is the same color, and editing another agent's color never changes it (it used
// to: uncolored types stepped around the colors other files declared, so saving docs-writer as blue turned
// Explore from blue to green). The built-in types have fixed colors, distinct from each other.
// Each color has a text variant (--agent-green-text): bars and dots use the bright one, an agent's name
// written in its color the readable one.
import type { CSSProperties } from 'react'

const NAMED = ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'pink'] as const
/** For agents without a color: red is left out, as it reads as "failed" next to the status colors. */
const PICKED = ['blue', 'green', 'purple', 'orange', 'cyan', 'pink', 'yellow'] as const

/** The built-in types (agents/*.md) a person sees most: one color each, none shared among them. */
const BUILT_IN: Readonly<Record<string, (typeof PICKED)[number]>> = {
  'general-purpose': 'blue',
  Explore: 'cyan',
  Plan: 'purple',
  Bash: 'yellow',
  'fanout-guide': 'pink'
}

function hash(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0
  return Math.abs(h)
}

/** A color as an agent file writes it, when it is one of the eight names; otherwise nothing. */
export function namedColor(color: string | undefined): string | undefined {
  const c = color?.trim().toLowerCase()
  return c && (NAMED as readonly string[]).includes(c) ? c : undefined
}

/** The color name of an agent: its own, else a function of its type's name and nothing else. */
export function agentColorName(color: string | undefined, agentType: string): string {
  return namedColor(color) ?? BUILT_IN[agentType] ?? PICKED[hash(agentType) % PICKED.length]
}

// One style object per color: the same object at every render, so a memoized view given it renders again only
// when its agent's color changes.
const STYLES = new Map<string, Readonly<CSSProperties>>()

/**
 * An agent's colors as an element's style: --agent-color for bars, dots and borders, and --agent-text for
 * its name written in that color (the same hue, with 4.5:1 contrast on the theme's surfaces). The main
 * agent (no parent) without its own color stays neutral, so subagents stand out.
 */
export function agentColorStyle(color: string | undefined, agentType: string, { isRoot = false }: { isRoot?: boolean } = {}): CSSProperties {
  const name = isRoot && !namedColor(color) ? 'main' : agentColorName(color, agentType)
  let style = STYLES.get(name)
  if (!style)
    STYLES.set(name, (style = Object.freeze({ ['--agent-color' as string]: `var(--agent-${name})`, ['--agent-text' as string]: `var(--agent-${name}-text)` })))
  return style
}

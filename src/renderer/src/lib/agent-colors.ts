// Agent colors: the names Claude Code agent files use (`color: blue`), mapped to theme variables. An agent
// type without a color of its own gets one picked from its type's name — so every Explore agent, in every
// panel and every session, is the same color — and, where the palette allows, not a color that one of the
// folder's agent files declares for itself (an uncolored Explore must not look like the orange docs-writer).
// Each color has a text variant (--agent-green-text): bars and dots use the bright one, an agent's name
// written in its color the readable one.
import type { CSSProperties } from 'react'

const NAMED = ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'pink'] as const
/** For agents without a color: red is left out, as it reads as "failed" next to the status colors. */
const PICKED = ['blue', 'green', 'purple', 'orange', 'cyan', 'pink', 'yellow'] as const

const EMPTY: ReadonlySet<string> = new Set()

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

/** The colors agent definitions declare for themselves: an agent type without one keeps clear of them. */
export function declaredColors(definitions: ReadonlyArray<{ color?: string }>): ReadonlySet<string> {
  const out = new Set<string>()
  for (const d of definitions) {
    const c = namedColor(d.color)
    if (c) out.add(c)
  }
  return out
}

/**
 * The color name of an agent: its own, else a function of its type alone, chosen among the colors that no
 * agent file declares (`reserved`) while any is free. The pick is spread over the free colors by the type's
 * hash, so different types seldom share one (stepping past reserved colors instead piled most types onto
 * the first free color after a run of reserved ones). Same type and same reserved set, same color.
 */
export function agentColorName(color: string | undefined, agentType: string, reserved: ReadonlySet<string> = EMPTY): string {
  const own = namedColor(color)
  if (own) return own
  const free = PICKED.filter((c) => !reserved.has(c))
  const palette = free.length ? free : PICKED
  return palette[hash(agentType) % palette.length]
}

export interface TypeColors {
  /** Colors the definitions declare for themselves. */
  reserved: ReadonlySet<string>
  /** A color for every defined type: its own, else one picked for it (see below). */
  byType: ReadonlyMap<string, string>
}

/**
 * Colors for a folder's agent types. A type with a color of its own keeps it; the others take their
 * agentColorName pick unless a type before them (by name) already has it, then the next free color not yet
 * taken — so the few types of one folder (Explore, Plan, general-purpose...) look different from each other.
 * Types the definitions do not know (an agent whose file was removed) fall back to agentColorName.
 */
export function typeColors(definitions: ReadonlyArray<{ agentType: string; color?: string }>): TypeColors {
  const reserved = declaredColors(definitions)
  const byType = new Map<string, string>()
  const uncolored: string[] = []
  for (const d of definitions) {
    const own = namedColor(d.color)
    if (own) byType.set(d.agentType, own)
    else uncolored.push(d.agentType)
  }
  const free = PICKED.filter((c) => !reserved.has(c))
  const palette = free.length ? free : [...PICKED]
  const taken = new Set<string>()
  for (const type of [...new Set(uncolored)].sort()) {
    const start = palette.indexOf(agentColorName(undefined, type, reserved) as (typeof PICKED)[number])
    let pick = palette[start]
    for (let i = 0; i < palette.length; i++) {
      const c = palette[(start + i) % palette.length]
      if (!taken.has(c)) {
        pick = c
        break
      }
    }
    taken.add(pick)
    byType.set(type, pick)
  }
  return { reserved, byType }
}

type ColorOptions = { isRoot?: boolean; reserved?: ReadonlySet<string> }

/**
 * An agent's colors as an element's style: --agent-color for bars, dots and borders, and --agent-text for
 * its name written in that color (the same hue, with 4.5:1 contrast on the theme's surfaces). The main
 * agent (no parent) without its own color stays neutral, so subagents stand out.
 */
export function agentColorStyle(color: string | undefined, agentType: string, { isRoot = false, reserved = EMPTY }: ColorOptions = {}): CSSProperties {
  const name = isRoot && !namedColor(color) ? 'main' : agentColorName(color, agentType, reserved)
  return { ['--agent-color' as string]: `var(--agent-${name})`, ['--agent-text' as string]: `var(--agent-${name}-text)` }
}

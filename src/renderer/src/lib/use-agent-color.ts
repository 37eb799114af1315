// An agent's color for a view: its own, or its type's, kept clear of the colors the folder's agent files
// declare (see agent-colors.ts). What the definitions declare is worked out once per list of definitions.
import type { CSSProperties } from 'react'
import type { LoadedAgent } from '../../../shared/agent-definition'
import { useApp } from '../state/store'
import { agentColorStyle, declaredColors, namedColor } from './agent-colors'

interface Declared {
  reserved: ReadonlySet<string>
  /** Each type's own color, for an agent not started yet (an Agent call still streaming). */
  byType: ReadonlyMap<string, string>
}

const declaredByDefs = new WeakMap<LoadedAgent[], Declared>()

function declared(defs: LoadedAgent[]): Declared {
  let d = declaredByDefs.get(defs)
  if (!d) {
    const byType = new Map<string, string>()
    for (const { definition } of defs) {
      const c = namedColor(definition.color)
      if (c) byType.set(definition.agentType, c)
    }
    d = { reserved: declaredColors(defs.map((x) => x.definition)), byType }
    declaredByDefs.set(defs, d)
  }
  return d
}

/** The color style (theme variables, see agentColorStyle) of an agent of `agentType`; the main agent without a color is neutral. */
export function useAgentColor(color: string | undefined, agentType: string, isRoot = false): CSSProperties {
  const { reserved, byType } = useApp((s) => declared(s.agentDefs))
  return agentColorStyle(color ?? (isRoot ? undefined : byType.get(agentType)), agentType, { isRoot, reserved })
}

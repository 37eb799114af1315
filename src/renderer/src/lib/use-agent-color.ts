// An agent's color for a view: its own, or its type's, kept clear of the colors the folder's agent files
// declare (see agent-colors.ts). What the definitions declare is worked out once per list of definitions.
import type { CSSProperties } from 'react'
import type { LoadedAgent } from '../../../shared/agent-definition'
import { useApp } from '../state/store'
import { agentColorStyle, namedColor, typeColors, type TypeColors } from './agent-colors'

const colorsByDefs = new WeakMap<LoadedAgent[], TypeColors>()

/** The folder's type colors, worked out once per list of definitions. */
function colorsOf(defs: LoadedAgent[]): TypeColors {
  let c = colorsByDefs.get(defs)
  if (!c) {
    c = typeColors(defs.map((x) => x.definition))
    colorsByDefs.set(defs, c)
  }
  return c
}

/** The color style (theme variables, see agentColorStyle) of an agent of `agentType`; the main agent without a color is neutral. */
export function useAgentColor(color: string | undefined, agentType: string, isRoot = false): CSSProperties {
  const { reserved, byType } = useApp((s) => colorsOf(s.agentDefs))
  // An invalid color of its own counts as none, so the type's pick applies.
  return agentColorStyle(namedColor(color) ?? (isRoot ? undefined : byType.get(agentType)), agentType, { isRoot, reserved })
}

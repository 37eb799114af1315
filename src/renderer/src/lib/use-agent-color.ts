// An agent's color for a view: its own, else its definition's, else its type's (see agent-colors.ts). An
// agent event carries the color its definition had when it started; the definitions loaded now say what a
// type's color is today (the editor just changed it), for agents and cards that have none of their own.
import type { CSSProperties } from 'react'
import { useApp } from '../state/store'
import { agentColorStyle, namedColor } from './agent-colors'

/** The color style (theme variables, see agentColorStyle) of an agent of `agentType`; the main agent without a color is neutral. */
export function useAgentColor(color: string | undefined, agentType: string, isRoot = false): CSSProperties {
  // A string, not the definition: the view renders again only when this type's own color changes.
  const declared = useApp((s) => (isRoot || namedColor(color) ? undefined : s.agentDefs.find((d) => d.definition.agentType === agentType)?.definition.color))
  return agentColorStyle(namedColor(color) ?? namedColor(declared), agentType, { isRoot })
}

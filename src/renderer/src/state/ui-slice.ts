// The UI slice: what the person chose to look at (dialog, pane, focused and maximized agent, density,
// expanded panels, a place to reveal). Nothing here calls the host.
import { DENSITY_KEY, set, type DensityChoice, type Dialog, type Reveal, type RightPane } from './app-state'

export function newSession(): void {
  set({ currentSessionId: null, maximizedAgentId: null, focusedAgentId: null, openError: undefined })
}

export const ui = {
  setDialog: (dialog: Dialog) => set({ dialog }),
  setRightPane: (rightPane: RightPane) => set({ rightPane, maximizedAgentId: null }),
  /** Brings an agent's panel into view and highlights it (the person looked at it). */
  focusAgent: (agentId: string | null) =>
    set((s) => ({
      focusedAgentId: agentId,
      focusSeq: s.focusSeq + 1,
      rightPane: 'panels',
      maximizedAgentId: null,
      ...(agentId ? { acknowledged: { ...s.acknowledged, [agentId]: Date.now() } } : {})
    })),
  /** Moves the overview's selection (arrow keys): highlights the tile without scrolling the page about. */
  selectTile: (agentId: string) => set({ focusedAgentId: agentId }),
  maximize: (agentId: string | null) =>
    set((s) => ({ maximizedAgentId: agentId, ...(agentId ? { acknowledged: { ...s.acknowledged, [agentId]: Date.now() } } : {}) })),
  setDensity: (density: DensityChoice) => {
    globalThis.localStorage?.setItem(DENSITY_KEY, density)
    set({ density })
  },
  tidy: () => set((s) => ({ tidySeq: s.tidySeq + 1 })),
  wentToAttention: (at: { sessionId: string; agentId: string }) =>
    set((s) => ({ lastAttention: at, acknowledged: { ...s.acknowledged, [at.agentId]: Date.now() } })),
  toggleExpanded: (agentId: string) =>
    set((s) => {
      const expanded = { ...s.expanded }
      if (expanded[agentId]) delete expanded[agentId]
      else expanded[agentId] = true
      return { expanded }
    }),
  /** Opens an agent at a place in its transcript: the main agent's conversation, or a subagent's panel maximized. */
  reveal: (r: Omit<Reveal, 'n'>) =>
    set((s) => {
      const root = s.events.sessions[r.sessionId]?.rootAgentId === r.agentId
      return {
        reveal: { ...r, n: (s.reveal?.n ?? 0) + 1 },
        focusedAgentId: r.agentId,
        focusSeq: s.focusSeq + 1,
        rightPane: 'panels',
        maximizedAgentId: root ? null : r.agentId
      }
    }),
  dismissFirstRun: () => set({ firstRunDismissed: true }),
  firstRunKeySaved: () => set({ firstRunKeySaved: true })
}

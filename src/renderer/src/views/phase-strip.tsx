// Coordinator mode: the four phases as steps (done, current, upcoming), and the live panels grouped under
// the phase each agent runs in.
import type { ReactNode } from 'react'
import type { CoordinatorPhase } from '../../../shared/team'
import { Icon } from '../components/icon'
import { DENSE_WIDTH, gridLayout } from '../lib/grid-layout'
import { groupByPhase, phaseProgress } from '../state/phase-selectors'
import { isActive } from '../../../shared/view/session-state'
import { agentCounts } from '../state/agent-counts'
import { useApp } from '../state/store'

export const PHASE_LABEL: Record<CoordinatorPhase, string> = {
  research: 'Research',
  synthesis: 'Synthesis',
  implementation: 'Implementation',
  verification: 'Verification'
}

export function PhaseStrip({ sessionId }: { sessionId: string }) {
  const phases = useApp((s) => s.events.sessions[sessionId]?.phases)
  const over = useApp((s) => {
    const session = s.events.sessions[sessionId]
    const root = session?.rootAgentId ? session.agents[session.rootAgentId] : undefined
    return !!root && !isActive(root.status) && agentCounts(session).active === 0
  })
  if (!phases?.length) return null
  const steps = phaseProgress({ phases }, { over })
  return (
    <ol className="phase-strip" aria-label="Coordinator phases" data-testid="phase-strip">
      {steps.map((step, i) => (
        <li key={step.phase} className={`phase-step phase-${step.progress}`} data-phase={step.phase} data-progress={step.progress} aria-current={step.progress === 'current' ? 'step' : undefined}>
          {i > 0 && <span className="phase-link" aria-hidden="true" />}
          <span className="phase-pill" title={step.progress === 'skipped' ? `${PHASE_LABEL[step.phase]}: skipped` : step.note}>
            <span className="phase-index">{step.progress === 'done' ? <Icon name="check" size={11} /> : i + 1}</span>
            <span className="phase-name">{PHASE_LABEL[step.phase]}</span>
            {step.progress === 'current' && step.note && <span className="phase-note">{step.note}</span>}
          </span>
        </li>
      ))}
    </ol>
  )
}

/** The grid's panels in one section per phase, each section with its own grid. */
export function PhaseSections({ sessionId, ids, width, height, panel }: { sessionId: string; ids: string[]; width: number; height: number; panel: (id: string, dense: boolean) => ReactNode }) {
  const agents = useApp((s) => s.events.sessions[sessionId]?.agents)
  const current = useApp((s) => s.events.sessions[sessionId]?.phases.at(-1)?.phase)
  if (!agents) return null
  const groups = groupByPhase({ agents }, ids)
  return (
    <>
      {groups.map((g) => {
        // Sections share the height; each keeps panels tall enough to read, and the pane scrolls beyond.
        const { cols, rowHeight } = gridLayout(g.ids.length, width, Math.max(260, (height - 34 * groups.length) / groups.length))
        const label = g.phase ? PHASE_LABEL[g.phase] : 'Before the first phase'
        return (
          <section key={g.phase ?? 'none'} className={`phase-section${g.phase === current ? ' current' : ''}`} data-testid="phase-section" data-phase={g.phase ?? 'none'} aria-label={label}>
            <h3 className="phase-section-title">
              {label} <span className="count">{g.ids.length}</span>
            </h3>
            <div className="panels-grid" style={{ gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`, gridAutoRows: `${rowHeight}px` }}>
              {g.ids.map((id) => panel(id, width / cols < DENSE_WIDTH))}
            </div>
          </section>
        )
      })}
    </>
  )
}

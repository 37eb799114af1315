// Coordinator mode: the four phases as steps (done, current, upcoming), and the live panels grouped under
// the phase each agent runs in.
import type { ReactNode } from 'react'
import type { CoordinatorPhase } from '../../../shared/team'
import { Icon } from '../components/icon'
import { overviewLayout, type Density, type DensityChoice } from '../lib/overview-layout'
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
        <li
          key={step.phase}
          className={`phase-step phase-${step.progress}`}
          data-phase={step.phase}
          data-progress={step.progress}
          aria-current={step.progress === 'current' ? 'step' : undefined}
        >
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

/** The grid's agents in one section per phase, each section with its own grid at the overview's density. */
export function PhaseSections({
  sessionId,
  ids,
  width,
  height,
  choice,
  draw
}: {
  sessionId: string
  ids: string[]
  width: number
  height: number
  choice: DensityChoice
  draw: (id: string, density: Density, tileWidth: number, rowHeight: number) => ReactNode
}) {
  const agents = useApp((s) => s.events.sessions[sessionId]?.agents)
  const current = useApp((s) => s.events.sessions[sessionId]?.phases.at(-1)?.phase)
  if (!agents) return null
  const groups = groupByPhase({ agents }, ids)
  // One density for every section (chosen as for one grid of them all), so the phases read alike.
  const { density } = overviewLayout(ids.length, width, Math.max(0, height - 34 * groups.length), choice)
  return (
    <>
      {groups.map((g) => {
        // Sections share the height in proportion to their agents; each keeps its agents readable, and the
        // pane scrolls beyond.
        const share = Math.max(120, ((height - 34 * groups.length) * g.ids.length) / ids.length)
        const layout = overviewLayout(g.ids.length, width, share, density)
        const tileWidth = (width - layout.gap * (layout.cols - 1)) / layout.cols
        const label = g.phase ? PHASE_LABEL[g.phase] : 'Before the first phase'
        return (
          <section
            key={g.phase ?? 'none'}
            className={`phase-section${g.phase === current ? ' current' : ''}`}
            data-testid="phase-section"
            data-phase={g.phase ?? 'none'}
            aria-label={label}
          >
            <h3 className="section-label phase-section-title">
              {label} <span className="count">{g.ids.length}</span>
            </h3>
            <div
              className={`panels-grid grid-${layout.density}`}
              style={{ gridTemplateColumns: `repeat(${layout.cols}, minmax(0, 1fr))`, gridAutoRows: `${layout.rowHeight}px`, gap: `${layout.gap}px` }}
            >
              {g.ids.map((id) => draw(id, layout.density, tileWidth, layout.rowHeight))}
            </div>
          </section>
        )
      })}
    </>
  )
}

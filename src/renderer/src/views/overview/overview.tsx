// The overview of a session's subagents: one tile (or, when few, one live panel) each, all on screen at
// once — the density chosen from their number and the room, or as the person set it — with those that need
// the person marked, a Finished list below, and the full panel of any one a click or Enter away. Nothing
// moves under the pointer: while the person is at the overview, stopped and finished agents keep their
// places (see placement.ts) until they move on or press Tidy.
import { useLayoutEffect, useRef, useState } from 'react'
import type { AgentStatus } from '../../../../shared/events'
import { isActive } from '../../../../shared/view/session-state'
import { useAction, useActionList } from '../../commands/registry'
import { refocusWhenLost } from '../../lib/focus'
import { DENSE_WIDTH } from '../../lib/grid-layout'
import { nextDensity, overviewLayout, type Density, type OverviewLayout } from '../../lib/overview-layout'
import { placeAgents, samePlacement, type Placement } from '../../lib/placement'
import { useSize } from '../../lib/use-size'
import { agentsComing } from '../../state/selectors'
import { DENSITY_CHOICES, ui, useApp, type DensityChoice } from '../../state/store'
import { AgentPanel } from '../agent-panel'
import { PhaseSections } from '../phase-strip'
import { useRunningElsewhere } from '../running-elsewhere'
import { stopWithToast } from '../stop-agent'
import { AgentTile } from './agent-tile'
import { FinishedList } from './finished-list'
import { useGrowthRoom } from './growth-room'
import { MaximizedPanel } from './maximized-panel'
import { OverviewBar } from './overview-bar'
import { tileKey } from './tile-keys'
import { useHold } from './use-hold'
import { usePick } from '../../lib/use-pick'

const FINISHED_HEAD = 34
const FINISHED_ROW = 32
const FINISHED_GAP = 10

/** Clicks an agent's action button wherever it is shown (its tile, panel or full panel). */
export function clickAgentAction(agentId: string, action: 'message' | 'stop' | 'maximize'): boolean {
  const id = CSS.escape(agentId)
  const button = document.querySelector<HTMLButtonElement>(
    `[data-tile][data-agent-id="${id}"] [data-action=${action}], [data-testid=maximized-panel][data-agent-id="${id}"] [data-action=${action}]`
  )
  button?.click()
  return !!button
}

function AgentActions({ sessionId }: { sessionId: string }) {
  const agent = useApp((s) => (s.focusedAgentId ? s.events.sessions[sessionId]?.agents[s.focusedAgentId] : undefined))
  const root = useApp((s) => s.events.sessions[sessionId]?.rootAgentId)
  const f = agent && agent.id !== root ? agent : undefined
  const name = f ? `${f.name ?? f.agentType}${f.description ? ` (${f.description})` : ''}` : 'the selected agent'
  const elsewhere = useRunningElsewhere(sessionId)
  const active = !!f && isActive(f.status) && !elsewhere
  useAction({
    id: 'agent.stop',
    title: `Stop ${name}`,
    group: 'Agent',
    enabled: active,
    keywords: 'halt cancel',
    run: () => f && stopWithToast(sessionId, f.id)
  })
  useAction({
    id: 'agent.message',
    title: `Send a message to ${name}`,
    group: 'Agent',
    enabled: active,
    keywords: 'steer tell',
    run: () => f && clickAgentAction(f.id, 'message')
  })
  useAction({
    id: 'agent.maximize',
    title: `Open the full panel of ${name}`,
    group: 'Agent',
    enabled: !!f,
    keywords: 'maximize transcript',
    run: () => f && ui.maximize(f.id)
  })
  return null
}

function OverviewActions({ canTidy }: { canTidy: boolean }) {
  const choice = useApp((s) => s.density)
  useAction({ id: 'overview.tidy', enabled: canTidy, keywords: 'finished clean', run: () => ui.tidy() })
  useAction({ id: 'overview.density', keywords: 'panels tiles compact layout', run: () => ui.setDensity(nextDensity(useApp.getState().density)) })
  const label: Record<DensityChoice, string> = { auto: 'auto (from the number of agents)', panels: 'full panels', tiles: 'tiles', compact: 'compact tiles' }
  useActionList(
    DENSITY_CHOICES.map((c) => ({
      id: `overview.density.${c}`,
      title: `Overview density: ${label[c]}`,
      group: 'Overview' as const,
      enabled: c !== choice,
      run: () => ui.setDensity(c)
    }))
  )
  return null
}

export function Overview({ sessionId }: { sessionId: string }) {
  const agents = useApp((s) => s.events.sessions[sessionId]?.agents)
  const order = useApp((s) => s.events.sessions[sessionId]?.agentOrder)
  const rootId = useApp((s) => s.events.sessions[sessionId]?.rootAgentId)
  const {
    expanded,
    focusedAgentId: focused,
    maximizedAgentId: maximized,
    acknowledged,
    density: choice,
    tidySeq
  } = usePick(useApp, 'expanded', 'focusedAgentId', 'maximizedAgentId', 'acknowledged', 'density', 'tidySeq')
  const phased = useApp((s) => (s.events.sessions[sessionId]?.phases.length ?? 0) > 0)
  const coming = useApp((s) => agentsComing(s.events.sessions[sessionId]))
  const [showFinished, setShowFinished] = useState(true)
  const [container, setContainer] = useState<HTMLElement | null>(null)
  const held = useHold(container)
  const [scrollRef, size] = useSize()
  // Nothing is drawn in the grid before its size is first known: laid out for a 0×0 area, the overview would
  // mount a full panel for each agent (64 of them when a fan-out opens the session) to throw them away for
  // tiles once measured. Once measured it stays drawn (hidden, it reads 0×0 and keeps what it built).
  const measured = useRef(false)
  if (size.width > 0 && size.height > 0) measured.current = true

  // What is placed where, and the layout, as last drawn: kept while the person is at the overview.
  const placement = useRef<Placement | null>(null)
  const drawn = useRef<{ layout: OverviewLayout; width: number; height: number; choice: DensityChoice } | null>(null)
  const tidied = useRef(tidySeq)
  let hold = held
  if (tidied.current !== tidySeq) {
    tidied.current = tidySeq
    hold = false
  }

  const ids = agents && order ? order.filter((id) => id !== rootId) : []
  const statusOf = (id: string): AgentStatus => agents![id].status
  const needsYou = (id: string) => {
    const a = agents![id]
    return a.status === 'waiting_permission' || (a.status === 'failed' && (a.endedAt ?? 0) > (acknowledged[id] ?? 0))
  }
  const placed = placeAgents(placement.current, ids, statusOf, expanded, focused, hold, needsYou)
  placement.current = placed
  const { grid, finished } = placed

  const finishedHeight = finished.length
    ? FINISHED_GAP + FINISHED_HEAD + (showFinished ? Math.min(finished.length * FINISHED_ROW, Math.max(2 * FINISHED_ROW, size.height * 0.3)) : 0)
    : 0
  const area = { width: size.width, height: Math.max(0, size.height - finishedHeight) }
  // Laid out for the agents about to start too: a fan-out whose starts straddle two frames is drawn as the
  // tiles it will be from the first frame, not first as a few full panels thrown away a frame later.
  // And, while a fan-out's agents keep arriving, for room to spare (growth-room.ts).
  const room = useGrowthRoom(grid.length + coming)
  const wanted = overviewLayout(room, area.width, area.height, choice)
  let layout = wanted
  const before = drawn.current
  if (hold && before && before.width === area.width && before.height === area.height && before.choice === choice && grid.length >= before.layout.cols)
    layout = before.layout
  else drawn.current = { layout, ...area, choice }

  // Back from a full panel, focus returns to its tile (or the control that opens it again).
  const wasMaximized = useRef(maximized)
  useLayoutEffect(() => {
    const prev = wasMaximized.current
    wasMaximized.current = maximized
    if (!prev || maximized) return
    const at = (sel: string) => document.querySelector(`[data-agent-id="${CSS.escape(prev)}"]${sel}`)
    // A panel's own maximize button (always shown), else the tile itself, else its finished row's button.
    refocusWhenLost(
      () =>
        at('[data-tile] [data-testid=panel-maximize]') ??
        at('[data-tile]') ??
        at(' [data-testid=finished-open]') ??
        document.querySelector('[data-testid=tab-panels]')
    )
  }, [maximized])

  // Tidy changes something when the settled placement or layout differs from what is held on screen.
  const canTidy = !samePlacement(placed, placeAgents(null, ids, statusOf, expanded, focused, false, needsYou)) || layout !== wanted
  const actions = (
    <>
      <AgentActions sessionId={sessionId} />
      <OverviewActions canTidy={canTidy} />
    </>
  )
  if (maximized && agents?.[maximized]) {
    return (
      <>
        {actions}
        <MaximizedPanel sessionId={sessionId} agentId={maximized} />
      </>
    )
  }
  if (!grid.length && !finished.length) {
    return <div className="pane-message muted">Subagents appear here, one live panel each, when the main agent delegates.</div>
  }
  // The one tile Tab lands on: the selected agent's, else the first.
  const tabbable = focused && grid.includes(focused) ? focused : grid[0]
  const draw = (id: string, density: Density, width: number, rowHeight: number) =>
    density === 'panels' ? (
      <AgentPanel key={id} sessionId={sessionId} agentId={id} focused={focused === id} tabbable={tabbable === id} dense={width < DENSE_WIDTH} />
    ) : (
      <AgentTile
        key={id}
        sessionId={sessionId}
        agentId={id}
        focused={focused === id}
        tabbable={tabbable === id}
        density={density}
        width={width}
        rowHeight={rowHeight}
      />
    )
  const tileWidth = (area.width - layout.gap * (layout.cols - 1)) / layout.cols
  return (
    <div className={`overview density-${layout.density}`} ref={setContainer} data-testid="overview" data-density={layout.density} data-held={hold || undefined}>
      {actions}
      <OverviewBar sessionId={sessionId} density={layout.density} canTidy={canTidy} />
      <div className="panels-scroll" ref={scrollRef} onKeyDown={(e) => tileKey(e, e.currentTarget, ui.selectTile)}>
        {grid.length > 0 && measured.current && phased && (
          <PhaseSections sessionId={sessionId} ids={grid} width={area.width} height={area.height} choice={choice} draw={draw} />
        )}
        {grid.length > 0 && measured.current && !phased && (
          <div
            className={`panels-grid grid-${layout.density}`}
            style={{ gridTemplateColumns: `repeat(${layout.cols}, minmax(0, 1fr))`, gridAutoRows: `${layout.rowHeight}px`, gap: `${layout.gap}px` }}
            data-testid="panels-grid"
            data-cols={layout.cols}
          >
            {grid.map((id) => draw(id, layout.density, tileWidth, layout.rowHeight))}
          </div>
        )}
        {finished.length > 0 && (
          <FinishedList
            sessionId={sessionId}
            ids={finished}
            open={showFinished}
            onToggle={() => setShowFinished(!showFinished)}
            maxHeight={finishedHeight - FINISHED_GAP - FINISHED_HEAD}
          />
        )}
      </div>
    </div>
  )
}

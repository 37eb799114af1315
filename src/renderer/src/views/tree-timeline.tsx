// The agent tree beside a timeline: each agent's lifetime as a bar on one time axis, with its tool
// calls marked on it and its waits (queued, waiting for permission, waiting for the model) hatched, so a
// person sees what ran in parallel and what waited.
import { AgentName } from '../components/agent-name'
import { agentFullName } from '../lib/agent-naming'
import { memo } from 'react'
import { ModelWait } from '../components/model-wait'
import { StatusDot } from '../components/status'
import { useAgentColor } from '../lib/use-agent-color'
import { formatClock, formatDuration } from '../lib/format'
import { useNow } from '../lib/use-now'
import { useSize } from '../lib/use-size'
import { axisLabels, timelineLabelWidth } from '../lib/time-axis'
import { timelineRows, type TimelineRow } from '../state/selectors'
import { ui, useApp } from '../state/store'

const WAIT_LABEL = { queued: 'Queued', permission: 'Waiting for permission', model: 'Waiting for the model' } as const

/** Room kept right of the track so the longest bar ends clear of the pane's edge. */
const TRACK_END = 8

const pct = (v: number) => `${Math.max(0, Math.min(100, v * 100)).toFixed(3)}%`

const Row = memo(function Row({ row, sessionId, t0, span, now }: { row: TimelineRow; sessionId: string; t0: number; span: number; now: number }) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[row.id])
  const color = useAgentColor(agent?.color, agent?.agentType ?? '', agent?.parentId === null)
  if (!agent) return null
  const end = row.end ?? now
  const left = (row.start - t0) / span
  const width = Math.max((end - row.start) / span, 0.002)
  // A subagent's row (label or bar) opens its panel; the main agent has none: its conversation is beside.
  const open = agent.parentId ? () => ui.focusAgent(agent.id) : undefined
  const label = (
    <>
      {row.depth > 0 && <span className="tl-elbow" aria-hidden="true" />}
      <StatusDot status={agent.status} />
      {/* The task first: four general-purpose agents read alike by type. */}
      <AgentName agent={agent} taskClass="tl-desc" />
      <ModelWait agent={agent} form="label" className="tl-model-wait" />
    </>
  )
  return (
    <div className={`tl-row${open ? ' tl-openable' : ''}`} style={color} data-testid="timeline-row" data-agent-id={agent.id}>
      {open ? (
        <button className="tl-label" style={{ paddingLeft: 8 + row.depth * 14 }} onClick={open} title={`${agentFullName(agent)} — show its panel`}>
          {label}
        </button>
      ) : (
        <div className="tl-label" style={{ paddingLeft: 8 + row.depth * 14 }} title={agent.description}>
          {label}
        </div>
      )}
      <div className="tl-track" onClick={open}>
        <div
          className={`tl-bar status-${agent.status}`}
          style={{ left: pct(left), width: pct(width) }}
          title={`${agentFullName(agent)}: ${formatClock(end - row.start)}${row.end === null ? ' so far' : ''}`}
        >
          {row.waits.map((w, i) => (
            <span
              key={i}
              className={`tl-wait tl-wait-${w.kind}`}
              style={{ left: pct((w.start - row.start) / (end - row.start || 1)), width: pct(((w.end ?? now) - w.start) / (end - row.start || 1)) }}
              title={`${WAIT_LABEL[w.kind]}: ${formatDuration((w.end ?? now) - w.start)}`}
            />
          ))}
          {row.tools.map((t) => (
            <span
              key={t.id}
              className={`tl-tool tl-tool-${t.status}`}
              style={{ left: pct((t.start - row.start) / (end - row.start || 1)), width: pct(((t.end ?? now) - t.start) / (end - row.start || 1)) }}
              title={`${t.name}: ${formatDuration((t.end ?? now) - t.start)}`}
            />
          ))}
        </div>
        {/* On the track, not in the bar (which clips): a mark taller than the bar, in the text's color. */}
        {row.compactions.map((ts) => (
          <span
            key={ts}
            className="tl-compaction"
            style={{ left: pct((ts - t0) / span) }}
            title={`Conversation compacted at ${formatClock(ts - row.start)}`}
            data-testid="timeline-compaction"
          />
        ))}
      </div>
    </div>
  )
})

export function TreeTimeline({ sessionId }: { sessionId: string }) {
  const session = useApp((s) => s.events.sessions[sessionId])
  const { rows, start, end } = session ? timelineRows(session) : { rows: [], start: 0, end: 0 }
  const now = useNow(end === null)
  const [ref, { width }] = useSize()
  if (!rows.length) return <div className="pane-message muted">The timeline appears once the session starts.</div>
  const t1 = end ?? Math.max(now, session!.lastEventTs)
  const span = Math.max(1000, t1 - start)
  const labelWidth = timelineLabelWidth(width)
  const ticks = axisLabels(span, Math.max(0, width - labelWidth - TRACK_END))
  return (
    <div className="timeline" data-testid="timeline" ref={ref} style={{ ['--label-w' as string]: `${labelWidth}px` }}>
      <div className="tl-row tl-axis">
        <div className="tl-label muted small">Agent</div>
        <div className="tl-track">
          {ticks.map(({ t, align }) => (
            <span key={t} className={`tl-tick tl-tick-${align}`} style={{ left: pct(t / span) }}>
              {formatClock(t)}
            </span>
          ))}
        </div>
      </div>
      <div className="tl-rows">
        <div className="tl-grid" aria-hidden="true">
          {ticks.map(({ t }) => (
            <span key={t} className="tl-gridline" style={{ left: pct(t / span) }} />
          ))}
        </div>
        {rows.map((r) => (
          <Row key={r.id} row={r} sessionId={sessionId} t0={start} span={span} now={end === null ? Math.max(now, t1) : t1} />
        ))}
      </div>
      <div className="tl-legend small muted">
        <span>
          <i className="lg lg-bar" /> running
        </span>
        <span>
          <i className="lg lg-tool" /> tool call
        </span>
        <span>
          <i className="lg lg-queued" /> queued
        </span>
        <span>
          <i className="lg lg-permission" /> waiting for permission
        </span>
        <span>
          <i className="lg lg-compaction" /> compaction
        </span>
        <span>
          <i className="lg lg-model" /> waiting for the model
        </span>
      </div>
    </div>
  )
}

// The replay control over a session shown as it was: play and pause, speed (1×–20×), skipping quiet
// stretches, and a scrubber along the session's time with its activity and its marks (agents starting
// and ending, requests, failures, phases). Dragging or clicking shows that moment; arrow keys step.
import { useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { useAction } from '../commands/registry'
import { Icon } from '../components/icon'
import { formatClock } from '../lib/format'
import { closeReplay, pause, play, seek, seqAtTime, setSkipIdle, setSpeed, SPEEDS, useReplay, type Speed } from '../state/replay-store'
import { usePick } from '../lib/use-pick'

const MARK_LABEL = { start: 'started', end: 'ended', permission: 'asked permission', error: 'failed', phase: 'phase' } as const

export function ReplayBar() {
  const { timeline, ts, playing, speed, skipIdle, loading, error } = usePick(useReplay, 'timeline', 'ts', 'playing', 'speed', 'skipIdle', 'loading', 'error')
  const track = useRef<HTMLDivElement>(null)
  const dragging = useRef(false)
  const pending = useRef<number | null>(null)
  const inFlight = useRef(false)
  useAction({
    id: 'replay.play',
    title: playing ? 'Pause the replay' : 'Play the replay',
    group: 'Session',
    keywords: 'replay start stop',
    enabled: !!timeline,
    run: () => (playing ? pause() : play())
  })

  if (!timeline) {
    return (
      <div className="replay-bar" data-testid="replay-bar">
        <span className="muted small">{error ? `Replay could not open: ${error}` : 'Loading the replay…'}</span>
        <button className="btn btn-sm" onClick={closeReplay} data-testid="replay-close">
          Close
        </button>
      </div>
    )
  }
  const span = Math.max(1, timeline.endTs - timeline.startTs)
  const at = Math.min(1, Math.max(0, (ts - timeline.startTs) / span))
  const max = Math.max(1, ...timeline.activity)

  // Scrubbing asks for one frame at a time; the latest position wins.
  const goTo = (time: number) => {
    if (playing) pause()
    pending.current = time
    if (inFlight.current) return
    const next = () => {
      const t = pending.current
      if (t === null) {
        inFlight.current = false
        return
      }
      pending.current = null
      inFlight.current = true
      void seek(seqAtTime(t)).finally(next)
    }
    next()
  }
  const timeAt = (clientX: number) => {
    const r = track.current!.getBoundingClientRect()
    return timeline.startTs + Math.min(1, Math.max(0, (clientX - r.left) / r.width)) * span
  }
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = true
    e.currentTarget.setPointerCapture(e.pointerId)
    goTo(timeAt(e.clientX))
  }
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) goTo(timeAt(e.clientX))
  }
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 10_000 : 1000
    const to =
      e.key === 'ArrowLeft' ? ts - step : e.key === 'ArrowRight' ? ts + step : e.key === 'Home' ? timeline.startTs - 1 : e.key === 'End' ? timeline.endTs : null
    if (to === null) return
    e.preventDefault()
    goTo(Math.min(timeline.endTs, Math.max(timeline.startTs - 1, to)))
  }

  return (
    <div className="replay-bar" data-testid="replay-bar" aria-label="Replay">
      <button
        className="btn btn-sm replay-play"
        onClick={() => (playing ? pause() : play())}
        data-testid="replay-play"
        aria-label={playing ? 'Pause' : 'Play'}
        title={playing ? 'Pause' : 'Play'}
      >
        <Icon name={playing ? 'pause' : 'play'} size={13} />
      </button>
      <select
        className="replay-speed"
        value={speed}
        onChange={(e) => setSpeed(Number(e.target.value) as Speed)}
        aria-label="Replay speed"
        data-testid="replay-speed"
      >
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
      <span className="replay-time small" data-testid="replay-time">
        {formatClock(Math.max(0, ts - timeline.startTs))} / {formatClock(span)}
      </span>
      <div
        className={`replay-track${loading ? ' loading' : ''}`}
        ref={track}
        role="slider"
        tabIndex={0}
        aria-label="Replay position"
        aria-valuemin={0}
        aria-valuemax={Math.round(span / 1000)}
        aria-valuenow={Math.round((ts - timeline.startTs) / 1000)}
        aria-valuetext={`${formatClock(Math.max(0, ts - timeline.startTs))} of ${formatClock(span)}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (dragging.current = false)}
        onKeyDown={onKey}
        data-testid="replay-scrubber"
      >
        <div className="replay-activity" aria-hidden="true">
          {timeline.activity.map((n, i) => (
            <span key={i} style={{ height: `${Math.round((n / max) * 100)}%` }} />
          ))}
        </div>
        {timeline.marks.slice(0, 400).map((m, i) => (
          <span
            key={i}
            className={`replay-mark mark-${m.kind}`}
            style={{ left: `${((m.ts - timeline.startTs) / span) * 100}%` }}
            title={`${formatClock(m.ts - timeline.startTs)} — ${m.label} ${m.kind === 'permission' || m.kind === 'phase' ? '' : MARK_LABEL[m.kind]}`}
            aria-hidden="true"
          />
        ))}
        <div className="replay-progress" style={{ width: `${at * 100}%` }} aria-hidden="true" />
        <div className="replay-thumb" style={{ left: `${at * 100}%` }} aria-hidden="true" />
      </div>
      <label className="replay-skip small" title="Play long waits (for the model, for you) as two seconds">
        <input type="checkbox" checked={skipIdle} onChange={(e) => setSkipIdle(e.target.checked)} /> Skip idle
      </label>
      <button className="btn btn-sm" onClick={closeReplay} data-testid="replay-close" title="Back to the session as it is now">
        <Icon name="x" size={12} /> Exit replay
      </button>
      {error && (
        <span className="inline-error small" role="alert">
          {error}
        </span>
      )}
    </div>
  )
}

// The handle between the conversation and the agents pane: drag it (or focus it and use the arrow keys)
// to give the agents more room. The width is kept across sessions and restarts.
import { useCallback, useEffect, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react'

const KEY = 'fanout.conversationWidth'
export const MIN_CONVERSATION = 320
export const MIN_AGENTS = 380

function stored(): number | null {
  const v = Number(globalThis.localStorage?.getItem(KEY))
  return Number.isFinite(v) && v > 0 ? v : null
}

/** The conversation's width in px, or null for the default split; clamped so both sides stay usable. */
export function useConversationWidth(): [number | null, (w: number | null) => void] {
  const [width, setWidth] = useState<number | null>(stored)
  const set = useCallback((w: number | null) => {
    setWidth(w)
    if (w === null) localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, String(Math.round(w)))
  }, [])
  return [width, set]
}

export const clampWidth = (w: number, total: number): number => Math.max(MIN_CONVERSATION, Math.min(w, total - MIN_AGENTS))

export function Splitter({
  container,
  width,
  onChange
}: {
  container: RefObject<HTMLElement | null>
  width: number | null
  onChange: (w: number | null) => void
}) {
  const [dragging, setDragging] = useState(false)
  const current = () => width ?? container.current?.querySelector('.conversation')?.getBoundingClientRect().width ?? MIN_CONVERSATION
  const total = () => container.current?.getBoundingClientRect().width ?? 0

  useEffect(() => {
    if (!dragging) return
    const move = (e: PointerEvent) => {
      const box = container.current?.getBoundingClientRect()
      if (box) onChange(clampWidth(e.clientX - box.left, box.width))
    }
    const up = () => setDragging(false)
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
    return () => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
    }
  }, [dragging, container, onChange])

  return (
    <div
      className={`splitter${dragging ? ' dragging' : ''}`}
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the conversation and the agents pane"
      aria-valuenow={Math.round(current())}
      aria-valuemin={MIN_CONVERSATION}
      aria-valuemax={Math.round(total() - MIN_AGENTS)}
      tabIndex={0}
      data-testid="splitter"
      onPointerDown={(e: ReactPointerEvent) => {
        e.preventDefault()
        setDragging(true)
      }}
      onDoubleClick={() => onChange(null)}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 80 : 24
        if (e.key === 'ArrowLeft') onChange(clampWidth(current() - step, total()))
        else if (e.key === 'ArrowRight') onChange(clampWidth(current() + step, total()))
        else return
        e.preventDefault()
      }}
      title="Drag to resize · double-click to reset"
    />
  )
}

// A value that stops updating while its element is out of view: a panel scrolled away (32 agents in a
// grid) keeps the transcript it showed and renders none of the text that streams meanwhile; near the
// viewport again, it shows the latest at once. Offscreen panels were half of a 16-agent frame's work.
import { useEffect, useRef, useState, type RefObject } from 'react'

/** `value` while `ref`'s element is within `margin` of the viewport; otherwise the value it had when it left. */
export function useHeldOffscreen<T>(ref: RefObject<Element | null>, value: T, margin = '300px'): T {
  const latest = useRef(value)
  const [held, setHeld] = useState<{ value: T } | null>(null)
  useEffect(() => {
    latest.current = value
  })
  useEffect(() => {
    const el = ref.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    // Observed against the nearest scroller, so the margin reaches past its edge (a viewport margin does
    // not: intersections are clipped by every scrolling ancestor).
    const io = new IntersectionObserver(
      (entries) => {
        // Several changes can arrive in one call (the grid settling its layout): the last one is current.
        const entry = entries[entries.length - 1]
        setHeld(entry.isIntersecting ? null : { value: latest.current })
      },
      { root: scrollParent(el), rootMargin: margin }
    )
    io.observe(el)
    return () => io.disconnect()
  }, [ref, margin])
  return held ? held.value : value
}

function scrollParent(el: Element): Element | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(p).overflowY)) return p
  }
  return null
}

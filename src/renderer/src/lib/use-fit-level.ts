// Steps a one-line row through more compact forms until it fits its width: level 0 is the full form and each
// level up is more compact (the component decides what each one drops). Measured before paint, and again
// from the full form whenever the row's width or its content changes, so it only gets as compact as it must.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react'

/** Whether the row, or a part of it marked `data-fit` that clips its own text, is wider than its box. */
function overflows(row: HTMLElement): boolean {
  if (row.scrollWidth > row.clientWidth) return true
  for (const part of row.querySelectorAll<HTMLElement>('[data-fit]')) if (part.scrollWidth > part.clientWidth) return true
  return false
}

export function useFitLevel(ref: RefObject<HTMLElement | null>, maxLevel: number, content: string): number {
  const [level, setLevel] = useState(0)
  // Bumped when the row's width differs from the width it was last measured at.
  const [resized, setResized] = useState(0)
  const measuredWidth = useRef(-1)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    // Layout is up to date when the observer reports, so reading the width here costs nothing. Its first
    // report usually gives the width the row was measured at on mount: nothing starts again then (at a burst of
    // 64 new rows, that restart was a second round of renders and forced layouts for each row).
    const ro = new ResizeObserver(() => el.clientWidth !== measuredWidth.current && setResized((n) => n + 1))
    ro.observe(el)
    return () => ro.disconnect()
  }, [ref])
  const key = `${resized}\n${content}`
  const measured = useRef(key)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    if (measured.current !== key) {
      measured.current = key
      if (level !== 0) return setLevel(0)
    }
    if (level < maxLevel && overflows(el)) setLevel(level + 1)
    measuredWidth.current = el.clientWidth
  }, [ref, key, level, maxLevel])
  return level
}

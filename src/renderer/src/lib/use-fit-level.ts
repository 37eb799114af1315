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
  const [width, setWidth] = useState(0)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const ro = new ResizeObserver(() => setWidth(el.clientWidth))
    ro.observe(el)
    return () => ro.disconnect()
  }, [ref])
  const key = `${width}\n${content}`
  const measured = useRef(key)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    if (measured.current !== key) {
      measured.current = key
      if (level !== 0) return setLevel(0)
    }
    if (level < maxLevel && overflows(el)) setLevel(level + 1)
  }, [ref, key, level, maxLevel])
  return level
}

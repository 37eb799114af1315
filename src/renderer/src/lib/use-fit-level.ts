// Steps a one-line row through more compact forms until it fits its width: level 0 is the full form and each
// level up is more compact (the component decides what each one drops). Measured before paint, and again
// from the full form whenever the row's width or its content changes, so it only gets as compact as it must.
//
// The measuring waits for the frame's own layout (after-layout.ts) instead of reading widths in the commit: at
// a burst of 64 agents starting or ending, every commit of their cards (with 64 tiles mounting beside them) laid
// out the whole page again (overflows(), ~60 ms of the start burst and ~190 ms of the end burst in a profile).
import { useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { flushSync } from 'react-dom'
import { afterLayout, awaitsLayout, cancelAfterLayout } from './after-layout'

/** Whether the row, or a part of it marked `data-fit` that clips its own text, is wider than its box. */
function overflows(row: HTMLElement): boolean {
  if (row.scrollWidth > row.clientWidth) return true
  for (const part of row.querySelectorAll<HTMLElement>('[data-fit]')) if (part.scrollWidth > part.clientWidth) return true
  return false
}

export function useFitLevel(ref: RefObject<HTMLElement | null>, maxLevel: number, content: string): number {
  const [level, setLevel] = useState(0)
  const levelNow = useRef(0)
  levelNow.current = level
  // Bumped when the row's width differs from the width it was last measured at.
  const [resized, setResized] = useState(0)
  const measuredWidth = useRef(-1)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    // The width comes with the report (reading it from the row would lay out the page again after another
    // observer's changes). Its first report usually gives the width the row was measured at on mount: nothing
    // starts again then (at a burst of 64 new rows, that restart was a second round of renders and forced layouts
    // for each row). A row waiting to be measured is measured in the same report, at the width it has now.
    const ro = new ResizeObserver((entries) => {
      const width = entries[entries.length - 1].contentRect.width
      if (!awaitsLayout(el) && width !== measuredWidth.current) setResized((n) => n + 1)
    })
    ro.observe(el)
    return () => {
      ro.disconnect()
      cancelAfterLayout(el)
    }
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
    // Measured once the frame is laid out, before it is painted: a row that does not fit steps to its next form
    // at once (rendered there and then, and measured again: only that row has changed), so no frame shows it cut.
    afterLayout(el, (entry) => {
      if (ref.current !== el || measured.current !== key) return
      let next = levelNow.current
      while (next < maxLevel && overflows(el)) {
        next++
        flushSync(() => setLevel(next))
      }
      measuredWidth.current = entry?.contentRect.width ?? -1
    })
  }, [ref, key, level, maxLevel])
  return level
}

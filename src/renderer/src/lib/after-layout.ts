// Runs a measurement once the frame being made is laid out, before it is painted: a ResizeObserver reports a
// newly observed element then, and reading a size there costs nothing. Read in a commit instead, a size lays out
// the whole page in the middle of it, and again at the next commit: at a burst of 64 agents starting or ending,
// that was most of the layout work of each frame. What the measurement changes is still drawn in the same frame.
const waiting = new Map<Element, (entry: ResizeObserverEntry | null) => void>()
let observer: ResizeObserver | null = null

/**
 * Runs `measure` after this frame's layout, with the element's size as the observer reported it (at once and
 * with null without ResizeObserver, in tests); the newest one per element.
 */
export function afterLayout(el: Element, measure: (entry: ResizeObserverEntry | null) => void): void {
  if (typeof ResizeObserver !== 'function') return measure(null)
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const run = waiting.get(entry.target)
      waiting.delete(entry.target)
      observer!.unobserve(entry.target)
      run?.(entry)
    }
  })
  // Observed again, so that it reports again even when it was waiting already (its measure is the newest).
  if (waiting.has(el)) observer.unobserve(el)
  waiting.set(el, measure)
  observer.observe(el)
}

/** Whether a measurement of `el` is waiting for the frame's layout. */
export function awaitsLayout(el: Element): boolean {
  return waiting.has(el)
}

export function cancelAfterLayout(el: Element): void {
  if (!waiting.delete(el)) return
  observer?.unobserve(el)
}

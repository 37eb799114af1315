// Whether a scroller that follows its bottom should stop following: only when the person moved it. A scroll
// event comes a frame after the scroll that caused it, so judging by where it finds the scroller counts as
// "scrolled up" any content that grew in between (a follow-the-bottom scroll, then two reports of 40 px
// each arriving before its event: the conversation stopped following and never showed what came next).
// Programmatic moves (a virtualizer keeping a row in place, a layout change) do not stop it either.

/** How long after the person's last wheel, touch or key a scroll counts as theirs. */
const INTENT_MS = 600

/** Keys that scroll a focused scroller, and Tab, whose focus move brings a row above into view. */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ', 'Tab'])

export interface ScrollIntent {
  /** The person moved the scroller themselves just now (wheel, touch, a scrolling key, or dragging its scrollbar). */
  byPerson(): boolean
  dispose(): void
}

/** Watches `scroller` for the person's own input. */
export function trackScrollIntent(scroller: HTMLElement): ScrollIntent {
  let last = -Infinity
  let pressed = false
  const mark = () => {
    last = performance.now()
  }
  const key = (e: KeyboardEvent) => {
    if (SCROLL_KEYS.has(e.key)) mark()
  }
  // A press on the scroller (its scrollbar among it) holds until released: a drag scrolls for as long as it lasts.
  const down = () => {
    pressed = true
    mark()
  }
  const up = () => {
    if (pressed) mark()
    pressed = false
  }
  const opts = { passive: true } as const
  scroller.addEventListener('wheel', mark, opts)
  scroller.addEventListener('touchmove', mark, opts)
  scroller.addEventListener('keydown', key, opts)
  scroller.addEventListener('pointerdown', down, opts)
  window.addEventListener('pointerup', up, opts)
  return {
    byPerson: () => pressed || performance.now() - last < INTENT_MS,
    dispose() {
      scroller.removeEventListener('wheel', mark)
      scroller.removeEventListener('touchmove', mark)
      scroller.removeEventListener('keydown', key)
      scroller.removeEventListener('pointerdown', down)
      window.removeEventListener('pointerup', up)
    }
  }
}

/**
 * Following after a scroll event: at the bottom (within `slack` px) it follows whoever moved it; elsewhere it
 * stops only when the person moved it, and otherwise keeps what it was.
 */
export function followsAfterScroll(scroller: HTMLElement, intent: ScrollIntent, following: boolean, slack: number): boolean {
  if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < slack) return true
  return intent.byPerson() ? false : following
}

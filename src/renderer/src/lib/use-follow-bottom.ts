// Keeps a scroller at its bottom while its content grows, unless the person scrolled up to read. It
// reacts from a ResizeObserver, which runs after layout: following costs no forced layout per update
// (reading scrollHeight in a layout effect made every streaming panel lay out the page on each delta).
// Only the person's own scrolling stops it (scroll-intent.ts): content that grows before our scroll's
// event arrives does not.
import { useLayoutEffect, useRef } from 'react'
import { followsAfterScroll, trackScrollIntent } from './scroll-intent'

/** Put `scrollRef` on the scroller and `contentRef` on its one child that holds the content. */
export function useFollowBottom<S extends HTMLElement = HTMLDivElement, C extends HTMLElement = HTMLDivElement>() {
  const scrollRef = useRef<S>(null)
  const contentRef = useRef<C>(null)

  useLayoutEffect(() => {
    const scroller = scrollRef.current
    const content = contentRef.current
    if (!scroller || !content) return
    let atBottom = true
    const intent = trackScrollIntent(scroller)
    const follow = () => {
      // Layout is fresh in a ResizeObserver callback, so this costs nothing.
      if (atBottom) scroller.scrollTop = scroller.scrollHeight
    }
    const onScroll = () => {
      // Scrolled down, the line at the top is cut through: `scrolled` fades it out (panels.css).
      scroller.classList.toggle('scrolled', scroller.scrollTop > 2)
      // Our own scrolls (the person not at the wheel) leave it following: no layout read for them.
      if (atBottom && !intent.byPerson()) return
      atBottom = followsAfterScroll(scroller, intent, atBottom, 80)
    }
    const ro = new ResizeObserver(follow)
    ro.observe(content)
    ro.observe(scroller)
    // A plain passive listener: scroll events come at frame rate from every streaming panel.
    scroller.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      ro.disconnect()
      intent.dispose()
      scroller.removeEventListener('scroll', onScroll)
    }
  }, [])

  return { scrollRef, contentRef }
}

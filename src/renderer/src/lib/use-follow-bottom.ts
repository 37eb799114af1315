// Keeps a scroller at its bottom while its content grows, unless the person scrolled up to read. It
// reacts from a ResizeObserver, which runs after layout: following costs no forced layout per update
// (reading scrollHeight in a layout effect made every streaming panel lay out the page on each delta).
import { useLayoutEffect, useRef } from 'react'

/** Put `scrollRef` on the scroller and `contentRef` on its one child that holds the content. */
export function useFollowBottom<S extends HTMLElement = HTMLDivElement, C extends HTMLElement = HTMLDivElement>() {
  const scrollRef = useRef<S>(null)
  const contentRef = useRef<C>(null)

  useLayoutEffect(() => {
    const scroller = scrollRef.current
    const content = contentRef.current
    if (!scroller || !content) return
    let atBottom = true
    // Our own scrolls need no measuring: after one, the scroller is at its bottom by definition.
    let ours = false
    const follow = () => {
      if (!atBottom) return
      // Layout is fresh in a ResizeObserver callback, so these reads cost nothing.
      const before = scroller.scrollTop
      scroller.scrollTop = scroller.scrollHeight
      ours = scroller.scrollTop !== before // only a real move sends a scroll event
    }
    const onScroll = () => {
      // Scrolled down, the line at the top is cut through: `scrolled` fades it out (panels.css).
      scroller.classList.toggle('scrolled', scroller.scrollTop > 2)
      if (ours) ours = false
      else atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80
    }
    const ro = new ResizeObserver(follow)
    ro.observe(content)
    ro.observe(scroller)
    // A plain passive listener: scroll events come at frame rate from every streaming panel.
    scroller.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      ro.disconnect()
      scroller.removeEventListener('scroll', onScroll)
    }
  }, [])

  return { scrollRef, contentRef }
}

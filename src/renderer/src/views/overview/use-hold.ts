// Whether the person is at the overview: the pointer over it, or keyboard focus in it. While they are, its
// tiles do not move; a short grace after they leave keeps a pointer that slips out for a moment from
// reshuffling everything. A pointer counts once it has moved (or pressed) over the overview: one left
// resting where the overview then appeared (the Start button's place) is not the person at the overview, and
// must not freeze the grid at its first agent.
import { useEffect, useState } from 'react'

const RELEASE_MS = 500

export function useHold(el: HTMLElement | null): boolean {
  const [held, setHeld] = useState(false)
  useEffect(() => {
    if (!el) return
    let pointer = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const update = () => {
      const focus = el.contains(document.activeElement) && document.activeElement !== document.body
      clearTimeout(timer)
      if (pointer || focus) setHeld(true)
      else timer = setTimeout(() => setHeld(false), RELEASE_MS)
    }
    const enter = (e: PointerEvent) => {
      if (pointer || (e.type === 'pointermove' && !e.movementX && !e.movementY)) return
      pointer = true
      update()
    }
    const leave = () => {
      pointer = false
      update()
    }
    // After focusout, activeElement is the next element only once the event is over.
    const focusChanged = () => setTimeout(update, 0)
    el.addEventListener('pointermove', enter)
    el.addEventListener('pointerdown', enter)
    el.addEventListener('pointerleave', leave)
    el.addEventListener('focusin', focusChanged)
    el.addEventListener('focusout', focusChanged)
    update()
    return () => {
      clearTimeout(timer)
      el.removeEventListener('pointermove', enter)
      el.removeEventListener('pointerdown', enter)
      el.removeEventListener('pointerleave', leave)
      el.removeEventListener('focusin', focusChanged)
      el.removeEventListener('focusout', focusChanged)
    }
  }, [el])
  return held
}

// Keys on a focused tile or panel: arrows move to the nearest one that way (by where they are on screen, so
// sections and rows of any width work alike), Home and End to the first and last, Enter opens the full
// panel, M steers (a message), S stops.

import type { KeyboardEvent as ReactKeyboardEvent } from 'react'

const TILE = '[data-tile]'

function centre(r: DOMRect) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 }
}

/** The tile nearest `from` in a direction, or null at the edge. */
export function tileToward(from: HTMLElement, key: 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown', all: HTMLElement[]): HTMLElement | null {
  const a = from.getBoundingClientRect()
  const c = centre(a)
  let best: HTMLElement | null = null
  let bestScore = Infinity
  for (const el of all) {
    if (el === from) continue
    const b = el.getBoundingClientRect()
    const d = centre(b)
    const ahead =
      key === 'ArrowRight'
        ? b.left >= a.right - 1
        : key === 'ArrowLeft'
          ? b.right <= a.left + 1
          : key === 'ArrowDown'
            ? b.top >= a.bottom - 1
            : b.bottom <= a.top + 1
    if (!ahead) continue
    const along = key === 'ArrowLeft' || key === 'ArrowRight' ? Math.abs(d.x - c.x) : Math.abs(d.y - c.y)
    const across = key === 'ArrowLeft' || key === 'ArrowRight' ? Math.abs(d.y - c.y) : Math.abs(d.x - c.x)
    // Same row (or column) first, then the nearest.
    const score = across * 4 + along
    if (score < bestScore) {
      best = el
      bestScore = score
    }
  }
  return best
}

/** Handles a key on a focused tile; true when it was one of the overview's keys. */
export function tileKey(e: KeyboardEvent | ReactKeyboardEvent, root: HTMLElement, select: (agentId: string) => void): boolean {
  const target = e.target as HTMLElement
  if (!target.matches(TILE) || e.altKey || e.ctrlKey || e.metaKey) return false
  const all = [...root.querySelectorAll<HTMLElement>(TILE)]
  const go = (el: HTMLElement | null | undefined) => {
    if (!el) return
    el.focus()
    el.scrollIntoView({ block: 'nearest' })
    select(el.dataset.agentId!)
  }
  const click = (action: string) => target.querySelector<HTMLButtonElement>(`[data-action=${action}]`)?.click()
  switch (e.key) {
    case 'ArrowLeft':
    case 'ArrowRight':
    case 'ArrowUp':
    case 'ArrowDown':
      go(tileToward(target, e.key, all))
      break
    case 'Home':
      go(all[0])
      break
    case 'End':
      go(all[all.length - 1])
      break
    case 'Enter':
      click('maximize')
      break
    case 'm':
    case 'M':
      click('message')
      break
    case 's':
    case 'S':
      click('stop')
      break
    default:
      return false
  }
  e.preventDefault()
  return true
}

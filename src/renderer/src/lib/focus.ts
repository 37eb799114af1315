// Keyboard focus when the element holding it goes away (a panel maximized, a request answered, a menu
// closed): the browser drops it on <body>, and a keyboard user has to start over from the top of the page.
// These helpers put it somewhere that continues what the person was doing.

/**
 * Focus is on <body>, on an element that is no longer in the page, or on one that can no longer hold it (a
 * button just disabled, an element hidden or made inert): nobody put it anywhere. The last case matters
 * because when the browser moves focus off a disabled element differs between versions — Chromium 156 does
 * it in its next rendering update, after this frame's callbacks — so "still on the disabled button" now
 * means "on <body> a moment later".
 */
function focusLost(): boolean {
  const active = document.activeElement
  if (!active || active === document.body || !active.isConnected) return true
  if (active.matches(':disabled') || active.closest('[inert]')) return true
  return active instanceof HTMLElement && typeof active.checkVisibility === 'function' && !active.checkVisibility()
}

/**
 * After the next frame (once React has committed what replaces the element that had focus), focuses what
 * `find` returns — only if focus is still lost, so a person who moved on in the meantime keeps their place.
 */
export function refocusWhenLost(find: () => Element | null | undefined): void {
  requestAnimationFrame(() => {
    if (!focusLost()) return
    const target = find()
    if (target instanceof HTMLElement) target.focus()
  })
}

// A permission request's answers live in a scope (the queue dialog, a session's body) marked with
// data-permission-scope; data-permission-fallback names, as a selector, where focus goes when none is left.
const ALLOW = '[data-testid=perm-allow]'

export interface AnswerHandOff {
  scope: HTMLElement
  /** The answered request's place among the scope's requests, so focus goes to the one after it. */
  index: number
}

/** Called as a request is answered from the keyboard or a click: where it sits, for `focusAfterAnswer`. */
export function answerHandOff(actions: HTMLElement): AnswerHandOff | null {
  if (!actions.contains(document.activeElement)) return null
  const scope = actions.closest<HTMLElement>('[data-permission-scope]')
  if (!scope) return null
  const mine = actions.querySelector(ALLOW)
  return {
    scope,
    index: Math.max(
      0,
      [...scope.querySelectorAll(ALLOW)].findIndex((b) => b === mine)
    )
  }
}

/** The request that took the answered one's place (or the one before, at the end), else the scope's fallback. */
export function nextAfterAnswer({ scope, index }: AnswerHandOff): Element | null {
  if (!scope.isConnected) return null
  const open = [...scope.querySelectorAll<HTMLButtonElement>(ALLOW)].filter((b) => !b.disabled)
  if (open.length) return open[Math.min(index, open.length - 1)]
  const fallback = scope.dataset.permissionFallback
  return fallback ? document.querySelector(fallback) : null
}

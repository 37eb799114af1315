// A modal dialog frame: Escape or the backdrop closes it (only the topmost one, when dialogs stack); focus
// moves into it, and back to whatever opened it when it closes.
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react'
import { Icon } from '../components/icon'
import { refocusWhenLost } from '../lib/focus'

export function Dialog({
  title,
  onClose,
  children,
  wide = false,
  testId,
  describedBy,
  returnFocus,
  className
}: {
  title: string
  onClose(): void
  children: ReactNode
  wide?: boolean
  testId?: string
  /** The id of the text a screen reader reads with the title when the dialog opens. */
  describedBy?: string
  /** Where focus goes on close when what opened the dialog is gone or disabled (a button the dialog made unnecessary). */
  returnFocus?: () => Element | null | undefined
  /** A size or look of its own (the Changes view fills most of the window). */
  className?: string
}) {
  const ref = useRef<HTMLDivElement>(null)
  const close = useRef(onClose)
  const fallback = useRef(returnFocus)
  // Updated in the commit itself, so an Escape right after a change already sees the new handler.
  useLayoutEffect(() => {
    close.current = onClose
    fallback.current = returnFocus
  }, [onClose, returnFocus])
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    // In the capture phase, before any other window listener: the Escape is marked as used
    // (defaultPrevented), so what lies beneath (a maximized panel) does not close as well.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !isTopmost(ref.current)) return
      e.preventDefault()
      close.current()
    }
    window.addEventListener('keydown', onKey, true)
    // The marked control first, wherever it is (a selector list would take whichever comes first in the page,
    // such as a link inside the dialog's text), else the first field or button.
    const first = (selector: string) => ref.current?.querySelector<HTMLElement>(selector)
    ;(first('[data-autofocus]') ?? first('input, select, textarea, button:not(.dialog-close)'))?.focus()
    return () => {
      window.removeEventListener('keydown', onKey, true)
      // Back to the button that opened it, unless focus already moved somewhere on purpose; when that
      // button is gone or disabled (focus() would do nothing), to the dialog's fallback.
      const back = fallback.current
      refocusWhenLost(() => (opener?.isConnected && !opener.matches(':disabled') ? opener : back?.()))
    }
  }, [])
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className={`dialog${wide ? ' wide' : ''}${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        aria-describedby={describedBy}
        ref={ref}
        data-testid={testId}
      >
        <div className="dialog-head">
          <h2>{title}</h2>
          <button className="icon-button dialog-close" onClick={onClose} aria-label="Close">
            <Icon name="x" />
          </button>
        </div>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  )
}

function isTopmost(el: HTMLElement | null): boolean {
  const all = document.querySelectorAll('[role=dialog]')
  return !!el && all[all.length - 1] === el
}

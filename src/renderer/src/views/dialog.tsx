// A modal dialog frame: Escape or the backdrop closes it; focus moves into it.
import { useEffect, useRef, type ReactNode } from 'react'
import { Icon } from '../components/icon'

export function Dialog({ title, onClose, children, wide = false, testId }: { title: string; onClose(): void; children: ReactNode; wide?: boolean; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    ref.current?.querySelector<HTMLElement>('input, select, textarea, button:not(.dialog-close)')?.focus()
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className={`dialog${wide ? ' wide' : ''}`} role="dialog" aria-modal="true" aria-label={title} ref={ref} data-testid={testId}>
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

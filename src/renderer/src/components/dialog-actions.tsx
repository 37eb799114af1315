// The footer of every dialog and form that asks to confirm: Cancel (or "Keep it", "Stay"…) first, then the
// confirming button. Without `onConfirm` the confirming button submits its form, so Enter in a field confirms;
// Escape cancels through the Dialog itself. `focus` says which button takes the focus when the dialog opens
// (the safe one, where confirming loses something). Busy, the confirming button is disabled and says so.
import type { ReactNode } from 'react'

export function DialogActions({
  confirm,
  onConfirm,
  confirmTestId,
  disabled = false,
  busy = false,
  danger = false,
  onCancel,
  cancelLabel = 'Cancel',
  cancelTestId,
  cancelDisabled = false,
  focus,
  className,
  children
}: {
  /** The confirming button's label; none: the footer has only its cancelling button. */
  confirm?: ReactNode
  /** Absent: the button submits the form it is in. */
  onConfirm?: () => void
  confirmTestId?: string
  disabled?: boolean
  busy?: boolean
  /** Confirming removes or loses something: the button is drawn as a warning. */
  danger?: boolean
  /** Absent: no cancelling button (a form saved in place). */
  onCancel?: () => void
  cancelLabel?: ReactNode
  cancelTestId?: string
  cancelDisabled?: boolean
  focus?: 'cancel' | 'confirm'
  className?: string
  /** Before the buttons: a note or the form's error. */
  children?: ReactNode
}) {
  return (
    <div className={`form-actions${className ? ` ${className}` : ''}`}>
      {children}
      {onCancel && (
        <button
          type="button"
          className="btn"
          onClick={onCancel}
          disabled={cancelDisabled}
          data-autofocus={focus === 'cancel' || undefined}
          data-testid={cancelTestId}
        >
          {cancelLabel}
        </button>
      )}
      {confirm !== undefined && (
        <button
          type={onConfirm ? 'button' : 'submit'}
          className={`btn btn-primary${danger ? ' ae-danger' : ''}`}
          onClick={onConfirm}
          disabled={disabled || busy}
          aria-busy={busy || undefined}
          data-autofocus={focus === 'confirm' || undefined}
          data-testid={confirmTestId}
        >
          {confirm}
        </button>
      )}
    </div>
  )
}

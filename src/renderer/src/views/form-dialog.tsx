// A dialog that is one form: its fields, the error of the last try, then Cancel and the confirming button.
// Enter in a field confirms (unless `disabled`), Escape or Cancel closes; busy, the button waits.
import type { ReactNode } from 'react'
import { DialogActions } from '../components/dialog-actions'
import { SubmitForm } from '../components/submit-form'
import { Dialog } from './dialog'

export function FormDialog({
  title,
  testId,
  onClose,
  onSubmit,
  confirm,
  confirmTestId,
  disabled = false,
  busy,
  error,
  children
}: {
  title: string
  testId?: string
  onClose(): void
  onSubmit(): unknown
  confirm: string
  confirmTestId?: string
  disabled?: boolean
  busy: boolean
  error: string | null
  children: ReactNode
}) {
  return (
    <Dialog title={title} onClose={onClose} testId={testId}>
      <SubmitForm className="form" onSubmit={() => !disabled && onSubmit()}>
        {children}
        {error && <div className="inline-error">{error}</div>}
        <DialogActions onCancel={onClose} confirm={confirm} disabled={disabled} busy={busy} confirmTestId={confirmTestId} />
      </SubmitForm>
    </Dialog>
  )
}

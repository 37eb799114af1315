// The prompt box: Enter sends, Shift+Enter adds a line; grows with its text; shows the failure of a
// send right under it.
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Icon } from '../components/icon'
import { savedDraft, saveDraft } from '../lib/tab-memory'
import { errorText } from '../transport/types'

export interface PromptBoxProps {
  placeholder: string
  onSubmit(text: string): Promise<void>
  disabled?: boolean
  autoFocus?: boolean
  /** Extra controls left of the send button (agent, model, permission mode). */
  children?: ReactNode
  submitLabel?: string
  testId?: string
  /**
   * A failed send's message is shown while this stays what it was when the send failed: the refusal of a
   * start for want of a key goes the moment a key is stored, rather than sitting there until the next try.
   */
  errorScope?: unknown
  /** Keeps the unsent text in this tab's memory under this name: it survives a reload or a restart. */
  draftKey?: string
}

export function PromptBox({ placeholder, onSubmit, disabled, autoFocus, children, submitLabel = 'Send', testId = 'prompt', errorScope, draftKey }: PromptBoxProps) {
  const [text, setTextState] = useState(() => (draftKey ? savedDraft(draftKey) : ''))
  const setText = (value: string) => {
    setTextState(value)
    if (draftKey) saveDraft(draftKey, value)
  }
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<{ message: string; scope: unknown } | null>(null)
  const error = failure && Object.is(failure.scope, errorScope) ? failure.message : null
  const ref = useRef<HTMLTextAreaElement>(null)

  const submit = async () => {
    const value = text.trim()
    if (!value || busy || disabled) return
    setBusy(true)
    setFailure(null)
    try {
      await onSubmit(value)
      setText('')
    } catch (err) {
      setFailure({ message: errorText(err), scope: errorScope })
    } finally {
      setBusy(false)
      ref.current?.focus()
    }
  }

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      void submit()
    }
  }

  return (
    <div className="prompt-box-wrap">
      <div className={`prompt-box${disabled ? ' disabled' : ''}`}>
        <textarea
          ref={ref}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKey}
          placeholder={placeholder}
          rows={Math.min(10, Math.max(2, text.split('\n').length))}
          disabled={disabled}
          autoFocus={autoFocus}
          data-testid={testId}
          aria-label={placeholder}
        />
        <div className="prompt-toolbar">
          <div className="prompt-options">{children}</div>
          <span className="prompt-hint">⏎ to send · ⇧⏎ new line</span>
          <button className="btn btn-primary btn-sm" onClick={() => void submit()} disabled={busy || disabled || !text.trim()} data-testid={`${testId}-send`}>
            <Icon name="arrowUp" size={13} /> {submitLabel}
          </button>
        </div>
      </div>
      {error && (
        <div className="inline-error" role="alert">
          {error}
        </div>
      )}
    </div>
  )
}

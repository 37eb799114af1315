// The prompt box: Enter sends, Shift+Enter adds a line; grows with its text; shows the failure of a
// send right under it, and, before any send, when the text is longer than Fanout accepts.
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { PROMPT_MAX_CHARS } from '../../../shared/ipc-contract'
import { Icon } from '../components/icon'
import { lengthVerdict } from '../lib/length-limit'
import { savedDraft, saveDraft } from '../lib/tab-memory'
import { errorMessage } from '../transport/types'
import { InlineError } from '../components/inline-error'

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
  /** The most characters a send takes (default: a prompt's). */
  maxChars?: number
  /** Keeps the unsent text in this tab's memory under this name: it survives a reload or a restart. */
  draftKey?: string
}

export function PromptBox({
  placeholder,
  onSubmit,
  disabled,
  autoFocus,
  children,
  submitLabel = 'Send',
  testId = 'prompt',
  errorScope,
  maxChars = PROMPT_MAX_CHARS,
  draftKey
}: PromptBoxProps) {
  const [text, setTextState] = useState(() => (draftKey ? savedDraft(draftKey) : ''))
  const setText = (value: string) => {
    setTextState(value)
    if (draftKey) saveDraft(draftKey, value)
  }
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<{ message: string; scope: unknown } | null>(null)
  const error = failure && Object.is(failure.scope, errorScope) ? failure.message : null
  const ref = useRef<HTMLTextAreaElement>(null)
  const length = lengthVerdict(text.length, maxChars, 'This prompt')

  const submit = async () => {
    const value = text.trim()
    if (!value || busy || disabled || length.over) return
    setBusy(true)
    setFailure(null)
    try {
      await onSubmit(value)
      setText('')
    } catch (err) {
      setFailure({ message: errorMessage(err), scope: errorScope })
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
          rows={Math.min(10, Math.max(2, countLines(text)))}
          aria-invalid={length.over || undefined}
          aria-describedby={length.text ? `${testId}-length` : undefined}
          disabled={disabled}
          autoFocus={autoFocus}
          data-testid={testId}
          aria-label={placeholder}
        />
        <div className="prompt-toolbar">
          <div className="prompt-options">{children}</div>
          {length.text && !length.over ? (
            <span className="prompt-hint" id={`${testId}-length`} data-testid={`${testId}-length`}>
              {length.text}
            </span>
          ) : (
            <span className="prompt-hint">⏎ to send · ⇧⏎ new line</span>
          )}
          <button
            className="btn btn-primary btn-sm"
            onClick={() => void submit()}
            disabled={busy || disabled || !text.trim() || length.over}
            data-testid={`${testId}-send`}
          >
            <Icon name="arrowUp" size={13} /> {submitLabel}
          </button>
        </div>
      </div>
      {length.over && (
        <div className="inline-error" role="alert" id={`${testId}-length`} data-testid={`${testId}-too-long`}>
          {length.text}
        </div>
      )}
      <InlineError error={error} />
    </div>
  )
}

/** Lines in the box, counted only as far as the box can grow (a 500,000-character paste is not split on every keystroke). */
function countLines(text: string): number {
  let lines = 1
  for (let i = text.indexOf('\n'); i !== -1 && lines < 10; i = text.indexOf('\n', i + 1)) lines++
  return lines
}

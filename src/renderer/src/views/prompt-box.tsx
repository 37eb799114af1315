// The prompt box: Enter sends, Shift+Enter adds a line; grows with its text; shows the failure of a
// send right under it, and, before any send, when the text is longer than Fanout accepts. Given the
// project, it keeps a shell's history (↑ on the first line recalls older prompts, ↓ on the last newer ones,
// Escape returns to the draft) and completes `/commands` and `@files` (prompt-menu.tsx).
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { PROMPT_MAX_CHARS } from '../../../shared/ipc-contract'
import { Icon } from '../components/icon'
import { lengthVerdict } from '../lib/length-limit'
import { savedDraft, saveDraft } from '../lib/tab-memory'
import { errorMessage } from '../transport/types'
import { InlineError } from '../components/inline-error'
import { complete } from '../lib/prompt-completion'
import { promptHistory, rememberPrompt } from '../lib/prompt-history'
import { useApp } from '../state/store'
import { PromptMenuList, usePromptMenu } from './prompt-menu'

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
  /** The project folder: its prompt history (↑ ↓) and its `/` commands and `@` files. */
  project?: string
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
  draftKey,
  project
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

  // Where the caret is (the menu completes there), and, while a history entry is shown, which one and the
  // draft it stands in for.
  const [caret, setCaret] = useState<number | null>(null)
  const [recall, setRecall] = useState<{ index: number; draft: string } | null>(null)
  const [placeCaret, setPlaceCaret] = useState<number | null>(null)
  const agents = useApp((s) => s.agentDefs)
  const menu = usePromptMenu(text, caret, project, agents)
  const menuId = `${testId}-menu`
  const menuShown = menu.open && (menu.items.length > 0 || menu.note !== null)

  useLayoutEffect(() => {
    if (placeCaret === null || !ref.current) return
    ref.current.setSelectionRange(placeCaret, placeCaret)
    setCaret(placeCaret)
    setPlaceCaret(null)
  }, [placeCaret])

  const show = (value: string, at: number) => {
    setText(value)
    setPlaceCaret(at)
  }

  const pick = (i: number) => {
    const item = menu.items[i]
    if (!item || !menu.trigger) return
    const done = complete(text, menu.trigger, item.insert)
    show(done.text, done.caret)
  }

  /** ↑ (-1: older) or ↓ (+1: newer) through the history; false when there is nothing that way. */
  const step = (older: boolean): boolean => {
    if (!project) return false
    const history = promptHistory(project)
    const index = (recall?.index ?? -1) + (older ? 1 : -1)
    if (index >= history.length || index < -1 || (index === -1 && !recall)) return false
    if (index === -1) {
      show(recall!.draft, recall!.draft.length)
      setRecall(null)
      return true
    }
    setRecall({ index, draft: recall?.draft ?? text })
    const entry = history[index]
    // Older: the caret at its start, so another ↑ goes on at once; newer: at its end, for ↓.
    show(entry, older && entry.includes('\n') ? 0 : entry.length)
    return true
  }

  const submit = async () => {
    const value = text.trim()
    if (!value || busy || disabled || length.over) return
    setBusy(true)
    setFailure(null)
    try {
      await onSubmit(value)
      if (project) rememberPrompt(project, value)
      setRecall(null)
      setText('')
    } catch (err) {
      setFailure({ message: errorMessage(err), scope: errorScope })
    } finally {
      setBusy(false)
      ref.current?.focus()
    }
  }

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return
    const box = e.currentTarget
    const collapsed = box.selectionStart === box.selectionEnd
    if (menuShown) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault()
        menu.move(e.key === 'ArrowDown' ? 1 : -1)
        return
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        if (menu.items.length > 0) {
          e.preventDefault()
          pick(menu.active)
          return
        }
      }
      if (e.key === 'Escape') {
        e.preventDefault()
        e.stopPropagation()
        menu.close()
        return
      }
    }
    if (e.key === 'ArrowUp' && collapsed && !e.shiftKey && !box.value.slice(0, box.selectionStart).includes('\n')) {
      if (step(true)) e.preventDefault()
      return
    }
    if (e.key === 'ArrowDown' && collapsed && !e.shiftKey && recall && !box.value.slice(box.selectionEnd).includes('\n')) {
      if (step(false)) e.preventDefault()
      return
    }
    if (e.key === 'Escape' && recall) {
      e.preventDefault()
      e.stopPropagation()
      show(recall.draft, recall.draft.length)
      setRecall(null)
      return
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      void submit()
    }
  }

  return (
    <div className="prompt-box-wrap">
      {menuShown && <PromptMenuList id={menuId} menu={menu} onPick={pick} label={menu.trigger?.kind === 'command' ? 'Commands' : 'Files and agents'} />}
      <div className={`prompt-box${disabled ? ' disabled' : ''}`}>
        <textarea
          ref={ref}
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            setCaret(e.target.selectionStart)
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart === e.currentTarget.selectionEnd ? e.currentTarget.selectionStart : null)}
          onBlur={() => setCaret(null)}
          onKeyDown={onKey}
          aria-autocomplete={project ? 'list' : undefined}
          aria-controls={menuShown ? menuId : undefined}
          aria-activedescendant={menuShown && menu.items.length > 0 ? `${menuId}-${menu.active}` : undefined}
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
            <span className="prompt-hint">{project ? '⏎ send · ⇧⏎ new line · / commands · @ files · ↑ history' : '⏎ to send · ⇧⏎ new line'}</span>
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

// The form's building blocks: a field frame (label, one-line help, problems), and inputs that keep what
// the person is typing while the host rewrites the file (the value from the file wins only when the input
// is not being edited). Each control takes its accessible name from its field's label (a <label for>, or
// aria-labelledby for a group), and its description from the field's one-line help.
import { createContext, useContext, useEffect, useId, useRef, useState, type ChangeEvent, type ReactNode } from 'react'
import type { Diagnostic } from '../../../shared/agent-definition'
import type { EditorFieldKey } from '../../../shared/agent-editor'
import { Icon } from '../components/icon'
import { FIELD_HELP, FIELD_LABEL, MODEL_ALIASES, STANDARD_COLORS } from './field-help'
import { Prose } from './prose'

/** Local state that follows `value` except while the input has focus. */
export function useLocal<T>(value: T): [T, (v: T) => void, { onFocus(): void; onBlur(): void }] {
  const [local, setLocal] = useState(value)
  const focused = useRef(false)
  useEffect(() => {
    if (!focused.current) setLocal(value)
  }, [value])
  return [
    local,
    setLocal,
    {
      onFocus: () => {
        focused.current = true
      },
      onBlur: () => {
        focused.current = false
        setLocal(value)
      }
    }
  ]
}

/** The ids a field's frame gives its control: what names it (label), what describes it (hint). */
export interface FieldIds {
  /** The id of the one control a <label for> names (text inputs, selects, a checkbox). */
  inputId: string
  /** The label's id, for aria-labelledby on a group of controls (radio groups, the tools grid). */
  labelId: string
  hintId: string
  label: string
}

const FieldContext = createContext<FieldIds | null>(null)

/** Inside a FieldFrame: the ids to name and describe its control by; null elsewhere. */
export function useField(): FieldIds | null {
  return useContext(FieldContext)
}

/** The props that make a single control the field's own: named by its label, described by its help. */
function ownControl(f: FieldIds | null): { id?: string; 'aria-describedby'?: string } {
  return f ? { id: f.inputId, 'aria-describedby': f.hintId } : {}
}

/**
 * `group`: the field's control is several (radios, toggles, swatches) named together through aria-labelledby,
 * so the label is text, not a <label> pointing at one of them.
 */
export function FieldFrame({
  field,
  problems,
  error,
  children,
  wide = false,
  aside,
  group = false
}: {
  field: EditorFieldKey
  problems: Diagnostic[]
  error?: string
  children: ReactNode
  wide?: boolean
  aside?: ReactNode
  group?: boolean
}) {
  const worst = problems.find((d) => d.severity === 'error') ?? problems.find((d) => d.severity === 'warning') ?? problems[0]
  const id = useId()
  const ids: FieldIds = { inputId: `${id}input`, labelId: `${id}label`, hintId: `${id}hint`, label: FIELD_LABEL[field] }
  return (
    <div className={`ae-field${wide ? ' wide' : ''}${worst ? ` has-${worst.severity}` : ''}${error ? ' has-error' : ''}`} data-testid={`field-${field}`}>
      <div className="ae-field-head">
        {group ? (
          <span className="field-label" id={ids.labelId}>
            {ids.label}
          </span>
        ) : (
          <label className="field-label" id={ids.labelId} htmlFor={ids.inputId}>
            {ids.label}
          </label>
        )}
        <code className="ae-field-key">{field}</code>
        {aside && <span className="ae-field-aside">{aside}</span>}
      </div>
      <FieldContext.Provider value={ids}>{children}</FieldContext.Provider>
      <span className="field-hint" id={ids.hintId}>
        {FIELD_HELP[field]}
      </span>
      {error && (
        <span className="ae-field-problem error err-text" role="alert">
          <Icon name="alert" size={12} />
          <span>
            <Prose text={error} />
          </span>
        </span>
      )}
      {problems.map((d, i) => (
        <span key={i} className={`ae-field-problem ${d.severity} ${SEVERITY_TEXT[d.severity]}`} data-testid="field-problem">
          <Icon name={d.severity === 'info' ? 'dot' : 'alert'} size={12} />
          <span>
            line {d.line}: <Prose text={d.message} />
          </span>
        </span>
      ))}
    </div>
  )
}

/** What every control of a field takes: its value, where a change goes, whether it is locked, its test id. */
interface ControlProps<T> {
  value: T
  onChange(v: T): void
  disabled?: boolean
  testId?: string
}

interface TextProps extends ControlProps<string> {
  placeholder?: string
}

/** A text control's props, the input's and the textarea's alike: the field's own, its text kept while it has the focus. */
function useTextControl({ value, onChange, placeholder, disabled, testId }: TextProps) {
  const [local, setLocal, focus] = useLocal(value)
  const props = {
    ...ownControl(useField()),
    value: local,
    placeholder,
    disabled,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setLocal(e.target.value)
      onChange(e.target.value)
    },
    ...focus,
    'data-testid': testId
  }
  return props
}

export function TextInput({ mono = false, ...text }: TextProps & { mono?: boolean }) {
  return <input type="text" className={mono ? 'mono' : undefined} spellCheck={false} {...useTextControl(text)} />
}

export function TextArea({ rows = 4, ...text }: TextProps & { rows?: number }) {
  const props = useTextControl(text)
  return <textarea rows={Math.min(14, Math.max(rows, props.value.split('\n').length + 1))} {...props} />
}

/** A yes/no field written only when on (off removes the key: absent means no). */
export function Toggle({ checked, label, onChange, disabled, testId }: Omit<ControlProps<boolean>, 'value'> & { checked: boolean; label: string }) {
  // Two labels name it: the field's ("Background") and its own sentence beside the box.
  const field = useField()
  return (
    <label className="ae-toggle">
      <input {...ownControl(field)} type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} data-testid={testId} />
      <span>{label}</span>
    </label>
  )
}

/** A select that is its field's control. */
export function Select({ value, onChange, disabled, testId, children }: ControlProps<string> & { children: ReactNode }) {
  const field = useField()
  return (
    <select {...ownControl(field)} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
      {children}
    </select>
  )
}

/** Radio buttons named by the field's label (Model, Effort, Memory). */
export function ChoiceRow({
  options,
  value,
  onChange,
  disabled,
  testId
}: ControlProps<string> & { options: Array<{ value: string; label: string; title?: string }> }) {
  const field = useField()
  return (
    <div className="ae-choices" role="radiogroup" aria-labelledby={field?.labelId} aria-describedby={field?.hintId} data-testid={testId}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={o.value === value}
          className={`ae-choice${o.value === value ? ' active' : ''}`}
          title={o.title}
          disabled={disabled}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  )
}

/** A problem's color: theme.css's classes for failed, waiting and muted text. */
const SEVERITY_TEXT: Record<Diagnostic['severity'], string> = { error: 'err-text', warning: 'warn-text', info: 'muted' }

/** A text whose setting goes away when it is emptied: the setting gets the trimmed text or null, the field keeps what is typed. */
function useClearableText(initial: string, onChange: (v: string | null) => void) {
  const [local, setLocal, focus] = useLocal(initial)
  return {
    value: local,
    spellCheck: false,
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      setLocal(e.target.value)
      onChange(e.target.value.trim() || null)
    },
    ...focus
  }
}

export function ModelPicker({
  value,
  onChange,
  disabled,
  knownIds
}: {
  value: string
  onChange(v: string | null): void
  disabled?: boolean
  knownIds: string[]
}) {
  const isAlias = value === '' || (MODEL_ALIASES as readonly string[]).includes(value.toLowerCase())
  const idText = useClearableText(isAlias ? '' : value, onChange)
  const field = useField()
  return (
    <div className="ae-model">
      <ChoiceRow
        options={[{ value: '', label: 'Default' }, ...MODEL_ALIASES.map((a) => ({ value: a, label: a }))]}
        value={isAlias ? value.toLowerCase() : '__id'}
        onChange={(v) => onChange(v || null)}
        disabled={disabled}
        testId="model-choices"
      />
      <input
        type="text"
        className="mono"
        list="ae-model-ids"
        placeholder="or a model id, e.g. claude-sonnet-4-5"
        aria-label="Model id"
        aria-describedby={field?.hintId}
        disabled={disabled}
        {...idText}
        data-testid="model-id"
      />
      <datalist id="ae-model-ids">
        {knownIds.map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
    </div>
  )
}

export function ColorPicker({ value, onChange, disabled }: { value: string; onChange(v: string | null): void; disabled?: boolean }) {
  const standard = (STANDARD_COLORS as readonly string[]).includes(value)
  const customText = useClearableText(standard ? '' : value, onChange)
  const field = useField()
  return (
    <div className="ae-colors" role="group" aria-labelledby={field?.labelId} aria-describedby={field?.hintId}>
      <button
        type="button"
        className={`ae-swatch none${value === '' ? ' active' : ''}`}
        title="No color"
        aria-label="No color"
        disabled={disabled}
        onClick={() => onChange(null)}
      >
        <Icon name="x" size={10} />
      </button>
      {STANDARD_COLORS.map((c) => (
        <button
          key={c}
          type="button"
          className={`ae-swatch${value === c ? ' active' : ''}`}
          style={{ ['--swatch' as string]: `var(--agent-${c})` }}
          title={c}
          aria-label={c}
          aria-pressed={value === c}
          disabled={disabled}
          onClick={() => onChange(c)}
          data-testid={`color-${c}`}
        />
      ))}
      <input type="text" className="mono ae-custom-color" placeholder="custom" disabled={disabled} {...customText} aria-label="Custom color" />
    </div>
  )
}

/** A list of free-form names (skills), one chip each. */
export function NameList({
  value,
  onChange,
  placeholder,
  disabled,
  testId
}: {
  value: string[]
  onChange(v: string[] | null): void
  placeholder: string
  disabled?: boolean
  testId?: string
}) {
  const [draft, setDraft] = useState('')
  const field = useField()
  const add = () => {
    const names = draft
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter(Boolean)
    if (names.length) onChange([...value, ...names.filter((n) => !value.includes(n))])
    setDraft('')
  }
  return (
    <div className="ae-chips" data-testid={testId}>
      {value.map((name) => (
        <span key={name} className="ae-chip">
          {name}
          {!disabled && (
            <button
              type="button"
              aria-label={`Remove ${name}`}
              onClick={() => onChange(value.filter((v) => v !== name).length ? value.filter((v) => v !== name) : null)}
            >
              <Icon name="x" size={10} />
            </button>
          )}
        </span>
      ))}
      {!disabled && (
        <input
          {...ownControl(field)}
          type="text"
          className="ae-chip-input"
          value={draft}
          placeholder={placeholder}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ',') {
              e.preventDefault()
              add()
            }
          }}
          onBlur={add}
        />
      )}
    </div>
  )
}

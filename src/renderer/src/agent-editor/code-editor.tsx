// CodeMirror 6 in React: an uncontrolled editor that reports edits and takes outside changes (the form
// editing the same text) without losing the cursor. Themed from the app's CSS variables, so it follows
// light and dark with everything else. Lines with diagnostics are marked; `reveal` scrolls to one.
//
// The editor lives in a shadow root: CodeMirror injects its styles as a <style> element into a document,
// which the app's Content-Security-Policy (style-src 'self') rightly blocks, but as a constructed style
// sheet into a shadow root, which CSP does not govern. CSS variables and fonts still inherit into it.
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { markdown } from '@codemirror/lang-markdown'
import { yaml, yamlFrontmatter } from '@codemirror/lang-yaml'
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state'
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  keymap,
  lineNumbers,
  placeholder as cmPlaceholder,
  type DecorationSet
} from '@codemirror/view'
import { tags } from '@lezer/highlight'
import { useEffect, useRef } from 'react'
import { EDITOR_BASE_THEME, editorText } from '../lib/editor-theme'

export type CodeLanguage = 'markdown' | 'agent-file' | 'yaml'

export interface LineMark {
  line: number
  severity: 'error' | 'warning' | 'info'
}

const theme = EditorView.theme({
  ...EDITOR_BASE_THEME,
  '&': { ...EDITOR_BASE_THEME['&'], height: '100%' },
  ...editorText({ lineHeight: '1.55', padding: '8px 0', linePadding: '0 10px', caret: 'var(--text)', selection: 28 }),
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 6%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'transparent', color: 'var(--text-muted)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-placeholder': { color: 'var(--text-faint)' },
  '.cm-line-error': { backgroundColor: 'color-mix(in srgb, var(--st-failed) 14%, transparent)' },
  '.cm-line-warning': { backgroundColor: 'color-mix(in srgb, var(--st-waiting) 14%, transparent)' },
  '.cm-line-info': { backgroundColor: 'color-mix(in srgb, var(--accent) 8%, transparent)' },
  '.cm-line-revealed': { boxShadow: 'inset 3px 0 0 var(--accent)' }
})

const highlight = HighlightStyle.define([
  { tag: tags.heading, color: 'var(--hl-title)', fontWeight: '600' },
  { tag: [tags.strong], fontWeight: '600' },
  { tag: [tags.emphasis], fontStyle: 'italic' },
  { tag: [tags.link, tags.url], color: 'var(--accent)' },
  { tag: [tags.monospace], color: 'var(--hl-string)' },
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--hl-keyword)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--hl-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--hl-number)' },
  { tag: [tags.comment, tags.meta, tags.processingInstruction], color: 'var(--hl-comment)' },
  { tag: [tags.list, tags.quote], color: 'var(--hl-attr)' },
  { tag: [tags.angleBracket, tags.tagName], color: 'var(--hl-built)' },
  { tag: [tags.punctuation, tags.separator], color: 'var(--text-muted)' }
])

const setMarks = StateEffect.define<{ marks: LineMark[]; revealed?: number }>()
const marksField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    let next = value.map(tr.changes)
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue
      const ranges = []
      const byLine = new Map<number, string>()
      const rank = { error: 3, warning: 2, info: 1 } as const
      for (const m of e.value.marks) {
        const cur = byLine.get(m.line)
        if (!cur || rank[m.severity] > rank[cur as keyof typeof rank]) byLine.set(m.line, m.severity)
      }
      for (const [line, sev] of [...byLine].sort((a, b) => a[0] - b[0])) {
        if (line < 1 || line > tr.state.doc.lines) continue
        const cls = `cm-line-${sev}${e.value.revealed === line ? ' cm-line-revealed' : ''}`
        ranges.push(Decoration.line({ class: cls }).range(tr.state.doc.line(line).from))
      }
      const revealed = e.value.revealed
      if (revealed && !byLine.has(revealed) && revealed <= tr.state.doc.lines) {
        ranges.push(Decoration.line({ class: 'cm-line-revealed' }).range(tr.state.doc.line(revealed).from))
        ranges.sort((a, b) => a.from - b.from)
      }
      next = Decoration.set(ranges, true)
    }
    return next
  },
  provide: (f) => EditorView.decorations.from(f)
})

function language(lang: CodeLanguage): Extension {
  if (lang === 'yaml') return yaml()
  if (lang === 'agent-file') return yamlFrontmatter({ content: markdown() })
  return markdown()
}

export interface CodeEditorProps {
  value: string
  onChange(value: string): void
  language: CodeLanguage
  lineNumbers?: boolean
  placeholder?: string
  marks?: LineMark[]
  /** Scrolls to this line (1-based) when `reveal.nonce` changes. */
  reveal?: { line: number; nonce: number } | null
  readOnly?: boolean
  ariaLabel: string
  testId?: string
  className?: string
}

export function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const onChange = useRef(props.onChange)
  onChange.current = props.onChange
  const external = useRef(false)

  useEffect(() => {
    const state = EditorState.create({
      doc: props.value,
      extensions: [
        history(),
        drawSelection(),
        highlightActiveLine(),
        EditorView.lineWrapping,
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        language(props.language),
        syntaxHighlighting(highlight),
        theme,
        marksField,
        ...(props.lineNumbers ? [lineNumbers()] : []),
        ...(props.placeholder ? [cmPlaceholder(props.placeholder)] : []),
        EditorState.readOnly.of(Boolean(props.readOnly)),
        EditorView.contentAttributes.of({ 'aria-label': props.ariaLabel, ...(props.testId ? { 'data-testid': props.testId } : {}) }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !external.current) onChange.current(u.state.doc.toString())
        })
      ]
    })
    const el = host.current!
    const shadow = el.shadowRoot ?? el.attachShadow({ mode: 'open' })
    const mount = document.createElement('div')
    mount.style.height = '100%'
    shadow.appendChild(mount)
    const v = new EditorView({ state, parent: mount, root: shadow })
    view.current = v
    return () => {
      v.destroy()
      mount.remove()
      view.current = null
    }
    // The editor is created once; later prop changes are applied by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // Outside changes (the form edited the same text): replace only what differs, keeping the cursor.
  useEffect(() => {
    const v = view.current
    if (!v) return
    const current = v.state.doc.toString()
    if (current === props.value) return
    let start = 0
    while (start < current.length && start < props.value.length && current[start] === props.value[start]) start++
    let endA = current.length
    let endB = props.value.length
    while (endA > start && endB > start && current[endA - 1] === props.value[endB - 1]) {
      endA--
      endB--
    }
    external.current = true
    try {
      v.dispatch({ changes: { from: start, to: endA, insert: props.value.slice(start, endB) } })
    } finally {
      external.current = false
    }
  }, [props.value])

  useEffect(() => {
    const v = view.current
    if (!v) return
    const revealed = props.reveal?.line
    const effects: StateEffect<unknown>[] = [setMarks.of({ marks: props.marks ?? [], ...(revealed ? { revealed } : {}) })]
    if (revealed && revealed <= v.state.doc.lines) effects.push(EditorView.scrollIntoView(v.state.doc.line(revealed).from, { y: 'center' }))
    v.dispatch({ effects })
  }, [props.marks, props.reveal])

  return <div className={`code-editor ${props.className ?? ''}`} ref={host} />
}

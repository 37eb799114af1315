// A file's diff with @codemirror/merge: side by side (MergeView) or unified (one editor showing deletions
// inline), read-only, unchanged stretches collapsed. Like the agent editor's CodeEditor, it lives in a
// shadow root: CodeMirror's constructed style sheets are allowed there under the app's CSP. Colors come from
// the theme's CSS variables, so it follows light and dark with the rest of the app.
import { MergeView, unifiedMergeView } from '@codemirror/merge'
import { markdown } from '@codemirror/lang-markdown'
import { javascript } from '@codemirror/lang-javascript'
import { yaml } from '@codemirror/lang-yaml'
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { EditorState, type Extension } from '@codemirror/state'
import { EditorView, lineNumbers } from '@codemirror/view'
import { tags } from '@lezer/highlight'
import { useEffect, useRef } from 'react'
import { EDITOR_BASE_THEME, editorText } from '../lib/editor-theme'
import type { DiffLayout } from './review-store'

const theme = EditorView.theme({
  ...EDITOR_BASE_THEME,
  ...editorText({ lineHeight: '1.5', padding: '4px 0', linePadding: '0 10px 0 6px', caret: 'transparent', selection: 24 }),
  // Changes: the theme's diff colors (the same as the transcript's), stronger where the text itself changed.
  '&.cm-merge-a .cm-changedLine, .cm-deletedChunk, .cm-deletedLine': { backgroundColor: 'var(--hl-del-bg)' },
  '&.cm-merge-b .cm-changedLine, .cm-insertedLine, .cm-inlineChangedLine': { backgroundColor: 'var(--hl-add-bg)' },
  '&.cm-merge-a .cm-changedText, .cm-deletedChunk .cm-deletedText': { background: 'color-mix(in srgb, var(--hl-del) 22%, transparent)' },
  '&.cm-merge-b .cm-changedText, .cm-insertedLine .cm-changedText': { background: 'color-mix(in srgb, var(--hl-add) 22%, transparent)' },
  '.cm-deletedChunk': { paddingLeft: '6px' },
  '.cm-changeGutter': { width: '3px', paddingLeft: '1px' },
  '&.cm-merge-a .cm-changedLineGutter, .cm-deletedLineGutter': { background: 'var(--hl-del)' },
  '&.cm-merge-b .cm-changedLineGutter, .cm-changedLineGutter': { background: 'var(--hl-add)' },
  '.cm-collapsedLines': {
    color: 'var(--text-muted)',
    background: 'var(--bg-subtle)',
    fontFamily: 'var(--font-ui)',
    fontSize: 'var(--fs-xs)',
    padding: '3px 10px'
  }
})

const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.modifier, tags.controlKeyword, tags.operatorKeyword], color: 'var(--hl-keyword)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--hl-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--hl-number)' },
  { tag: [tags.comment, tags.meta], color: 'var(--hl-comment)' },
  { tag: [tags.heading, tags.definition(tags.function(tags.variableName)), tags.function(tags.variableName)], color: 'var(--hl-title)' },
  { tag: [tags.typeName, tags.className, tags.propertyName], color: 'var(--hl-built)' },
  { tag: [tags.attributeName, tags.list, tags.quote], color: 'var(--hl-attr)' },
  { tag: [tags.link, tags.url], color: 'var(--accent)' },
  { tag: tags.strong, fontWeight: '600' },
  { tag: tags.emphasis, fontStyle: 'italic' }
])

/** Highlighting for the languages the app already carries, by the file's extension; plain text otherwise. */
function languageFor(path: string): Extension {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? ''
  if (['md', 'markdown', 'mdx'].includes(ext)) return markdown()
  if (['yml', 'yaml'].includes(ext)) return yaml()
  if (['ts', 'mts', 'cts'].includes(ext)) return javascript({ typescript: true })
  if (ext === 'tsx') return javascript({ typescript: true, jsx: true })
  if (['js', 'mjs', 'cjs', 'json'].includes(ext)) return javascript()
  if (ext === 'jsx') return javascript({ jsx: true })
  return []
}

const COLLAPSE = { margin: 3, minSize: 6 }

export interface DiffViewProps {
  path: string
  oldText: string
  newText: string
  layout: DiffLayout
  /** Names the diff for screen readers: "src/app.ts, before and after". */
  label: string
}

export function DiffView({ path, oldText, newText, layout, label }: DiffViewProps) {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = host.current!
    const shadow = el.shadowRoot ?? el.attachShadow({ mode: 'open' })
    const mount = document.createElement('div')
    mount.className = 'diff-mount'
    mount.style.height = '100%'
    shadow.appendChild(mount)
    const base = (side: string): Extension[] => [
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      lineNumbers(),
      languageFor(path),
      syntaxHighlighting(highlight),
      theme,
      EditorView.contentAttributes.of({ 'aria-label': `${label}: ${side}` })
    ]
    let destroy: () => void
    if (layout === 'split') {
      const view = new MergeView({
        a: { doc: oldText, extensions: base('before') },
        b: { doc: newText, extensions: base('after') },
        parent: mount,
        root: shadow,
        gutter: true,
        highlightChanges: true,
        collapseUnchanged: COLLAPSE
      })
      view.dom.style.height = '100%'
      destroy = () => view.destroy()
    } else {
      const view = new EditorView({
        state: EditorState.create({
          doc: newText,
          extensions: [
            ...base('changes'),
            unifiedMergeView({
              original: oldText,
              mergeControls: false,
              gutter: true,
              highlightChanges: true,
              syntaxHighlightDeletions: true,
              collapseUnchanged: COLLAPSE
            })
          ]
        }),
        parent: mount,
        root: shadow
      })
      view.dom.style.height = '100%'
      destroy = () => view.destroy()
    }
    return () => {
      destroy()
      mount.remove()
    }
  }, [path, oldText, newText, layout, label])
  return <div className={`diff-view diff-${layout}`} ref={host} data-testid="diff-view" data-layout={layout} />
}

// What every CodeMirror view in the app shares (the agent editor, the Changes view's diffs): the theme's
// colors and fonts through CSS variables, so light and dark follow the rest of the app, and its gutters.
// Each view adds its own rules on top.
export const EDITOR_BASE_THEME = {
  '&': { fontSize: 'var(--fs-sm)', backgroundColor: 'var(--bg-input)', color: 'var(--text)', fontFamily: 'var(--font-mono)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-gutters': { backgroundColor: 'var(--bg-subtle)', color: 'var(--text-faint)', border: 'none', borderRight: '1px solid var(--border)' }
} as const

/** The text's spacing and its selection, which each view sets to its own values (the editor roomier, the diff denser). */
export function editorText({
  lineHeight,
  padding,
  linePadding,
  caret,
  selection
}: {
  lineHeight: string
  padding: string
  linePadding: string
  caret: string
  selection: number
}) {
  return {
    '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight },
    '.cm-content': { padding, caretColor: caret },
    '.cm-line': { padding: linePadding },
    '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': {
      backgroundColor: `color-mix(in srgb, var(--accent) ${selection}%, transparent) !important`
    }
  }
}

// An edit tool call shown as the diff it makes (the Review screen's DiffView), in a permission card and in a
// transcript row, so an edit is never approved blind. Side by side where the card is wide, unified where it
// is narrow; a large diff starts collapsed behind its line counts.
import { useState } from 'react'
import { DiffView } from '../review/diff-view'
import { editDiffOf, LARGE_DIFF_LINES, type WriteBefore } from '../lib/edit-diff'
import { plural } from '../lib/format'
import { useSize } from '../lib/use-size'

/** Below this width a side-by-side diff leaves each side too narrow to read. */
const SPLIT_MIN_WIDTH = 760

/** `previousText` / `details`: what an overwriting Write replaces (its request's, or its patch once it ran). */
export function EditDiffView({ toolName, input, wide = false, previousText, details }: { toolName: string; input: unknown; wide?: boolean } & WriteBefore) {
  const diff = editDiffOf(toolName, input, { previousText, details })
  const [ref, { width }] = useSize()
  const large = !!diff && diff.removed + diff.added > LARGE_DIFF_LINES
  const [open, setOpen] = useState(!large)
  if (!diff) return null
  const counts = `${diff.added ? `+${diff.added}` : ''}${diff.added && diff.removed ? ' ' : ''}${diff.removed ? `−${diff.removed}` : ''}` || 'no change'
  const isNew = diff.oldText === '' && diff.note === 'whole file'
  const layout = wide && width >= SPLIT_MIN_WIDTH && !isNew ? 'split' : 'unified'
  return (
    <div className="edit-diff" ref={ref} data-testid="edit-diff" data-open={open}>
      <div className="edit-diff-bar small">
        <span className="edit-diff-counts" aria-label={`${plural(diff.added, 'line')} added, ${plural(diff.removed, 'line')} removed`}>
          <span className="edit-diff-add">{diff.added ? `+${diff.added}` : ''}</span>
          {diff.added && diff.removed ? ' ' : ''}
          <span className="edit-diff-del">{diff.removed ? `−${diff.removed}` : ''}</span>
          {!diff.added && !diff.removed ? <span className="muted">no change</span> : null}
        </span>
        {diff.note && <span className="muted">{isNew ? 'whole file, all added' : diff.note}</span>}
        {large && (
          <button type="button" className="btn-link small" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="edit-diff-toggle">
            {open ? 'Hide diff' : `Show diff (${counts} lines)`}
          </button>
        )}
      </div>
      {open && <DiffView path={diff.path} oldText={diff.oldText} newText={diff.newText} layout={layout} label={`${diff.path}, the change asked for`} />}
    </div>
  )
}

// The open file's diff, with the choice of side by side or unified, and what is shown instead when there is
// no text to compare (a binary file, one too large to show, a failed read).
import { plural } from '../lib/format'
import { DiffView } from './diff-view'
import { setLayout, useReview } from './review-store'
import { usePick } from '../lib/use-pick'
import { Pending } from '../components/pending'

const size = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : plural(n, 'byte'))

const LAYOUTS = [
  { id: 'split', label: 'Side by side' },
  { id: 'unified', label: 'Unified' }
] as const

export function DiffPane() {
  const { file, diff, diffError: error, diffLoading: loading, layout } = usePick(useReview, 'file', 'diff', 'diffError', 'diffLoading', 'layout')
  if (!file) return <div className="review-diff empty-state muted">Choose a file to see its changes.</div>
  const what =
    diff && diff.oldText === null && diff.newText !== null
      ? 'new file'
      : diff && diff.newText === null && diff.oldText !== null && !diff.binary && !diff.tooLarge
        ? 'deleted'
        : null
  return (
    <section className="review-diff" aria-label={`Diff of ${file.path}`} data-testid="review-diff">
      <div className="review-diff-bar">
        <span className="review-diff-path" title={file.path}>
          {diff?.oldPath ? `${diff.oldPath} → ` : ''}
          {file.path}
        </span>
        {what && <span className="tag">{what}</span>}
        {file.uncommitted && <span className="tag tag-warn">not committed yet</span>}
        <div className="ae-segmented review-layout-toggle" role="radiogroup" aria-label="Diff layout">
          {LAYOUTS.map((l) => (
            <button
              key={l.id}
              type="button"
              role="radio"
              aria-checked={layout === l.id}
              className={layout === l.id ? 'active' : ''}
              onClick={() => setLayout(l.id)}
              data-testid={`diff-${l.id}`}
            >
              {l.label}
            </button>
          ))}
        </div>
      </div>
      <div className="review-diff-body">
        {error || !diff ? (
          <Pending error={error} loading={loading} text="Reading both sides…" />
        ) : diff.binary ? (
          <div className="empty-state muted" data-testid="diff-binary">
            Binary file: {diff.oldText === null && !diff.oldSize ? 'added' : size(diff.oldSize)} → {diff.newSize ? size(diff.newSize) : 'deleted'}. There is no
            text to compare.
          </div>
        ) : diff.tooLarge ? (
          <div className="empty-state muted" data-testid="diff-too-large">
            Too large to show here ({size(Math.max(diff.oldSize, diff.newSize))}); <code>fanout worktrees diff</code> prints it whole.
          </div>
        ) : (
          <DiffView path={diff.path} oldText={diff.oldText ?? ''} newText={diff.newText ?? ''} layout={layout} label={`${diff.path}, before and after`} />
        )}
      </div>
    </section>
  )
}

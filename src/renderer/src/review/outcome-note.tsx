// What the last merge or discard did, in the view it was started from: merged agents with their commits,
// or where it stopped and why (the files of a conflict, the checkout's uncommitted files).
import type { MergeOutcome } from '../../../shared/review'
import { useReview } from './review-store'

export function MergeOutcomeText({ outcome }: { outcome: MergeOutcome }) {
  return (
    <>
      {outcome.merged.map((m) => (
        <div key={m.agentId} className="review-outcome-line" data-testid="merge-merged">
          {m.files === 0
            ? `${m.branch} was already on ${outcome.into}: tidied away.`
            : `${m.branch} ${m.strategy === 'merge' ? 'merged into' : 'squashed onto'} ${outcome.into} as ${m.commit.slice(0, 7)} (${m.files} file${m.files === 1 ? '' : 's'}).`}
          {m.cleanup && <span className="muted"> {m.cleanup}</span>}
        </div>
      ))}
      {outcome.skipped.map((s) => (
        <div key={s} className="review-outcome-line muted">
          Skipped: {s}.
        </div>
      ))}
      {outcome.stopped && (
        <div className="review-outcome-stop" role="alert" data-testid="merge-stopped">
          <strong>{outcome.merged.length ? 'Stopped: ' : 'Not merged: '}</strong>
          {outcome.stopped.message}
          {outcome.stopped.files.length > 0 && (
            <ul className="review-outcome-files">
              {outcome.stopped.files.map((f) => (
                <li key={f}>
                  <code>{f}</code>
                </li>
              ))}
            </ul>
          )}
          {outcome.notMerged.length > 1 && <div className="muted small">Also kept, not merged: {outcome.notMerged.slice(1).join(', ')}.</div>}
        </div>
      )}
    </>
  )
}

export function OutcomeNote() {
  const outcome = useReview((s) => s.outcome)
  const dialog = useReview((s) => s.dialog)
  // While a dialog is open it shows the outcome itself.
  if (!outcome || dialog) return null
  return (
    <div
      className={`review-outcome${outcome.kind === 'error' || (outcome.kind === 'merge' && outcome.outcome.stopped) ? ' bad' : ''}`}
      data-testid="review-outcome"
    >
      {outcome.kind === 'error' && <div role="alert">{outcome.message}</div>}
      {outcome.kind === 'discard' && (
        <div role="status">
          Discarded {outcome.outcome.branch}: {outcome.outcome.removedWorktree ? 'worktree removed, ' : ''}
          {outcome.outcome.deletedBranch ? 'branch deleted.' : 'the branch was kept (it moved).'}
        </div>
      )}
      {outcome.kind === 'merge' && <MergeOutcomeText outcome={outcome.outcome} />}
    </div>
  )
}

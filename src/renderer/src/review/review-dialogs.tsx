// The two confirmations of the Changes view. Merge: what goes into which branch, whether each branch merges
// cleanly (a dry run, asked afresh), and how — merge commit or squash, remembered. Discard: exactly what is
// lost (commits, files, uncommitted work, the folder and branch), confirmed against the branch tip shown.
import { useEffect, useState } from 'react'
import type { MergePreview, MergeStrategy } from '../../../shared/review'
import { DialogActions } from '../components/dialog-actions'
import { call, useApp } from '../state/store'
import { errorMessage } from '../transport/types'
import { Dialog } from '../views/dialog'
import { AgentLabel } from './agent-label'
import { Counts, StatusLetter } from './file-list'
import { MergeOutcomeText } from './outcome-note'
import { closeDialog, discardAgent, mergeAgents, useReview } from './review-store'
import { checkoutProblem } from './session-changes'
import { filesText } from './work-summary'

const STRATEGIES: Array<{ value: MergeStrategy; title: string; hint: string }> = [
  { value: 'merge', title: 'Merge commit', hint: 'Keeps the agent’s commits, joined to your branch by a merge commit.' },
  { value: 'squash', title: 'Squash', hint: 'One new commit on your branch with all of the agent’s changes.' }
]

export function MergeDialog({ agentIds, all }: { agentIds: string[]; all: boolean }) {
  const view = useReview((s) => s.view)!
  const list = useReview((s) => s.list)
  const busy = useReview((s) => s.busy)
  const outcome = useReview((s) => s.outcome)
  const remembered = useApp((s) => s.settings?.mergeStrategy ?? 'merge')
  const [strategy, setStrategy] = useState<MergeStrategy>(remembered)
  const [preview, setPreview] = useState<MergePreview | null>(null)
  const [previewError, setPreviewError] = useState<string | null>(null)
  const ids = all ? view.agentIds : agentIds
  useEffect(() => {
    let live = true
    call('review.preview', { cwd: view.cwd, agentIds: ids })
      .then((r) => live && setPreview(r.preview))
      .catch((err) => live && setPreviewError(errorMessage(err)))
    return () => {
      live = false
    }
    // The dry run is asked for once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const done = outcome?.kind === 'merge' || outcome?.kind === 'error'
  const checkout = preview?.checkout ?? list?.checkout
  const problem = checkout ? checkoutProblem(checkout) : null
  const into = checkout?.branch ?? 'the current branch'
  // The order merging takes: the planned one, then whatever the plan stops at.
  const order = preview ? [...preview.order, ...(preview.blocked ? [preview.blocked.agentId] : [])] : ids
  const cleanOnly = list?.agents.filter((a) => ids.includes(a.agentId) && a.state === 'merged').length === ids.length
  const count = all ? (preview?.order.length ?? 0) : ids.length
  const agents = useApp((s) => s.events.sessions[view.sessionId]?.agents)
  // A single agent that conflicts: there is nothing to choose, only what to do instead.
  const blockedAlone =
    !all &&
    !!preview &&
    order.length > 0 &&
    order.every((id) => preview.blocked?.agentId === id || preview.agents.some((a) => a.agentId === id && !a.againstHead.clean))
  const agentName = (id: string) => agents?.[id]?.name ?? agents?.[id]?.description ?? id
  return (
    <Dialog title={all ? `Merge all into ${into}` : `Merge into ${into}`} onClose={closeDialog} wide testId="merge-dialog">
      {checkout && (
        <p className="small">
          Into <code>{into}</code>
          {checkout.head && <span className="muted"> at {checkout.head.slice(0, 7)}</span>} in <span className="muted">{checkout.root}</span>
        </p>
      )}
      {problem && (
        <div className="review-outcome bad" role="alert" data-testid="merge-refused-early">
          {problem}
        </div>
      )}
      <ol className="merge-list" data-testid="merge-list">
        {order.map((id) => {
          const c = list?.agents.find((a) => a.agentId === id)
          const p = preview?.agents.find((a) => a.agentId === id)
          const stop = preview?.blocked?.agentId === id
          const verdictClass = !preview ? 'pending muted' : stop || (p && !p.againstHead.clean) ? 'bad err-text' : 'good ok-text'
          return (
            <li key={id}>
              <AgentLabel sessionId={view.sessionId} agentId={id} fallbackType={c?.agentType} />
              <span className="merge-list-meta small">
                <code>{c?.branch ?? `fanout/${id}`}</code> · {c ? filesText(c) : ''}
              </span>
              <span className={`merge-list-verdict small ${verdictClass}`} data-testid="merge-verdict">
                {!preview && !previewError
                  ? 'checking…'
                  : stop
                    ? `✕ ${order.length > 1 ? 'stops here: ' : ''}conflicts with ${preview!.blocked!.with.length ? `what is merged before it (${preview!.blocked!.with.map((w) => agentName(w)).join(', ')})` : into} in ${preview!.blocked!.files.join(', ')}`
                    : p && !p.againstHead.clean
                      ? `✕ conflicts with ${into} in ${p.againstHead.conflicts.join(', ')}`
                      : c?.state === 'merged'
                        ? '✓ already on the branch: only tidied away'
                        : '✓ merges cleanly'}
                {p && p.uncommitted > 0 ? ` · ${p.uncommitted} uncommitted file${p.uncommitted === 1 ? '' : 's'} will be committed to its branch first` : ''}
              </span>
            </li>
          )
        })}
      </ol>
      {previewError && <div className="inline-error small">{previewError}</div>}
      {blockedAlone && (
        <p className="review-note small" data-testid="merge-blocked-help">
          Merging it would need the conflict resolved by hand, so Fanout will not start it. Ask the agent to redo its change on top of <code>{into}</code> (send
          it a message), resolve it yourself with git, or discard its work.
        </p>
      )}
      {!cleanOnly && !blockedAlone && (
        <fieldset className="merge-strategy" disabled={busy || done}>
          <legend className="field-label">How</legend>
          {STRATEGIES.map((s) => (
            <label key={s.value} className={`merge-strategy-option${strategy === s.value ? ' active' : ''}`}>
              <input
                type="radio"
                name="merge-strategy"
                value={s.value}
                checked={strategy === s.value}
                onChange={() => setStrategy(s.value)}
                data-testid={`merge-strategy-${s.value}`}
              />
              <span>
                <strong>{s.title}</strong>
                <span className="small muted"> — {s.hint}</span>
              </span>
            </label>
          ))}
          <span className="field-hint">Your choice is remembered for next time.</span>
        </fieldset>
      )}
      <p className="small muted">
        A merge is all or nothing: if anything stands in the way, nothing is changed and the agent’s branch is kept. A merged agent’s worktree and branch are
        removed.
      </p>
      {done && (
        <div className={`review-outcome${outcome.kind === 'error' || outcome.outcome.stopped ? ' bad' : ''}`} data-testid="merge-outcome">
          {outcome.kind === 'error' ? <div role="alert">{outcome.message}</div> : <MergeOutcomeText outcome={outcome.outcome} />}
        </div>
      )}
      {done ? (
        <DialogActions confirm="Done" onConfirm={closeDialog} focus="confirm" confirmTestId="merge-done" />
      ) : (
        <DialogActions
          onCancel={closeDialog}
          confirm={busy ? 'Merging…' : cleanOnly ? 'Clean up' : `Merge${count > 1 ? ` ${count} agents` : ''}`}
          busy={busy}
          disabled={
            !!problem || (all && !count) || (!all && !!preview && order.some((id) => preview.agents.find((a) => a.agentId === id && !a.againstHead.clean)))
          }
          onConfirm={() => void mergeAgents(all ? (preview?.order ?? []) : agentIds, all, strategy)}
          focus="confirm"
          confirmTestId="merge-confirm"
        />
      )}
    </Dialog>
  )
}

const MAX_LISTED = 8

export function DiscardDialog({ agentId }: { agentId: string }) {
  const view = useReview((s) => s.view)!
  const list = useReview((s) => s.list)
  const busy = useReview((s) => s.busy)
  const outcome = useReview((s) => s.outcome)
  const c = list?.agents.find((a) => a.agentId === agentId)
  if (!c) return null
  const lost = c.commits.length > 0 || c.uncommitted.length > 0
  const files = [...c.files, ...c.uncommitted.filter((u) => !c.files.some((f) => f.path === u.path))]
  return (
    <Dialog
      title={lost ? 'Discard this agent’s work?' : 'Remove this agent’s branch?'}
      onClose={closeDialog}
      testId="discard-dialog"
      describedBy="discard-what"
    >
      <p>
        <AgentLabel sessionId={view.sessionId} agentId={agentId} fallbackType={c.agentType} />
      </p>
      <div id="discard-what" className="discard-what" data-testid="discard-what">
        {lost ? (
          <>
            <p>Discarding deletes, for good:</p>
            <ul>
              {c.commits.length > 0 && (
                <li>
                  {c.commits.length} commit{c.commits.length === 1 ? '' : 's'} on <code>{c.branch}</code>
                  {c.commits.length <= 3 && <span className="muted"> ({c.commits.map((k) => k.subject).join('; ')})</span>}
                </li>
              )}
              {c.uncommitted.length > 0 && (
                <li>
                  {c.uncommitted.length} uncommitted file{c.uncommitted.length === 1 ? '' : 's'} in its worktree
                </li>
              )}
              <li>
                the changes to {files.length} file{files.length === 1 ? '' : 's'} ({filesText(c)}):
                <ul className="discard-files">
                  {files.slice(0, MAX_LISTED).map((f) => (
                    <li key={f.path}>
                      <StatusLetter status={f.status} /> <code>{f.path}</code> <Counts file={f} />
                    </li>
                  ))}
                  {files.length > MAX_LISTED && <li className="muted">and {files.length - MAX_LISTED} more</li>}
                </ul>
              </li>
            </ul>
          </>
        ) : (
          <p>Nothing is lost: {c.state === 'merged' ? 'everything on its branch is already on the current branch.' : 'its branch holds no changes.'}</p>
        )}
        <p className="small">
          The branch <code>{c.branch}</code>
          {c.worktreePath && (
            <>
              {' '}
              and the folder <code>{c.worktreePath}</code>
            </>
          )}{' '}
          are removed.{lost ? ' This cannot be undone.' : ''}
        </p>
      </div>
      {outcome?.kind === 'error' && (
        <div className="inline-error" role="alert">
          {outcome.message}
        </div>
      )}
      {/* Where work would be lost, the focus is on keeping it. */}
      <DialogActions
        onCancel={closeDialog}
        cancelLabel="Keep it"
        focus={lost ? 'cancel' : 'confirm'}
        confirm={busy ? 'Discarding…' : lost ? 'Discard' : 'Remove'}
        danger
        busy={busy}
        onConfirm={() => void discardAgent(agentId, c.tip)}
        confirmTestId="discard-confirm"
      />
    </Dialog>
  )
}

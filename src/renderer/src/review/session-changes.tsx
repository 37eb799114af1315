// Every agent's changes together: the branch they land on (and whether it can take a merge now), a row per
// agent with what its branch holds and its actions, the conflict preview, and "Merge all" in the order that
// avoids conflicts where one exists.
import { Icon } from '../components/icon'
import { useApp } from '../state/store'
import { AgentLabel } from './agent-label'
import { OutcomeNote } from './outcome-note'
import { PreviewMatrix } from './preview-matrix'
import { loadPreview, openDialog, selectAgent, useReview } from './review-store'
import { workSummary } from './work-summary'
import type { CheckoutState } from '../../../shared/review'
import { usePick } from '../lib/use-pick'
import { Pending } from '../components/pending'
import { InlineError } from '../components/inline-error'

/** Why a merge would be refused right now, before anyone asks. */
export function checkoutProblem(c: CheckoutState): string | null {
  if (c.operation) return `A ${c.operation} is in progress in ${c.root}: finish or abort it before merging.`
  if (!c.branch) return `HEAD is detached in ${c.root}: check out the branch to merge into.`
  if (c.dirtyFiles.length)
    return `${c.branch} has uncommitted changes (${c.dirtyFiles.slice(0, 4).join(', ')}${c.dirtyFiles.length > 4 ? ` and ${c.dirtyFiles.length - 4} more` : ''}): commit or stash them before merging, so a merge never mixes with your own edits.`
  return null
}

export function CheckoutLine({ checkout }: { checkout: CheckoutState }) {
  const problem = checkoutProblem(checkout)
  return (
    <div className={`review-checkout${problem ? ' bad' : ''}`} data-testid="review-checkout">
      <Icon name={problem ? 'alert' : 'branch'} size={13} />
      {problem ?? (
        <span>
          Merging into <code>{checkout.branch}</code>
          {checkout.head && <span className="muted"> at {checkout.head.slice(0, 7)}</span>} in <span className="muted">{checkout.root}</span>
        </span>
      )}
    </div>
  )
}

function AgentRow({ sessionId, agentId }: { sessionId: string; agentId: string }) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[agentId])
  const list = useReview((s) => s.list)
  const busy = useReview((s) => s.busy)
  const changes = list?.agents.find((a) => a.agentId === agentId)
  const summary = workSummary(agentId, agent, list)
  return (
    <tr data-testid="review-agent-row" data-agent-id={agentId}>
      <td className="review-row-agent">
        <AgentLabel sessionId={sessionId} agentId={agentId} fallbackType={changes?.agentType} />
      </td>
      <td className="review-row-branch">
        <code>{changes?.branch ?? agent?.worktree?.branch}</code>
      </td>
      <td className={`review-row-work tone-${summary.tone}`}>{summary.text}</td>
      <td className="review-row-actions">
        <button className="btn btn-sm" onClick={() => void selectAgent(agentId)} data-testid="review-row-open">
          Review
        </button>
        {changes && (changes.state === 'ready' || changes.state === 'merged') && (
          <button
            className="btn btn-sm"
            disabled={busy}
            onClick={() => openDialog({ kind: 'merge', agentIds: [agentId], all: false })}
            data-testid="review-row-merge"
          >
            {changes.state === 'merged' ? 'Clean up' : 'Merge…'}
          </button>
        )}
        {changes && changes.state !== 'running' && (
          <button
            className="btn btn-sm btn-danger-ghost"
            disabled={busy}
            onClick={() => openDialog({ kind: 'discard', agentId })}
            data-testid="review-row-discard"
          >
            Discard…
          </button>
        )}
      </td>
    </tr>
  )
}

export function SessionChangesView() {
  const { list, listError, preview, previewError, previewLoading } = usePick(useReview, 'list', 'listError', 'preview', 'previewError', 'previewLoading')
  const view = useReview((s) => s.view)!
  const ready = list?.agents.filter((a) => a.state === 'ready' || a.state === 'merged') ?? []
  const running = list?.agents.filter((a) => a.state === 'running') ?? []
  return (
    <div className="review-overview" data-testid="review-overview">
      {list && <CheckoutLine checkout={list.checkout} />}
      <InlineError error={listError} />
      <OutcomeNote />
      <table className="review-agents">
        <caption className="review-caption">Agents that worked in their own worktree</caption>
        <tbody>
          {view.agentIds.map((id) => (
            <AgentRow key={id} sessionId={view.sessionId} agentId={id} />
          ))}
        </tbody>
      </table>
      <section className="review-preview" aria-labelledby="preview-title">
        <div className="review-preview-head">
          <h3 id="preview-title">Conflict preview</h3>
          <span className="small muted">git merge-tree dry runs: nothing is touched</span>
          <button
            className="btn btn-sm btn-ghost"
            onClick={() => void loadPreview()}
            title="Run the dry runs again against the current branch as it is now"
            disabled={previewLoading}
            data-testid="preview-refresh"
          >
            {previewLoading ? 'Checking…' : 'Check again'}
          </button>
        </div>
        {previewError || !preview ? (
          <Pending error={previewError} loading={previewLoading} text="Merging in memory…" />
        ) : !preview.agents.length ? (
          <p className="small muted" data-testid="preview-empty">
            {running.length ? 'No agent has finished work to merge yet.' : 'No agent has work waiting to be merged.'}
          </p>
        ) : (
          <>
            <PreviewMatrix preview={preview} sessionId={view.sessionId} />
            <MergeAllBar />
          </>
        )}
      </section>
      {running.length > 0 && ready.length > 0 && <p className="small muted">Agents still working are left out of “Merge all”; review them once they finish.</p>}
    </div>
  )
}

function MergeAllBar() {
  const view = useReview((s) => s.view)!
  const preview = useReview((s) => s.preview)!
  const busy = useReview((s) => s.busy)
  const agents = useApp((s) => s.events.sessions[view.sessionId]?.agents)
  // Agents of one type differ by their task: the matrix number, then its name or task.
  const label = (id: string) => {
    const a = agents?.[id]
    const what = a?.name ?? a?.description ?? preview.agents.find((x) => x.agentId === id)?.description ?? a?.agentType ?? id
    return `${preview.agents.findIndex((x) => x.agentId === id) + 1} (${what})`
  }
  return (
    <div className="review-merge-all" data-testid="merge-all-bar">
      <p className="small" data-testid="merge-all-plan">
        {preview.blocked
          ? `“Merge all” merges ${preview.order.length ? preview.order.map(label).join(', ') : 'nothing'}, then stops at ${label(preview.blocked.agentId)}: it conflicts with ${preview.blocked.with.length ? preview.blocked.with.map(label).join(', ') : (preview.checkout.branch ?? 'HEAD')} in ${preview.blocked.files.join(', ')}.`
          : `“Merge all” merges ${preview.order.map(label).join(', ')}, in that order, with no conflict.`}
      </p>
      <button
        className="btn btn-primary btn-sm"
        disabled={busy || !preview.order.length}
        onClick={() => openDialog({ kind: 'merge', agentIds: preview.order, all: true })}
        data-testid="merge-all"
      >
        <Icon name="merge" size={13} /> Merge all…
      </button>
    </div>
  )
}

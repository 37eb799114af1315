// One agent's changes: who it is and where its work lives (branch, worktree folder), what can be done with
// it (merge, discard, open the folder), its files with counts, its commits, and the open file's diff.
import { Icon } from '../components/icon'
import { RelativeTime } from '../components/relative-time'
import { plural } from '../lib/format'
import { useApp } from '../state/store'
import { AgentLabel } from './agent-label'
import { DiffPane } from './diff-pane'
import { FileList } from './file-list'
import { OutcomeNote } from './outcome-note'
import { openAgentFolder, openDialog, useReview } from './review-store'
import { filesText, landedText } from './work-summary'
import { usePick } from '../lib/use-pick'

const STATE_TEXT = {
  running: 'Still working: these are its changes so far. It can be merged once it has finished.',
  merged: 'Everything on its branch is already on the current branch; discarding only tidies the branch and worktree away.',
  empty: 'Its branch holds no changes.'
} as const

export function AgentChangesView({ agentId }: { agentId: string }) {
  const { list, listError, file: open, busy, folderNote } = usePick(useReview, 'list', 'listError', 'file', 'busy', 'folderNote')
  const view = useReview((s) => s.view)!
  const agent = useApp((s) => s.events.sessions[view.sessionId]?.agents[agentId])
  const changes = list?.agents.find((a) => a.agentId === agentId)
  const gone = list?.gone.find((g) => g.agentId === agentId)
  const into = list?.checkout.branch

  const header = (
    <header className="review-agent-head">
      <div className="review-agent-title">
        <AgentLabel sessionId={view.sessionId} agentId={agentId} fallbackType={changes?.agentType} />
      </div>
      <div className="review-agent-where small">
        <span title="The agent's branch">
          <Icon name="branch" size={12} /> <code data-testid="review-branch">{changes?.branch ?? agent?.worktree?.branch ?? `fanout/${agentId}`}</code>
        </span>
        {changes?.worktreePath && (
          <span className="review-agent-path" title={changes.worktreePath}>
            <Icon name="folder" size={12} /> <code data-testid="review-worktree-path">{changes.worktreePath}</code>
          </span>
        )}
      </div>
    </header>
  )

  if (!changes) {
    return (
      <div className="review-agent" data-testid="review-agent">
        {header}
        <OutcomeNote />
        {listError ? (
          <div className="inline-error" role="alert">
            {listError}
          </div>
        ) : !list ? (
          <div className="empty-state muted">Reading its branch…</div>
        ) : (
          <div className="empty-state muted" data-testid="review-agent-gone">
            {gone?.outcome
              ? `Its work was ${landedText(gone.outcome)}; the branch and worktree are gone.`
              : agent?.worktree?.kept === false
                ? 'It changed nothing, so its worktree and branch were removed when it finished.'
                : `Its branch ${gone?.branch ?? ''} no longer exists here.`}
          </div>
        )}
      </div>
    )
  }

  const canMerge = changes.state === 'ready' || changes.state === 'merged'
  return (
    <div className="review-agent" data-testid="review-agent" data-state={changes.state}>
      {header}
      <div className="review-actions">
        <button
          className="btn btn-primary btn-sm"
          disabled={!canMerge || busy}
          title={canMerge ? undefined : STATE_TEXT.running}
          onClick={() => openDialog({ kind: 'merge', agentIds: [agentId], all: false })}
          data-testid="review-merge"
        >
          <Icon name="merge" size={13} /> {changes.state === 'merged' ? 'Clean up' : `Merge into ${into ?? 'the current branch'}…`}
        </button>
        <button
          className="btn btn-sm btn-danger-ghost"
          disabled={changes.state === 'running' || busy}
          onClick={() => openDialog({ kind: 'discard', agentId })}
          data-testid="review-discard"
        >
          <Icon name="trash" size={13} /> Discard…
        </button>
        {changes.worktreePath && (
          <button className="btn btn-sm" onClick={() => void openAgentFolder(agentId)} data-testid="review-open-folder">
            <Icon name="folder" size={13} /> Open folder
          </button>
        )}
        <span className="review-actions-summary small muted">{filesText(changes)}</span>
      </div>
      {folderNote && (
        <div className="review-note small" role="status" data-testid="review-folder-note">
          {folderNote}
        </div>
      )}
      <OutcomeNote />
      {changes.state !== 'ready' && <div className={`review-note small state-${changes.state}`}>{STATE_TEXT[changes.state]}</div>}
      <div className="review-agent-body">
        <aside className="review-side" aria-label="Files and commits">
          <h3 className="section-label review-side-title">
            Files <span className="muted">({changes.files.length})</span>
          </h3>
          {changes.files.length ? (
            <FileList agentId={agentId} files={changes.files} uncommitted={false} open={open} label="Changed files" />
          ) : (
            <p className="small muted review-side-empty">{changes.uncommitted.length ? 'Nothing committed yet.' : 'No files changed.'}</p>
          )}
          {changes.uncommitted.length > 0 && (
            <>
              <h3 className="section-label review-side-title">
                Not committed yet <span className="muted">({changes.uncommitted.length})</span>
              </h3>
              <FileList agentId={agentId} files={changes.uncommitted} uncommitted open={open} label="Changes not committed yet" />
            </>
          )}
          <h3 className="section-label review-side-title">
            Commits <span className="muted">({changes.commits.length})</span>
          </h3>
          {changes.commits.length ? (
            <ul className="review-commits" data-testid="review-commits">
              {changes.commits.map((c) => (
                <li key={c.sha} title={`${c.sha}\n${c.author}`}>
                  <code className="review-sha">{c.sha.slice(0, 7)}</code>
                  <span className="review-commit-subject">{c.subject}</span>
                  <span className="review-commit-time muted">
                    <RelativeTime ts={c.date} />
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="small muted review-side-empty">
              {changes.state === 'running' ? 'Its work is committed when it finishes.' : 'None beyond the current branch.'}
            </p>
          )}
          {changes.commits.length >= 200 && <p className="small muted">Showing the newest {plural(200, 'commit')}.</p>}
        </aside>
        <DiffPane />
      </div>
    </div>
  )
}

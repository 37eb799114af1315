// The Changes view: a session's agents that worked in worktrees on the left (the overview first), and on the
// right either every agent's changes with the conflict preview, or one agent's files, diff and commits. It
// reads the agents' branches again as they work (a file written, an agent ended) and after any merge or
// discard of this folder.
import { useEffect } from 'react'
import { useApp } from '../state/store'
import { Dialog } from '../views/dialog'
import { AgentChangesView } from './agent-changes'
import { ReviewNav } from './review-nav'
import { closeReview, refreshReview, useReview } from './review-store'
import { DiscardDialog, MergeDialog } from './review-dialogs'
import { SessionChangesView } from './session-changes'

/** Something about the session's worktree agents that changes what their branches hold. */
function useWorkSignal(sessionId: string | undefined): string {
  return useApp((s) => {
    const session = sessionId ? s.events.sessions[sessionId] : undefined
    if (!session) return ''
    return session.agentOrder
      .filter((id) => session.agents[id]?.worktree)
      .map((id) => {
        const a = session.agents[id]
        return `${id}:${a.status}:${a.toolUses}:${a.worktree?.commit ?? ''}:${a.worktree?.kept ?? ''}`
      })
      .join('|')
  })
}

export function ChangesDialog() {
  const view = useReview((s) => s.view)
  const dialog = useReview((s) => s.dialog)
  const signal = useWorkSignal(view?.sessionId)
  const title = useApp((s) => s.sessions.find((x) => x.sessionId === view?.sessionId)?.title)
  // Agents at work change their branches: read them again shortly after each tool call or status change.
  useEffect(() => {
    if (!signal) return
    const t = setTimeout(() => void refreshReview(), 400)
    return () => clearTimeout(t)
  }, [signal])
  if (!view) return null
  return (
    <>
      <Dialog title={title ? `Changes — ${title}` : 'Changes'} onClose={closeReview} className="review-dialog" testId="changes-dialog">
        <div className="review-layout">
          <ReviewNav />
          <div className="review-main">{view.selected ? <AgentChangesView key={view.selected} agentId={view.selected} /> : <SessionChangesView />}</div>
        </div>
      </Dialog>
      {dialog?.kind === 'merge' && <MergeDialog agentIds={dialog.agentIds} all={dialog.all} />}
      {dialog?.kind === 'discard' && <DiscardDialog agentId={dialog.agentId} />}
    </>
  )
}

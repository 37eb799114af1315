// "Open its worktree": an agent that worked in a worktree can be opened in a code editor, a terminal or the
// file manager — in the desktop app, where Fanout runs on the person's own machine, and only on their click.
// A page in a browser may be on another machine than the folder, and cannot start programs there: it
// shows the path to copy and says why.
import { useState } from 'react'
import { create } from 'zustand'
import type { OpenWith } from '../../../shared/review-contract'
import type { AgentState } from '../../../shared/view/session-state'
import { IconButton } from '../components/icon-button'
import { agentTask } from '../lib/agent-naming'
import { call, useApp } from '../state/store'
import { errorMessage } from '../transport/types'
import { Dialog } from './dialog'

/** True in the desktop app (its preload is there); browser mode talks over a WebSocket. */
const desktop = () => typeof window !== 'undefined' && !!(window as { fanout?: unknown }).fanout

const CHOICES: Array<{ with: OpenWith; label: string }> = [
  { with: 'editor', label: 'Open in editor' },
  { with: 'terminal', label: 'Open in terminal' },
  { with: 'files', label: 'Show in file manager' }
]

// Which agent's worktree the dialog shows: kept outside the button, whose tile or panel may go away while
// the dialog is open (the overview changes layout with the window's size).
const useShown = create<{ agent: { sessionId: string; agentId: string } | null }>(() => ({ agent: null }))
const close = () => useShown.setState({ agent: null })

export function OpenWorktreeButton({ agent }: { agent: AgentState }) {
  if (!agent.worktree || agent.worktree.kept === false) return null
  return (
    <IconButton
      icon="folder"
      title={`Open its worktree (${agent.worktree.path}) in an editor or a terminal`}
      aria-label={`Open the worktree of ${agentTask(agent)}`}
      onClick={(e) => {
        e.stopPropagation()
        useShown.setState({ agent: { sessionId: agent.sessionId, agentId: agent.id } })
      }}
      data-testid="open-worktree"
    />
  )
}

/** Mounted once by the app, beside its other dialogs. */
export function OpenWorktreeDialogs() {
  const shown = useShown((s) => s.agent)
  const agent = useApp((s) => (shown ? s.events.sessions[shown.sessionId]?.agents[shown.agentId] : undefined))
  if (!agent?.worktree) return null
  return <OpenWorktreeDialog agent={agent} onClose={close} />
}

function OpenWorktreeDialog({ agent, onClose }: { agent: AgentState; onClose(): void }) {
  const cwd = useApp((s) => s.sessions.find((x) => x.sessionId === agent.sessionId)?.cwd ?? s.workspace?.cwd)
  const [note, setNote] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)
  const path = agent.worktree!.path
  const run = async (using: OpenWith) => {
    if (!cwd) return
    setNote(null)
    try {
      const r = await call('review.openFolder', { cwd, agentId: agent.id, with: using })
      if (r.opened) onClose()
      else setNote(r.message ?? `It could not be opened. Its path is ${r.path}.`)
    } catch (err) {
      setNote(errorMessage(err))
    }
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(path)
      setCopied(true)
    } catch {
      // Without clipboard access the path stays selectable in its box.
      setNote('The clipboard is not available to this page; select the path and copy it.')
    }
  }
  return (
    <Dialog title="Open the worktree" onClose={onClose} testId="open-worktree-dialog">
      <p className="small muted">
        {agentTask(agent)} worked on <code>{agent.worktree!.branch}</code> in its own folder:
      </p>
      <div className="worktree-path-row">
        <input
          className="worktree-path"
          readOnly
          value={path}
          aria-label="Worktree folder"
          onFocus={(e) => e.currentTarget.select()}
          data-testid="worktree-path"
        />
        <button className="btn btn-sm" onClick={() => void copy()} data-testid="worktree-copy">
          {copied ? 'Copied' : 'Copy path'}
        </button>
      </div>
      {desktop() ? (
        <div className="worktree-open-choices">
          {CHOICES.map((c) => (
            <button key={c.with} className="btn btn-sm" onClick={() => void run(c.with)} data-testid={`worktree-open-${c.with}`}>
              {c.label}
            </button>
          ))}
        </div>
      ) : (
        <p className="small muted" data-testid="worktree-browser-note">
          This page runs in a browser, which cannot start programs on the machine that holds the folder (it may be another one than yours). Copy the path and
          open it there, or use the Fanout desktop app, which opens it in your editor or a terminal.
        </p>
      )}
      {note && (
        <p className="inline-error" role="alert" data-testid="worktree-open-note">
          {note}
        </p>
      )}
    </Dialog>
  )
}

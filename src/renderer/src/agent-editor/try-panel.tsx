// "Try it": run the definition on screen (saved or not) on a prompt and watch it in the same live panel
// sessions use. In a git repository it works in its own worktree; what it changed stays on a branch.
import { MESSAGE_MAX_CHARS } from '../../../shared/ipc-contract'
import { lengthVerdict } from '../lib/length-limit'
import { useState } from 'react'
import { Icon } from '../components/icon'
import { useTask } from '../lib/use-task'
import { openSession } from '../state/store'
import { AgentPanel } from '../views/agent-panel'
import { closeAgents } from './editor-library'
import { useAgentEditor } from './editor-store'
import { tryAgent } from './file-actions'

export function TryPanel({ file, canRun, isGitRepo }: { file: string; canRun: boolean; isGitRepo: boolean }) {
  const trying = useAgentEditor((s) => (s.trying?.file === file ? s.trying : null))
  const [prompt, setPrompt] = useState('')
  const { busy, error, run: act } = useTask()
  // The host takes a try's task up to the length of a message to an agent.
  const tooLong = lengthVerdict(prompt.length, MESSAGE_MAX_CHARS, 'This task')
  const run = async () => {
    if (!prompt.trim() || tooLong.over) return
    await act(() => tryAgent(prompt.trim()))
  }
  const finished = trying?.finished
  return (
    <section className="ae-card ae-try" data-testid="try-panel">
      <h3>
        <Icon name="play" size={12} /> Try it
      </h3>
      <p className="field-hint">
        Runs this definition as it is on screen{isGitRepo ? ', in its own git worktree' : ''}.{' '}
        {isGitRepo ? 'Your checkout is not touched.' : 'The folder is not a git repository: it works in the folder itself.'}
      </p>
      <textarea
        rows={2}
        value={prompt}
        placeholder="A task for this agent…"
        aria-label="A task for this agent to try"
        onChange={(e) => setPrompt(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void run()
        }}
        data-testid="try-prompt"
      />
      <div className="ae-try-actions">
        <button
          className="btn btn-sm btn-primary"
          disabled={!canRun || busy || !prompt.trim() || tooLong.over}
          onClick={() => void run()}
          data-testid="try-run"
        >
          <Icon name="play" size={11} /> Run
        </button>
        {!canRun && <span className="small warn-text">Fix the errors first: the agent does not load.</span>}
        {tooLong.text && <span className={tooLong.over ? 'inline-error small' : 'muted small'}>{tooLong.text}</span>}
        {error && <span className="inline-error small">{error}</span>}
      </div>
      {trying && (
        <div className="ae-try-run">
          {trying.run.worktree && (
            <div className="small muted ae-try-where" title={trying.run.worktree.path}>
              <Icon name="branch" size={12} /> {trying.run.worktree.branch}
            </div>
          )}
          {trying.run.note && <div className="small warn-text">{trying.run.note}</div>}
          <div className="ae-try-panel">
            <AgentPanel sessionId={trying.run.sessionId} agentId={trying.run.agentId} focused={false} />
          </div>
          {finished !== undefined && (
            <div className="small muted" data-testid="try-finished">
              {finished === null
                ? 'Finished.'
                : finished.changed
                  ? `Finished. Its changes are committed on ${finished.branch}${finished.commit ? ` (${finished.commit.slice(0, 8)})` : ''}, in ${finished.path}.`
                  : 'Finished without changing any file; its worktree was removed.'}
              {finished?.error && <span className="warn-text"> {finished.error}</span>}
            </div>
          )}
          <button
            className="btn-link small"
            onClick={() => {
              closeAgents()
              void openSession(trying.run.sessionId)
            }}
          >
            Open the whole session
          </button>
        </div>
      )}
    </section>
  )
}

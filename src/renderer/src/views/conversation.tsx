// The main agent's conversation: the transcript, waiting permission requests, and the prompt box
// (a follow-up when the agent is idle; a message to it while it works).
import { MESSAGE_MAX_CHARS, PROMPT_MAX_CHARS } from '../../../shared/ipc-contract'
import type { AgentStatus } from '../../../shared/events'
import { Icon } from '../components/icon'
import { LIMIT_LABEL } from '../components/status'
import { PermissionCard } from '../components/permission-card'
import { TranscriptList } from '../components/transcript-list'
import { elapsedMs, sessionCostUsd } from '../state/selectors'
import { formatClock, formatCost, plural } from '../lib/format'
import { isActive, type AgentState, type PermissionState } from '../../../shared/view/session-state'
import { agentCounts, cutOffWho, subagentsText } from '../state/agent-counts'
import { compactAgent, resumeInterrupted, sendMessage, sendPrompt, useApp } from '../state/store'
import { parseCompactCommand } from '../../../shared/compact-command'
import { answeredBuiltin } from '../../../shared/prompt-commands'
import { PromptBox } from './prompt-box'
import { RunningElsewhereBar, useRunningElsewhere } from './running-elsewhere'
import { useState } from 'react'
import { errorMessage } from '../transport/types'
import { useAction } from '../commands/registry'
import { ModelWait } from '../components/model-wait'
import { stopWithToast } from './stop-agent'
import { InlineError } from '../components/inline-error'

const ENDED: Partial<Record<AgentStatus, string>> = {
  completed: 'Finished in',
  stopped: 'Stopped in',
  max_turns: 'Stopped at the turn limit in',
  interrupted: 'Interrupted after'
}

// Narrow slices: the session object changes with every streamed delta, these do not.
function SessionSummary({ sessionId }: { sessionId: string }) {
  const root = useApp((s) => {
    const session = s.events.sessions[sessionId]
    return session?.rootAgentId ? session.agents[session.rootAgentId] : undefined
  })
  const counts = useApp((s) => agentCounts(s.events.sessions[sessionId]))
  const toolCount = useApp((s) => s.events.sessions[sessionId]?.toolCount ?? 0)
  const cost = useApp((s) => sessionCostUsd(s, sessionId))
  if (!root || root.endedAt === null) return null
  if (counts.active)
    return (
      <div className="session-summary status-running" data-testid="session-still-working">
        <Icon name="agents" size={14} />
        <span>The main agent finished its turn; {subagentsText(counts.active)} still working. It hears from them when they report.</span>
      </div>
    )
  // A runaway guard that ended the run names itself ("Budget reached after 3:02"), not a bare "Failed".
  const ended = root.limit ? `${LIMIT_LABEL[root.limit]} after` : (ENDED[root.status] ?? 'Failed in')
  return (
    <div className={`session-summary status-${root.status}`} data-testid="session-summary" title={root.limit ? root.error : undefined}>
      <Icon name={root.status === 'completed' ? 'check' : 'alert'} size={14} />
      <span>
        {ended} {formatClock(elapsedMs(root, root.endedAt))} · {subagentsText(counts.total)} · {plural(toolCount, 'tool call')} · {formatCost(cost)}
      </span>
    </div>
  )
}

/** Agents a crash or a kill cut off (the main agent among them or not): say so, and offer to resume them. */
function InterruptedBar({ sessionId }: { sessionId: string }) {
  // Counted as every other view counts: subagents apart from the main agent ("the main agent and 16 subagents").
  const subagents = useApp((s) => agentCounts(s.events.sessions[sessionId]).interrupted)
  const main = useApp((s) => {
    const session = s.events.sessions[sessionId]
    return !!session?.rootAgentId && session.agents[session.rootAgentId]?.status === 'interrupted'
  })
  const cutOff = subagents + (main ? 1 : 0)
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null })
  const resume = () => {
    setState({ busy: true, error: null })
    resumeInterrupted(sessionId).then(
      () => setState({ busy: false, error: null }),
      (err) => setState({ busy: false, error: errorMessage(err) })
    )
  }
  useAction({
    id: 'session.resume',
    title: 'Resume the agents Fanout’s stop cut off',
    group: 'Session',
    keywords: 'interrupted crash continue',
    enabled: cutOff > 0 && !state.busy,
    run: resume
  })
  if (!cutOff) return null
  return (
    <div className="bottom-bar-wrap">
      <div className="running-bar" data-testid="interrupted-bar">
        <span className="muted small">
          Fanout stopped while {cutOffWho(main, subagents)} {cutOff === 1 ? 'was' : 'were'} working. Resume to let {cutOff === 1 ? 'it' : 'them'} carry on where{' '}
          {cutOff === 1 ? 'it' : 'they'} left off.
        </span>
        <button className="btn btn-sm" onClick={resume} disabled={state.busy} data-testid="resume-interrupted">
          <Icon name="play" size={12} /> Resume
        </button>
      </div>
      <InlineError error={state.error} as="p" />
    </div>
  )
}

export function Conversation({ sessionId }: { sessionId: string }) {
  const rootId = useApp((s) => s.events.sessions[sessionId]?.rootAgentId ?? null)
  const root = useApp((s) => (rootId ? s.events.sessions[sessionId]?.agents[rootId] : undefined))
  const queue = useApp((s) => s.events.sessions[sessionId]?.permissionQueue)
  const permissions = useApp((s) => s.events.sessions[sessionId]?.permissions)
  const opening = useApp((s) => s.opening?.sessionId === sessionId)
  const openError = useApp((s) => s.openError)
  const [stopError, setStopError] = useState<string | null>(null)
  const elsewhere = useRunningElsewhere(sessionId)
  const running = !!root && isActive(root.status)
  const stop = () => rootId && stopWithToast(sessionId, rootId).catch((err) => setStopError(errorMessage(err)))
  // A session another process runs is read-only here: nothing to stop or write to.
  useAction({
    id: 'session.stop',
    title: 'Stop the main agent and its subagents',
    group: 'Session',
    keywords: 'halt cancel session',
    enabled: running && !elsewhere,
    run: stop
  })
  useAction({
    id: 'session.followup',
    title: running ? 'Write to the main agent while it works' : 'Follow up with the main agent',
    group: 'Session',
    keywords: 'prompt message reply answer',
    enabled: !!rootId && !elsewhere,
    run: () => document.querySelector<HTMLElement>('[data-testid=followup]')?.focus()
  })
  // Requests of the main agent itself show here; subagents' show on their panels and in the queue.
  const mine = (queue ?? []).map((id) => permissions![id]).filter((p) => p.requestingAgentId === rootId || p.agentId === rootId)

  if (openError && !rootId) return <div className="pane-message error">Could not open this session: {openError}</div>
  if (opening && !rootId) return <div className="pane-message muted">Loading the session…</div>

  return (
    <section className="conversation" aria-label="Conversation">
      {rootId ? (
        <TranscriptList sessionId={sessionId} agentId={rootId} footer={<SessionSummary sessionId={sessionId} />} />
      ) : (
        <div className="pane-message muted">Starting…</div>
      )}
      <div className="conversation-bottom">
        {elsewhere ? (
          <RunningElsewhereBar owner={elsewhere} />
        ) : (
          <ConversationControls sessionId={sessionId} rootId={rootId} root={root} running={running} mine={mine} stopError={stopError} onStop={stop} />
        )}
      </div>
    </section>
  )
}

/** What a person does with a session this window runs: answer its requests, stop it, resume it, prompt it. */
function ConversationControls({
  sessionId,
  rootId,
  root,
  running,
  mine,
  stopError,
  onStop
}: {
  sessionId: string
  rootId: string | null
  root: Pick<AgentState, 'waits'> | undefined
  running: boolean
  mine: PermissionState[]
  stopError: string | null
  onStop: () => unknown
}) {
  // The project whose prompt history and files the box offers: the session's folder.
  const project = useApp((s) => s.sessions.find((x) => x.sessionId === sessionId)?.cwd ?? s.workspace?.cwd)
  return (
    <>
      {mine.map((p) => (
        <PermissionCard key={p.requestId} request={p} />
      ))}
      {running && rootId && (
        <div className="bottom-bar-wrap">
          <div className="running-bar">
            {root && root.waits.at(-1)?.kind === 'model' && root.waits.at(-1)?.end === null ? (
              <ModelWait agent={root} className="small" />
            ) : (
              <span className="muted small">The main agent is working…</span>
            )}
            <button className="btn btn-sm" onClick={() => void onStop()} data-testid="stop-session">
              <Icon name="stop" size={12} /> Stop
            </button>
          </div>
          {/* Under the bar, full width: beside the button it squeezed the bar into a narrow column. */}
          {stopError && (
            <p className="inline-error" role="alert" data-testid="stop-error">
              {stopError}
            </p>
          )}
        </div>
      )}
      {!running && <InterruptedBar sessionId={sessionId} />}
      <PromptBox
        key={sessionId}
        draftKey={`followup:${sessionId}`}
        project={project}
        placeholder={
          running ? 'Message the main agent while it works… (/compact to compact its conversation)' : 'Follow up… (/compact to compact the conversation)'
        }
        testId="followup"
        maxChars={running ? MESSAGE_MAX_CHARS : PROMPT_MAX_CHARS}
        onSubmit={async (text) => {
          // `/compact [what to keep]` compacts the main agent instead of going to it as a prompt.
          const compact = parseCompactCommand(text)
          if (compact && rootId) await compactAgent(sessionId, rootId, compact.instructions)
          // `/cost`, `/context`… are answered by the host, also while the main agent works: never a message to it.
          else if (running && rootId && !answeredBuiltin(text)) await sendMessage(sessionId, rootId, text)
          else await sendPrompt(sessionId, text)
        }}
      />
    </>
  )
}

// The bar over a session: its title and status, live totals, and the permission queue button.
import { memo } from 'react'
import { CompactButton } from '../components/compact-button'
import { ContextMeter } from '../components/context-meter'
import { BudgetBar } from '../components/budget-bar'
import { Icon } from '../components/icon'
import { StatusBadge } from '../components/status'
import { endsOnQuestion } from '../../../shared/view/question'
import { formatClock, formatCost, formatTokens, firstLine, truncate } from '../lib/format'
import { useNow } from '../lib/use-now'
import { agentCounts, countParts, progressText } from '../state/agent-counts'
import { elapsedMs, pendingPermissions, sessionCostUsd } from '../state/selectors'
import { isActive } from '../../../shared/view/session-state'
import { cachedShare, usageBreakdown } from '../../../shared/usage'
import { closeReplay, startReplay, useReplaying } from '../state/replay-store'
import { openSearch } from '../state/search-store'
import { ui, useApp } from '../state/store'
import { SessionChangesButton } from '../review/changes-button'
import { useAction } from '../commands/registry'
import { UsageButton } from './usage-table'

function PermissionsButtonView() {
  const count = useApp((s) => pendingPermissions(s.events, s.replayingSessionId).length)
  return (
    <button
      className={`icon-button permissions-button${count ? ' has-items' : ''}`}
      onClick={() => ui.setDialog('permissions')}
      title="Permission requests"
      aria-label={count ? `Permissions, ${count} waiting` : 'Permissions'}
      data-testid="permissions-button"
    >
      <Icon name="shield" />
      <span className="permissions-label">Permissions</span>
      {count > 0 && (
        <span className="badge" data-testid="permissions-badge">
          {count}
        </span>
      )}
    </button>
  )
}
// Drawn again only when its own props or store reads change, not with every render of what holds it: at a fan-out's start, the parents draw again at each agent's arrival.
export const PermissionsButton = memo(PermissionsButtonView)

function SearchButtonView() {
  useAction({ id: 'search.session', title: 'Search this session', group: 'Session', keywords: 'find transcript tool output', run: () => openSearch('session') })
  return (
    <button
      className="icon-button"
      onClick={() => openSearch('session')}
      title="Search this session: every agent's transcript, tool inputs and outputs"
      aria-label="Search this session"
      data-testid="search-session-button"
    >
      <Icon name="search" />
      <span>Search</span>
    </button>
  )
}
const SearchButton = memo(SearchButtonView)

/** Replay: scrub the session's timeline and see it as it was; only once nothing in it is working. */
function ReplayButtonView({ sessionId, working }: { sessionId: string; working: boolean }) {
  const replaying = useReplaying(sessionId)
  useAction({
    id: 'session.replay',
    title: replaying ? 'Leave the replay' : 'Replay this session',
    group: 'Session',
    keywords: 'timeline scrub play history',
    enabled: replaying || !working,
    run: () => (replaying ? closeReplay() : void startReplay(sessionId))
  })
  return (
    <button
      className={`icon-button${replaying ? ' active' : ''}`}
      onClick={() => (replaying ? closeReplay() : void startReplay(sessionId))}
      disabled={working && !replaying}
      aria-pressed={replaying}
      aria-label="Replay"
      title={
        replaying
          ? 'Leave the replay: the session as it is now'
          : working
            ? 'Replay is for a session whose agents have finished'
            : 'Replay this session: scrub its timeline, play it at 1×–20×'
      }
      data-testid="replay-button"
    >
      <Icon name="replay" />
      <span>Replay</span>
    </button>
  )
}
const ReplayButton = memo(ReplayButtonView)

export function SessionHeader({ sessionId }: { sessionId: string | null }) {
  const summary = useApp((s) => s.sessions.find((x) => x.sessionId === sessionId))
  // Narrow slices: the session object changes with every streamed delta, these do not.
  const root = useApp((s) => {
    const session = sessionId ? s.events.sessions[sessionId] : undefined
    return session?.rootAgentId ? session.agents[session.rootAgentId] : undefined
  })
  const counts = useApp((s) => (sessionId && s.events.sessions[sessionId] ? agentCounts(s.events.sessions[sessionId]) : null))
  const usage = useApp((s) => (sessionId ? s.events.sessions[sessionId]?.usage : undefined))
  const cost = useApp((s) => sessionCostUsd(s, sessionId))
  // The main agent may end its turn while background agents or a team still work: the session is running.
  const othersWorking = !!counts && counts.active > 0
  const now = useNow(!!root && (root.endedAt === null || othersWorking))
  const title = summary?.title || (root ? truncate(firstLine(root.prompt || root.description), 90) : sessionId ? 'Session' : 'New session')
  const tokens = usage ? usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens : 0
  const cached = usage ? cachedShare(usage) : null
  const breakdown = usage ? `All agents: ${usageBreakdown(usage)}` : 'Tokens, all agents'
  return (
    <header className="session-header">
      <div className="session-header-title">
        <span className="session-header-name" title={title} data-testid="session-title">
          {title}
        </span>
        {summary?.demo && (
          <span className="tag tag-accent" title="This session runs a scripted model: no API key, no network">
            scripted demo
          </span>
        )}
        {root && (othersWorking && !isActive(root.status) ? <StatusBadge status="running" /> : <StatusBadge status={root.status} limit={root.limit} />)}
        {/* Ended on a question with nothing else at work: the session waits on the person's answer. */}
        {root && root.status === 'completed' && !othersWorking && endsOnQuestion(root.result) && (
          <button
            type="button"
            className="tag tag-warn header-question"
            title="The main agent ended its turn with a question for you: answer in the prompt box"
            onClick={() => document.querySelector<HTMLElement>('[data-testid=followup]')?.focus()}
            data-testid="header-question"
          >
            Asks you
          </button>
        )}
      </div>
      {root && (
        <div className="session-header-stats">
          <span title="Elapsed">
            <Icon name="clock" size={13} /> {formatClock(elapsedMs(root, now))}
          </span>
          {counts && counts.total > 0 && (
            <span
              title={`Subagents: ${countParts(counts)
                .map((p) => p.text)
                .join(', ')}`}
            >
              <Icon name="agents" size={13} />{' '}
              <span className="header-count-long" data-testid="header-agent-count">
                {progressText(counts)}
              </span>
              {/* A narrow header: "3/16" (working of all), the words in the tooltip. */}
              <span className="header-count-short" aria-hidden="true">
                {counts.active > 0 ? `${counts.active}/${counts.total}` : counts.total}
              </span>
            </span>
          )}
          <span className="session-header-tokens" title={breakdown}>
            {formatTokens(tokens)} tok
          </span>
          {cached !== null && (
            <span
              className="session-header-cached"
              title={`${breakdown}\nRead from the prompt cache: ${Math.round(cached * 100)}% of the input`}
              data-testid="session-cached"
            >
              {Math.round(cached * 100)}% cached
            </span>
          )}
          {sessionId ? (
            <UsageButton sessionId={sessionId} cost={formatCost(cost)} title={breakdown} />
          ) : (
            <span title={breakdown} data-testid="session-cost">
              {formatCost(cost)}
            </span>
          )}
          {sessionId && <BudgetBar sessionId={sessionId} agentId={root.id} />}
          {root.context && (
            <span className="header-context" data-testid="header-context">
              <span className="header-context-label">Main agent</span>
              <ContextMeter context={root.context} />
              {root.context.tokens !== null && sessionId && <CompactButton sessionId={sessionId} agentId={root.id} compacting={root.context.compacting} />}
            </span>
          )}
        </div>
      )}
      <div className="session-header-actions">
        {sessionId && <SessionChangesButton sessionId={sessionId} />}
        {sessionId && <SearchButton />}
        {sessionId && root && <ReplayButton sessionId={sessionId} working={isActive(root.status) || othersWorking} />}
        <PermissionsButton />
      </div>
    </header>
  )
}

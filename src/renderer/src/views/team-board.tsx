// The team board: the session's agent team at a glance — its members (what each works on), the shared task
// list in three columns, open requests and the messages among members — all live from the team events.
import { memo } from 'react'
import type { MemberStatus, TeamMember, TeamSnapshot, TeamTask } from '../../../shared/team'
import { Icon } from '../components/icon'
import { useAgentColor } from '../lib/use-agent-color'
import { formatTime } from '../lib/format'
import { isBlocked, memberWork, taskColumns } from '../state/phase-selectors'
import type { TeamMessage } from '../../../shared/view/session-state'
import { ui, useApp } from '../state/store'

const MEMBER_STATUS: Record<MemberStatus, string> = { starting: 'Starting', working: 'Working', idle: 'Idle', shutdown: 'Shut down', failed: 'Failed' }
const COLUMNS: Array<[keyof ReturnType<typeof taskColumns>, string]> = [
  ['pending', 'Pending'],
  ['in_progress', 'In progress'],
  ['completed', 'Completed']
]

function MemberCard({ team, member }: { team: TeamSnapshot; member: TeamMember }) {
  const { current, completed } = memberWork(team, member.name)
  const color = useAgentColor(member.color, member.agentType)
  return (
    <button
      className="member-card"
      style={color}
      onClick={() => ui.focusAgent(member.agentId)}
      title="Show its panel"
      data-testid="team-member"
      data-status={member.status}
    >
      <span className="member-bar" />
      <span className="member-head">
        <span className="member-name">{member.name}</span>
        <span className={`member-status member-${member.status}`}>{MEMBER_STATUS[member.status]}</span>
      </span>
      <span className="member-type muted small">
        {member.agentType}
        {member.model ? ` · ${member.model}` : ''}
      </span>
      <span className="member-task small">{current ? `#${current.id} ${current.subject}` : <span className="muted">no task in hand</span>}</span>
      <span className="member-foot muted small">
        <span className="member-done">{completed} done</span>
        {member.branch && (
          <span className="member-branch" title={member.branch}>
            <Icon name="branch" size={11} /> {member.branch}
          </span>
        )}
      </span>
    </button>
  )
}

function TaskCard({ team, task }: { team: TeamSnapshot; task: TeamTask }) {
  const blocked = isBlocked(team, task)
  return (
    <div
      className={`task-card task-${task.status}${blocked ? ' blocked' : ''}`}
      data-testid="team-task"
      data-status={task.status}
      title={task.description || task.subject}
    >
      <div className="task-title">
        <span className="task-id">#{task.id}</span> {task.subject}
      </div>
      <div className="task-meta small">
        {task.owner ? <span className="task-owner">{task.owner}</span> : <span className="muted">unclaimed</span>}
        {blocked && (
          <span className="tag tag-warn">
            waits for {task.blockedBy.filter((id) => team.tasks.find((t) => t.id === id)?.status !== 'completed').join(', ')}
          </span>
        )}
      </div>
      {task.result && <div className="task-result muted small">{task.result}</div>}
    </div>
  )
}

const MessageRow = memo(function MessageRow({ m }: { m: TeamMessage }) {
  return (
    <li className="team-message" data-testid="team-message">
      <span className="muted small">{formatTime(m.ts)}</span>
      <span className="team-message-route small">
        <b>{m.from}</b> → <b>{m.to}</b>
      </span>
      <span className="team-message-text small" title={m.text}>
        {m.summary ? <span className="team-message-summary">{m.summary}: </span> : null}
        {m.text}
      </span>
    </li>
  )
})

export function TeamBoard({ sessionId }: { sessionId: string }) {
  const team = useApp((s) => s.events.sessions[sessionId]?.team)
  const messages = useApp((s) => s.events.sessions[sessionId]?.teamMessages)
  if (!team) return <div className="pane-message muted">No agent team in this session.</div>
  const cols = taskColumns(team)
  const open = team.requests.filter((r) => r.status === 'pending')
  const done = cols.completed.length
  return (
    <div className="team-board" data-testid="team-board">
      <header className="team-head">
        <Icon name="agents" />
        <span className="team-name">{team.name}</span>
        {team.description && <span className="muted">{team.description}</span>}
        {team.status === 'deleted' && <span className="tag">ended</span>}
        <span className="team-progress small muted" data-testid="team-progress">
          {done} of {team.tasks.length} tasks done
        </span>
      </header>
      <section className="team-members" aria-label="Members">
        {team.members.map((m) => (
          <MemberCard key={m.name} team={team} member={m} />
        ))}
      </section>
      <section className="team-tasks" aria-label="Tasks">
        {COLUMNS.map(([status, label]) => (
          <div key={status} className="task-column" data-testid={`task-column-${status}`}>
            <h3>
              {label} <span className="count">{cols[status].length}</span>
            </h3>
            <div className="task-list">
              {cols[status].map((t) => (
                <TaskCard key={t.id} team={team} task={t} />
              ))}
            </div>
          </div>
        ))}
      </section>
      <section className="team-messages" aria-label="Messages">
        <h3>
          Messages <span className="count">{messages?.length ?? 0}</span>
          {open.length > 0 && <span className="tag tag-warn">{open.length} waiting for an answer</span>}
        </h3>
        {open.map((r) => (
          <div key={r.id} className="team-request small" data-testid="team-request">
            <b>{r.type === 'shutdown' ? 'Shutdown request' : 'Plan for approval'}</b> from {r.from} to {r.to}: <span className="muted">{r.content}</span>
          </div>
        ))}
        <ol className="team-message-list">
          {[...(messages ?? [])].reverse().map((m) => (
            <MessageRow key={m.key} m={m} />
          ))}
        </ol>
      </section>
    </div>
  )
}

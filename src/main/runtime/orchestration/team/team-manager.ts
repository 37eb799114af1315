// A session's agent team: one at a time, led by the main agent, its members in-process agents of the
// session. The team's state lives in its durable log (team-board.ts); this class connects it to the
// session — it starts the members, keeps their status in the log as their runs start and end, sends
// requests and answers as messages, and emits a `team` event with the whole team after every change.
import { randomBytes } from 'node:crypto'
import type { AgentEvent } from '../../../../shared/events'
import type { TeamMember, TeamRequest, TeamRequestType, TeamSnapshot } from '../../../../shared/team'
import type { HookRunner } from '../../hooks/runner'
import type { ToolResult } from '../../tools/define-tool'
import type { AgentHandle } from '../runs/agent-registry'
import { sendMessage, type MessagingHost } from '../messaging/send-message'
import { planMember, recordMemberLaunch, startMember, type MemberInput, type MemberPlan } from './spawn-member'
import { TeamBoard } from './team-board'
import type { OpOutcome } from './team-fold'
import { LEAD, type TeamOpInput } from './team-ops'
import type { SubagentRunHost } from '../runs/agent-run'
import type { SessionContext } from '../types'

/** What the team needs from its session: members' plans and runs, their messages, ids, events and hooks. */
export interface TeamHost
  extends SubagentRunHost,
    MessagingHost,
    Pick<SessionContext, 'definitions' | 'aliases' | 'tools' | 'newAgentId' | 'bus' | 'extensions'> {}

export interface CreateTeamInput {
  team_name: string
  description?: string
  members: MemberInput[]
  tasks?: Array<{ subject: string; description?: string; blockedBy?: string[] }>
}

const refuse = (content: string): ToolResult => ({ content, isError: true })
const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, ' ')

export class TeamManager {
  readonly board: TeamBoard
  private team: TeamSnapshot | null = null
  /** Member status writes, in the order their events happened. */
  private statusWrites: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly s: TeamHost,
    file: string
  ) {
    this.board = new TeamBoard(file, { onChange: () => this.changed(), onProblem: (p) => s.onError(new Error(p)) })
    s.bus.subscribe((e) => this.onEvent(e))
  }

  /** Reads the team log (after a restart, the team as it was). */
  load(): Promise<void> {
    return this.board.refresh()
  }

  get hooks(): HookRunner | undefined {
    return this.s.extensions.hooks
  }

  /** Whether this session has had a team (its log holds one, active or deleted). */
  get everCreated(): boolean {
    return this.team !== null
  }

  /** The active team, if any. */
  active(): TeamSnapshot | null {
    return this.team?.status === 'active' ? this.team : null
  }

  memberOf(handle: AgentHandle): TeamMember | undefined {
    return this.active()?.members.find((m) => m.agentId === handle.id)
  }

  /** `lead` for the main agent, a member's name, or null for an agent outside the team. */
  actorOf(handle: AgentHandle): string | null {
    if (handle.id === this.s.mainAgentId) return LEAD
    return this.memberOf(handle)?.name ?? null
  }

  /** Records one operation, reading everything others wrote first. */
  run(op: TeamOpInput): Promise<OpOutcome> {
    return this.board.run(op)
  }

  async create(lead: AgentHandle, input: CreateTeamInput, toolUseId: string): Promise<ToolResult> {
    if (lead.id !== this.s.mainAgentId) return refuse('Only the main agent leads a team; members and subagents cannot create one (teams do not nest).')
    await this.board.refresh()
    const existing = this.active()
    if (existing)
      return refuse(
        `This session already has a team, '${existing.name}' (${existing.members.map((m) => m.name).join(', ')}). Give it more tasks or message its members; delete it with TeamDelete once they have stopped.`
      )
    const plans: MemberPlan[] = []
    const problems: string[] = []
    for (const m of input.members) {
      const plan = planMember(this.s, lead, m)
      if (typeof plan === 'string') problems.push(plan)
      else plans.push(plan)
    }
    if (problems.length) return refuse(`The team was not created:\n- ${problems.join('\n- ')}`)
    const refusal = this.s.gate.refusal(lead.depth + 1)
    if (refusal) return refuse(refusal)
    const left = this.s.gate.limits.maxAgentsPerSession - this.s.gate.totalSpawned
    if (plans.length > left) return refuse(`The team was not created: it needs ${plans.length} agents, and this session may start only ${left} more.`)

    const ids = plans.map(() => this.s.newAgentId())
    // One write: the team, its members with their tasks, and its first tasks. A crash after it leaves the whole
    // team on disk, and a member not yet recorded as launched is started on resume (recordUnlaunched).
    const made = await this.run({
      op: 'team_create',
      actor: LEAD,
      name: input.team_name,
      description: input.description ?? '',
      leadAgentId: lead.id,
      members: plans.map((p, i) => ({
        name: p.input.name,
        agentId: ids[i],
        agentType: p.def.agentType,
        model: p.model,
        ...(p.def.color ? { color: p.def.color } : {}),
        prompt: p.input.prompt
      })),
      tasks: (input.tasks ?? []).map((t) => ({ subject: t.subject, description: t.description ?? '', blockedBy: t.blockedBy ?? [] })),
      toolUseId
    })
    if (!made.ok) return refuse(made.error)
    const taskLines = (input.tasks ?? []).map((t, i) => {
      const out = made.tasks?.[i]
      return out?.ok
        ? `- ${out.taskId}: ${t.subject}${t.blockedBy?.length ? ` (after ${t.blockedBy.join(', ')})` : ''}`
        : `- not created: "${t.subject}": ${out?.ok === false ? out.error : 'not recorded'}`
    })
    const started = await Promise.all(plans.map((p, i) => startMember(this.s, { lead, plan: p, agentId: ids[i], teamName: input.team_name, toolUseId })))
    const memberLines = started.map((h) => `- ${h.name}: ${h.agentType} agent ${h.id}, model ${h.model}${h.isolation ? ', in its own git worktree' : ''}`)
    return {
      content: `Team "${input.team_name}" is working.
Members:
${memberLines.join('\n')}
${taskLines.length ? `Tasks:\n${taskLines.join('\n')}\n` : 'The task list is empty: add tasks with TaskCreate.\n'}
Members claim tasks from the shared list and report to you as a <task-notification> each time they go idle. Follow progress with TaskList, steer a member with SendMessage (to its name), and when the work is done ask each member to shut down (RequestShutdown), then TeamDelete.`,
      details: { team: input.team_name, members: started.map((h) => ({ name: h.name, agentId: h.id, agentType: h.agentType })) }
    }
  }

  /**
   * Members the team log lists that were never recorded as launched (`known`: the agents with a state file): a
   * crash came between TeamCreate's write and their launch records. Recorded as launched now, from the task the
   * log keeps, so the resume that follows starts them. Their names, for the person.
   */
  async recordUnlaunched(known: ReadonlySet<string>): Promise<string[]> {
    await this.board.refresh()
    const team = this.active()
    const lead = team ? this.s.registry.get(team.leadAgentId) : undefined
    if (!team || !lead) return []
    const done: string[] = []
    for (const m of team.members) {
      const launch = this.board.launchOf(m.agentId)
      if (known.has(m.agentId) || !launch) continue
      const plan = planMember(this.s, lead, { name: m.name, agent_type: m.agentType, prompt: launch.prompt, ...(m.model ? { model: m.model } : {}) })
      if (typeof plan === 'string') {
        this.s.onError(new Error(`Team member ${m.name} could not be started again: ${plan}`))
        continue
      }
      await recordMemberLaunch(this.s, { lead, plan, agentId: m.agentId, teamName: team.name, toolUseId: launch.toolUseId ?? '' })
      done.push(m.name)
    }
    return done
  }

  /** Sends a shutdown or plan-approval request as a message and records it. */
  async request(from: AgentHandle, type: TeamRequestType, to: string, content: string): Promise<ToolResult> {
    const actor = this.actorOf(from)
    if (!actor) return refuse('You are not in a team.')
    const requestId = `${type === 'shutdown' ? 'shutdown' : 'plan'}-${randomBytes(3).toString('hex')}`
    const out = await this.run({ op: 'request', actor, requestId, type, to, content })
    if (!out.ok) return refuse(out.error)
    const how = type === 'shutdown' ? 'Finish or release your current task, then answer' : 'Read the plan and answer'
    const text = `<team-request id="${requestId}" type="${type}" from="${attr(actor)}">\n${content}\n</team-request>\n${how} with RespondToRequest (request_id: "${requestId}", approve: true or false, and a response if you have one).`
    await this.deliver(from, to, text, `${type === 'shutdown' ? 'shutdown request' : 'plan for approval'} ${requestId}`)
    return {
      content: `Sent ${type === 'shutdown' ? 'the shutdown request' : 'your plan'} to ${to === LEAD ? 'the lead' : to} (request ${requestId}). ${type === 'plan_approval' ? 'End your turn now: the answer arrives as a message and you continue from it.' : 'Its answer arrives as a message.'}`,
      details: { requestId, type, to }
    }
  }

  async respond(from: AgentHandle, requestId: string, approve: boolean, response?: string): Promise<ToolResult> {
    const actor = this.actorOf(from)
    if (!actor) return refuse('You are not in a team.')
    const out = await this.run({ op: 'respond', actor, requestId, approve, ...(response ? { response } : {}) })
    if (!out.ok) return refuse(out.error)
    const r = this.team?.requests.find((x) => x.id === requestId) as TeamRequest
    const verdict = approve ? 'approved' : 'rejected'
    const next =
      r.type === 'plan_approval'
        ? approve
          ? 'Go ahead with the plan.'
          : 'Revise the plan with this feedback and send it again with RequestPlanApproval.'
        : approve
          ? `${actor} agreed to shut down.`
          : `${actor} declined to shut down.`
    const text = `<team-response request="${requestId}" type="${r.type}" approved="${approve}" from="${attr(actor)}">\n${response ?? ''}\n</team-response>\n${next}`
    await this.deliver(from, r.from, text, `${r.type === 'shutdown' ? 'shutdown' : 'plan'} ${verdict}`)
    const mine =
      r.type === 'shutdown' && approve
        ? 'You are shut down: end your turn now with a one-line goodbye, and do no further work.'
        : `Answered ${requestId}: ${verdict}.`
    return { content: mine, details: { requestId, approved: approve } }
  }

  private async deliver(from: AgentHandle, to: string, text: string, summary: string): Promise<void> {
    const target = to === LEAD ? this.s.mainAgentId : (this.team?.members.find((m) => m.name === to)?.agentId ?? to)
    await sendMessage(this.s, target, text, from.id, summary)
  }

  private changed(): void {
    this.team = this.board.snapshot()
    if (!this.team) return
    const lead = this.s.registry.get(this.team.leadAgentId)
    this.s.emit({
      agentId: this.team.leadAgentId,
      parentAgentId: lead?.parentId ?? null,
      parentToolUseId: lead?.parentToolUseId ?? null,
      sessionId: this.s.sessionId,
      ts: Date.now(),
      type: 'team',
      team: structuredClone(this.team)
    })
  }

  /** Keeps each member's status in the log: working while it runs, idle (or failed) after. */
  private onEvent(e: AgentEvent): void {
    if (e.type !== 'agent_start' && e.type !== 'agent_end') return
    const m = this.active()?.members.find((x) => x.agentId === e.agentId)
    if (!m) return
    const op: TeamOpInput =
      e.type === 'agent_start'
        ? { op: 'member', actor: m.name, name: m.name, status: 'working', ...(e.worktree ? { branch: e.worktree.branch } : {}) }
        : { op: 'member', actor: m.name, name: m.name, status: e.status === 'failed' ? 'failed' : 'idle' }
    this.statusWrites = this.statusWrites
      .then(() => this.run(op))
      .catch((err: Error) => this.s.onError(new Error(`Could not record the status of team member ${m.name}: ${err.message}`)))
  }

  /** Waits for member status writes still on their way to the log. */
  async flush(): Promise<void> {
    await this.statusWrites
  }
}

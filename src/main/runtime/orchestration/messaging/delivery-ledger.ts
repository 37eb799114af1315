// What a reopened session still owes its agents, read from their transcripts, so a crash neither loses
// nor repeats anything:
// - deliveries an agent received (`message_received`) that no written turn consumed (`message.deliveries`):
//   they go back into its inbox, in order, and reach it at its next turn;
// - reports a run recorded in its agent_end that no agent received: delivered once, now;
// - the tool calls a crash cut off, each answered with what is known of it: its result if it finished (the
//   tool_end is there, only the turn that carries it was not written), its subagent's report, a message
//   delivered, a permission refused or never given, a Write or Edit done or not (as its file tells), a team
//   or task change made or not (as the team log tells), an agent stopped or not (as its transcript tells),
//   or that it may have partly run.
import type { AgentEndEvent, AgentEvent, AgentStartEvent, ReportIntent } from '../../../../shared/events'
import type { RecordedEvent } from '../../store'
import type { InboxItem } from '../../loop/types'
import { personDenied } from '../../tool-call/verdict'
import { formatAgentReport } from '../runs/report'
import type { AgentHandle } from '../runs/agent-registry'
import { AGENT_TOOL_NAME } from '../spawn/agent-tool-name'
import { SEND_MESSAGE_TOOL_NAME, sendDeliveryId } from './agent-message'
import { cutOffFileCall } from '../../tools/cut-off-file-calls'
import { LOGGED_TEAM_TOOLS } from '../team/cut-off-team-call'
import { TASK_STOP_TOOL_NAME } from '../tools/task-tools'

/** What an agent's transcript says is waiting for it: deliveries received and not consumed, in order. */
export function pendingDeliveries(events: readonly AgentEvent[]): { inbox: InboxItem[]; received: Set<string> } {
  const received = new Set<string>()
  const consumed = new Set<string>()
  for (const e of events) if (e.type === 'message' && e.message.role === 'user') for (const id of e.deliveries ?? []) consumed.add(id)
  const inbox: InboxItem[] = []
  for (const [i, e] of events.entries()) {
    if (e.type !== 'message_received') continue
    if (e.deliveryId) {
      if (received.has(e.deliveryId)) continue
      received.add(e.deliveryId)
      if (!consumed.has(e.deliveryId)) inbox.push({ text: e.text, deliveryId: e.deliveryId })
    } else if (!laterUserText(events, i, e.text)) {
      // Written before deliveries had ids: consumed when a later user message holds its text.
      inbox.push({ text: e.text })
    }
  }
  return { inbox, received }
}

function laterUserText(events: readonly AgentEvent[], from: number, text: string): boolean {
  for (let i = from + 1; i < events.length; i++) {
    const e = events[i]
    if (e.type !== 'message' || e.message.role !== 'user') continue
    const content = e.message.content
    if (typeof content === 'string' ? content === text : content.some((b) => b.type === 'text' && b.text === text)) return true
  }
  return false
}

interface ChildRun {
  start: AgentStartEvent
  end: AgentEndEvent | null
}

export interface OwedReport {
  /** The agent whose run owes it. */
  from: string
  report: ReportIntent
}

export class DeliveryLedger {
  /** Every delivery id some agent received. */
  readonly received = new Set<string>()
  /** Reports recorded and received by nobody, oldest first. */
  readonly owedReports: OwedReport[] = []
  /** The subagent run each Agent call started (by the call's tool_use id). */
  private readonly childRuns = new Map<string, ChildRun>()
  /** Each agent's last run, by its id and by its name (what TaskStop may name it by). */
  private readonly lastRuns = new Map<string, ChildRun>()
  /** Agents with deliveries waiting (received, not consumed). */
  readonly waiting = new Set<string>()
  /** Background agents launched and not started (their state says queued), by the launching call's id. */
  private readonly launched = new Map<string, { agentId: string; agentType: string; restartable: boolean }>()
  /** How the team log answers a team tool's cut-off call (set once the session has read its team log). */
  teamCall?: (name: string, toolUseId: string) => { content: string; isError: boolean } | undefined

  /** Notes the background agents a crash caught before they started (from their state files). */
  addLaunched(states: ReadonlyArray<{ agentId: string; agentType: string; status: string; parentToolUseId?: string | null; prompt?: string }>): void {
    for (const st of states)
      if (st.status === 'queued' && st.parentToolUseId && !this.childRuns.has(st.parentToolUseId))
        this.launched.set(st.parentToolUseId, { agentId: st.agentId, agentType: st.agentType, restartable: st.prompt !== undefined })
  }

  static empty(): DeliveryLedger {
    return new DeliveryLedger()
  }

  static fromTranscripts(agents: Record<string, { events: readonly RecordedEvent[] }>): DeliveryLedger {
    const ledger = new DeliveryLedger()
    const reports: Array<OwedReport & { seq: number }> = []
    for (const [agentId, { events }] of Object.entries(agents)) {
      let run: ChildRun | null = null
      for (const e of events) {
        if (e.type === 'message_received' && e.deliveryId) ledger.received.add(e.deliveryId)
        else if (e.type === 'agent_start') {
          run = { start: e, end: null }
          // The run the call itself started: a later run under the same call (a resume after a crash)
          // reports by notification, so the call's answer stays what that first run came to.
          if (e.parentToolUseId && !ledger.childRuns.has(e.parentToolUseId)) ledger.childRuns.set(e.parentToolUseId, run)
          ledger.lastRuns.set(agentId, run)
          if (e.name) ledger.lastRuns.set(e.name, run)
        } else if (e.type === 'agent_end') {
          if (run) run.end = e
          if (e.report) reports.push({ from: agentId, report: e.report, seq: e.seq })
        }
      }
      if (pendingDeliveries(events).inbox.length) ledger.waiting.add(agentId)
    }
    for (const r of reports.sort((a, b) => a.seq - b.seq))
      if (!ledger.received.has(r.report.deliveryId)) ledger.owedReports.push({ from: r.from, report: r.report })
    return ledger
  }

  /**
   * How each call of this agent that a crash cut off is answered (see rebuildConversation's
   * interruptedResult), from its own events and what the other transcripts say.
   */
  interruptedResult(events: readonly AgentEvent[]): (call: { id: string; name: string }) => { content: string; isError: boolean } | undefined {
    const ran = new Set<string>()
    // Each call's input and the folder its tools ran in (its run's agent_start), for the calls whose file tells what they did.
    const runs = new Map<string, { input: unknown; cwd: string | null }>()
    let cwd: string | null = null
    const ended = new Map<string, { output: string; isError: boolean }>()
    const asked = new Map<string, string>() // toolUseId -> requestId
    const answered = new Map<string, { decision: string; feedback?: string }>() // requestId -> the person's answer
    for (const e of events) {
      if (e.type === 'agent_start') cwd = e.cwd
      else if (e.type === 'tool_run') {
        ran.add(e.toolUseId)
        runs.set(e.toolUseId, { input: e.input, cwd })
      } else if (e.type === 'tool_end') ended.set(e.toolUseId, { output: e.output, isError: e.isError })
      else if (e.type === 'permission_request' && e.toolUseId) asked.set(e.toolUseId, e.requestId)
      else if (e.type === 'permission_response') answered.set(e.requestId, { decision: e.decision, ...(e.feedback ? { feedback: e.feedback } : {}) })
    }
    return ({ id, name }) => {
      const tool = name || 'The tool'
      const done = ended.get(id)
      // It finished: only the turn that would have carried its result was not written.
      if (done) return { content: done.output, isError: done.isError }
      if (name === AGENT_TOOL_NAME && ran.has(id)) {
        const child = this.childRuns.get(id)
        if (child) return this.childResult(child)
        const queued = this.launched.get(id)
        if (queued)
          return {
            content: queued.restartable
              ? `The ${queued.agentType} agent ${queued.agentId} was launched in the background and had not started when Fanout stopped (it was closed or crashed). It starts when the interrupted agents are resumed, and its report reaches you as a <task-notification>. Do not start it again.`
              : `The ${queued.agentType} agent ${queued.agentId} was launched in the background and had not started when Fanout stopped (it was closed or crashed); nothing of it ran. Start it again if the work is still needed.`,
            isError: !queued.restartable
          }
        // It was still waiting for a slot: no agent_start was written, so nothing of it ran.
        return {
          content: `The subagent this call was to start had not started when Fanout stopped (it was closed or crashed); nothing of it ran. Call ${AGENT_TOOL_NAME} again if the work is still needed.`,
          isError: true
        }
      }
      if (name === SEND_MESSAGE_TOOL_NAME && this.received.has(sendDeliveryId(id)))
        return { content: 'The message was delivered before Fanout stopped (it was closed or crashed); it was not sent again.', isError: false }
      const request = asked.get(id)
      if (request) {
        const answer = answered.get(request)
        if (answer?.decision === 'deny') return { content: personDenied(tool, answer.feedback, ' (before Fanout restarted)'), isError: true }
        if (!answer)
          return {
            content: `${tool} was waiting for the user's approval when Fanout stopped (it was closed or crashed), so it did not run. Call it again if it is still needed; the user will be asked again.`,
            isError: true
          }
      }
      if (!ran.has(id))
        return {
          content: `${tool} did not run: Fanout stopped (it was closed or crashed) before it started. Run it again if it is still needed.`,
          isError: true
        }
      // TeamCreate, TaskCreate, TaskClaim…: the team log tells whether it took effect (team/cut-off-team-call.ts).
      const logged = LOGGED_TEAM_TOOLS.has(name) ? this.teamCall?.(name, id) : undefined
      if (logged) return logged
      if (name === TASK_STOP_TOOL_NAME) {
        const stopped = this.cutOffStop(runs.get(id)?.input)
        if (stopped) return stopped
      }
      // A Write or Edit: its file tells whether its change is there (tools/cut-off-file-calls.ts).
      const cut = runs.get(id)
      const told = cut?.cwd ? cutOffFileCall(name, cut.cwd, cut.input) : undefined
      if (told) return told
      return {
        content: `${tool} was running when Fanout stopped (it was closed or crashed) and did not finish: it may have done part of its work. Check what it changed before running it again.`,
        isError: true
      }
    }
  }

  /**
   * A TaskStop a crash cut off, told by its agent's transcript: the agent's run ended (stopped, or finished on its
   * own), or it was cut off with the rest, still running, and is restarted like them: then the stop did not
   * happen, and the model is told so rather than left to take "may have done part of its work" for a stop.
   */
  private cutOffStop(input: unknown): { content: string; isError: boolean } | undefined {
    const { agentId, task_id: taskId } = (input ?? {}) as { agentId?: unknown; task_id?: unknown }
    const target = typeof agentId === 'string' ? agentId : typeof taskId === 'string' ? taskId : undefined
    const run = target === undefined ? undefined : this.lastRuns.get(target)
    if (!run) return undefined
    const who = `agent ${run.start.agentId}`
    if (run.end && run.end.status !== 'interrupted')
      return {
        content: `TaskStop had finished when Fanout stopped (it was closed or crashed): ${who} is not running (its run ended: ${run.end.status}). Only this call's result was lost.`,
        isError: false
      }
    return {
      content: `TaskStop did not finish: Fanout stopped (it was closed or crashed) before ${who} stopped. It was cut off with the other running agents: when the interrupted agents are resumed it goes on, and its report reaches you as a <task-notification>. Call TaskStop again if it is still to be stopped.`,
      isError: true
    }
  }

  /** What the parent's Agent call answers for a child a crash caught: its report if it finished, else where it stands. */
  private childResult({ start, end }: ChildRun): { content: string; isError: boolean } {
    if (end && end.status !== 'interrupted') {
      const who = { id: start.agentId, agentType: start.agentType, ...(start.name ? { name: start.name } : {}) } as AgentHandle
      const r = formatAgentReport(who, { ...end, messages: [], model: start.model, stopReason: null, ...(end.worktree ? { worktree: end.worktree } : {}) })
      return { content: r.content, isError: r.isError === true }
    }
    return {
      content: `The ${start.agentType} agent ${start.agentId} that this call started was cut off when Fanout stopped (it was closed or crashed), before it reported. When the interrupted agents are resumed it goes on in the background, and its report reaches you as a <task-notification>; until then it is not running. Do not start it again.`,
      isError: true
    }
  }
}

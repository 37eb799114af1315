// Reopening a recorded session after a restart: what its transcripts say is still owed, the main agent's
// conversation (and coordinator mode, effort, inbox) as it was left, the subagents a crash cut off, the
// team, and the reports owed to agents. The session calls restoreAgents once, right after its first reload;
// resumeAgents when the person (or the CLI) asks for the cut-off agents to go on.
import { listAgentStates, loadAgentForResume, type OpenedSession } from '../../store'
import { SentHistory } from '../../model/request-invariants'
import { COORDINATOR_AGENT_TYPE } from '../coordinator/coordinator-prompt'
import { DeliveryLedger, pendingDeliveries } from '../messaging/delivery-ledger'
import { cutOffTeamCall } from '../team/cut-off-team-call'
import { recordDecided, RESUME_AFTER_RESTART_NOTE, resumeInterrupted, taskOf, type ResumeReport } from '../runs/resume'
import type { AgentServices } from './agent-services'
import type { SessionSettings } from './session-settings'
import { existsSync } from 'node:fs'
import { errorMessage } from '../../../../shared/error-message'

/** What the person is told about the reopened session: notes, and of those the ones to show wherever they look. */
export interface RestoreNotes {
  notes: string[]
  warnings: string[]
  /**
   * Why the main agent's conversation is lost (its transcript deleted, empty or unreadable while the session
   * says it ran turns): resuming it would start afresh under the old session's id, so the caller refuses.
   */
  lostHistory?: string
}

export async function restoreAgents(
  services: AgentServices,
  settings: Pick<SessionSettings, 'restoredEffort' | 'applyEffort'>,
  opened: OpenedSession,
  where: { dataDir: string; cwd: string }
): Promise<RestoreNotes> {
  const { sessionId, mainAgentId } = services
  const notes: string[] = []
  const warnings: string[] = []
  // What the transcripts say is still owed: deliveries not consumed, reports not received, calls cut off.
  const ledger = DeliveryLedger.fromTranscripts(opened.agents)
  ledger.addLaunched((await listAgentStates(where.dataDir, sessionId)).states)
  services.ledger = ledger
  // The team as it was, read first: a team tool's call the crash cut off is answered from its log.
  await services.team.load()
  ledger.teamCall = (name, id) => cutOffTeamCall(name, services.team.board.callOf(id), services.team.board.snapshot())
  let unreadable = ''
  const main = await loadAgentForResume(where.dataDir, sessionId, mainAgentId, {
    sessionCwd: where.cwd,
    interruptedResult: (events) => ledger.interruptedResult(events)
  }).catch((err: unknown) => {
    unreadable = errorMessage(err)
    return null
  })
  // The session (its index, or the main agent's state) says the main agent ran turns, yet no conversation came back.
  const ranTurns = Math.max(opened.index.agents[mainAgentId]?.turnCount ?? 0, main?.state?.turnCount ?? 0)
  const lostHistory =
    ranTurns > 0 && !main
      ? `the main agent's transcript could not be read (${unreadable}), though the session says it ran ${ranTurns} turn${ranTurns === 1 ? '' : 's'}`
      : ranTurns > 0 && main && !main.messages.length
        ? `the main agent's transcript (${main.transcriptFile}) ${existsSync(main.transcriptFile) ? 'holds no conversation' : 'is missing'}, though the session says it ran ${ranTurns} turn${ranTurns === 1 ? '' : 's'}`
        : undefined
  if (lostHistory) warnings.push(`This session cannot be resumed: ${lostHistory}.`)
  // A crash cut the main agent off: it is idle now, and says so until it runs again.
  const cutOff = opened.interrupted.some((e) => e.agentId === mainAgentId)
  if (main) {
    notes.push(...main.notes.filter((n) => !n.includes('has no saved state')))
    // A broken state file costs nothing (the history comes from the transcript), but the person is told.
    warnings.push(...main.notes.filter((n) => n.includes('could not be used')))
    let agentType = main.state && main.state.definition.name !== 'main' ? main.state.definition.name : undefined
    if (agentType === COORDINATOR_AGENT_TYPE) {
      services.enableCoordinator()
      agentType = undefined
    }
    // A main agent whose last run failed stays failed (its Retry is offered) until it runs again.
    const ended = cutOff ? 'interrupted' : main.state?.status === 'failed' ? 'failed' : 'completed'
    // The answers decided now for calls a crash cut off are recorded (once), and the record adds them.
    const recorded = main.messages.slice(0, main.messages.length - main.decided.length)
    services.main.restore(recorded, agentType, ended)
    // What it was sent before the restart: its next request extends that, never rewrites it.
    if (main.asRecorded) services.main.getHandle().sentHistory = new SentHistory(recorded)
    recordDecided(services, services.main.getHandle(), main.decided)
    // The effort chosen when the session began (not its definition's own, which applies anyway).
    if (main.state?.effort !== undefined && !main.state.definition.file) {
      settings.restoredEffort = main.state.effort
      settings.applyEffort()
    }
    services.coordinator?.restore(main.messages)
    // Deliveries it received and no written turn consumed reach it at its next turn, once, in order.
    const { inbox, received } = pendingDeliveries(main.events)
    const handle = services.main.getHandle()
    handle.inbox.push(...inbox)
    for (const id of received) handle.received.add(id)
    // Cut off before its first turn was written: the person's prompt is what it starts again from.
    if (!main.messages.length) Object.assign(handle, taskOf(main.state, main.events))
  } else if (cutOff) services.main.restore([], undefined, 'interrupted')
  services.dormant.cutOff = Object.values(opened.index.agents).filter((a) => a.status === 'interrupted' && a.agentId !== mainAgentId)
  await services.delivery.deliverOwed(ledger.owedReports, opened.index, (id) => services.findAgent(id))
  return { notes, warnings, ...(lostHistory ? { lostHistory } : {}) }
}

/** Restarts the agents a crash or quit cut off and those with deliveries waiting; the main agent last. */
export async function resumeAgents(services: AgentServices & { dataDir: string }): Promise<ResumeReport> {
  const { delivery, mainAgentId } = services
  // Team members a crash caught between TeamCreate's write and their launch records start below like any launched agent.
  const { states } = await listAgentStates(services.dataDir, services.sessionId)
  await services.team.recordUnlaunched(new Set(states.map((s) => s.agentId)))
  const report = await resumeInterrupted(services, (done) => {
    // Built now, after every agent this restart could restart was started: it says where each one stands.
    services.dormant.noteRestart(done)
    const cutOff = services.dormant.takeCutOffNote()
    const main = services.main.getHandle()
    if (main.task !== undefined && !main.messages.length) delivery.deliver(main, main.task, { from: 'user', wake: false, deliveryId: `task-${main.id}` })
    main.task = undefined
    delivery.deliver(main, cutOff ? `${RESUME_AFTER_RESTART_NOTE}\n\n${cutOff}` : RESUME_AFTER_RESTART_NOTE, { from: 'fanout' })
  })
  services.dormant.noteRestart(report)
  // Deliveries waiting for the main agent (a report, a message) wake it, as they would have before the crash.
  if (!report.resumed.includes(mainAgentId) && services.main.getHandle().inbox.length) {
    services.main.wake()
    report.resumed.unshift(mainAgentId)
  }
  return report
}

// The sessions slice of the host's handler table (session-contract.ts): the workspace, the session list
// (session-calls.ts) and running sessions (session-runs.ts). The dispatcher finds a call by its entry here.
import type { CallHandler, CallHandlers } from '../../../shared/call-handlers'
import type { ShellCallName } from '../../../shared/ipc-contract'
import type { SessionCallName } from '../../../shared/session-contract'
import type { ReplayCalls } from './replay-calls'
import type { SearchCalls } from './search-calls'
import type { SessionCalls } from './session-calls'
import type { SessionRuns } from './session-runs'

export interface SessionHandlerParts {
  /** The host's folder: it alone knows and changes it. */
  workspace: { get: CallHandler<'workspace.get'>; open: CallHandler<'workspace.open'> }
  sessions: SessionCalls
  runs: SessionRuns
  search: SearchCalls
  replay: ReplayCalls
}

export function sessionHandlers({ workspace, sessions, runs, search, replay }: SessionHandlerParts): CallHandlers<Exclude<SessionCallName, ShellCallName>> {
  return {
    'workspace.get': workspace.get,
    'workspace.open': workspace.open,
    'sessions.list': sessions.list,
    'sessions.open': sessions.open,
    'sessions.page': sessions.page,
    'sessions.rename': async (req) => {
      const renamed = await sessions.rename(req)
      await search.service.retitle(req.sessionId).catch(() => undefined)
      return renamed
    },
    'sessions.delete': async (req) => {
      // Its index files are closed before its folder goes (a folder with an open file cannot move on Windows);
      // if the delete is refused, the index catches up again when next asked.
      search.service.forget(req.sessionId)
      replay.forget(req.sessionId)
      return sessions.delete(req)
    },
    'session.start': runs.start,
    'session.sendPrompt': runs.sendPrompt,
    'session.resumeInterrupted': runs.resumeInterrupted,
    'agent.stop': runs.stopAgent,
    'agent.retry': runs.retryAgent,
    'agent.sendMessage': runs.sendMessage,
    'agent.compact': runs.compactAgent,
    'permission.respond': runs.respondPermission,
    'demo.start': runs.startDemo
  }
}

// The agent editor's slice of the host's handler table (agent-editor-contract.ts): the editor service
// (src/main/runtime/agent-editor) for the files, session-runs.ts for Try it.
import type { AgentEditorCallName } from '../../../shared/agent-editor-contract'
import type { CallHandlers } from '../../../shared/call-handlers'
import type { AgentEditorService } from '../agent-editor'
import type { SessionRuns } from './session-runs'
import type { AgentFolders } from './agent-folders'

export function agentEditorHandlers(editor: AgentEditorService, runs: SessionRuns, folders: Pick<AgentFolders, 'history'>): CallHandlers<AgentEditorCallName> {
  return {
    'agents.history': folders.history,
    'agents.library': async (req) => ({ library: await editor.library(req) }),
    'agents.open': async (req) => ({ document: await editor.open(req) }),
    'agents.analyze': async (req) => ({ analysis: editor.analyze(req) }),
    'agents.edit': async (req) => editor.edit(req),
    'agents.repair': async (req) => editor.repair(req),
    'agents.save': async (req) => ({ result: await editor.save(req) }),
    'agents.create': (req) => editor.create(req),
    'agents.duplicate': (req) => editor.duplicate(req),
    'agents.rename': (req) => editor.rename(req),
    'agents.move': (req) => editor.move(req),
    'agents.delete': (req) => editor.delete(req),
    /** Try it: the editor's draft run as the main agent of a new session (session-runs.ts, try-run.ts). */
    'agents.try': runs.tryAgent
  }
}

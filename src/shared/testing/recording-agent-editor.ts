// The agent editor's calls for the recording host: each records its request and answers with a valid,
// minimal response (an empty library, an analysis of nothing, a save that succeeds), so adapter tests can
// drive every call of the contract.
import type { AgentAnalysis } from '../agent-editor'
import type { AgentEditorHost } from '../agent-editor-host'
import { HostCallError } from '../ipc-dispatch'

const VERSION = { mtimeMs: 0, size: 0, hash: '0'.repeat(64) }

const analysis = (file: string, text: string): AgentAnalysis => ({
  file,
  source: 'project',
  loaded: false,
  diagnostics: [],
  fields: {},
  keySpans: {},
  unknownKeys: [],
  rawOnlyKeys: [],
  formEditable: false,
  formBlocked: 'The recording host does not read agent files.',
  body: text,
  bodyLine: 1
})

export function recordingAgentEditor(record: (method: string, request: unknown) => void): AgentEditorHost {
  return {
    async agentLibrary(req) {
      record('agentLibrary', req)
      return { library: { cwd: req.cwd, entries: [], folderDiagnostics: [], listing: '', dirs: { user: '/home/user/.claude/agents', project: `${req.cwd}/.claude/agents` }, templates: [], availableTools: [] } }
    },
    async openAgentFile(req) {
      record('openAgentFile', req)
      throw new HostCallError('not_found', `${req.file} does not exist.`)
    },
    async analyzeAgent(req) {
      record('analyzeAgent', req)
      return { analysis: analysis(req.file, req.text) }
    },
    async editAgent(req) {
      record('editAgent', req)
      return { text: req.text, analysis: analysis(req.file, req.text) }
    },
    async repairAgent(req) {
      record('repairAgent', req)
      return { text: req.text, changes: [], analysis: analysis(req.file, req.text) }
    },
    async saveAgent(req) {
      record('saveAgent', req)
      return { result: { saved: true, version: VERSION, analysis: analysis(req.file, req.text) } }
    },
    async createAgent(req) {
      record('createAgent', req)
      return { file: `${req.cwd}/.claude/agents/${req.name}.md` }
    },
    async duplicateAgent(req) {
      record('duplicateAgent', req)
      return { file: req.file.replace(/\.md$/, '-copy.md') }
    },
    async renameAgent(req) {
      record('renameAgent', req)
      return { file: req.file.replace(/[^/]+\.md$/, `${req.name}.md`), version: VERSION }
    },
    async moveAgent(req) {
      record('moveAgent', req)
      return { file: req.file }
    },
    async deleteAgent(req) {
      record('deleteAgent', req)
      return {}
    },
    async tryAgent(req) {
      record('tryAgent', req)
      return { run: { sessionId: 'try-1', agentId: 'main-try-1' } }
    }
  }
}

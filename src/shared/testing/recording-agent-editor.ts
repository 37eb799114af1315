// The agent editor's calls for the recording host: each records its request and answers with a valid,
// minimal response (an empty library, an analysis of nothing, a save that succeeds), so adapter tests can
// drive every call of the contract.
import type { AgentAnalysis } from '../agent-editor'
import type { CallHandlers } from '../call-handlers'
import type { AgentEditorCallName } from '../agent-editor-contract'
import { HostCallError } from '../host-call-error'

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

export function recordingAgentEditor(record: (call: string, request: unknown) => void): CallHandlers<AgentEditorCallName> {
  return {
    async 'agents.history'(req) {
      record('agents.history', req)
      return { stats: null }
    },
    async 'agents.library'(req) {
      record('agents.library', req)
      return {
        library: {
          cwd: req.cwd,
          entries: [],
          folderDiagnostics: [],
          listing: '',
          dirs: { user: '/home/user/.claude/agents', project: `${req.cwd}/.claude/agents` },
          templates: [],
          availableTools: []
        }
      }
    },
    async 'agents.open'(req) {
      record('agents.open', req)
      throw new HostCallError('not_found', `${req.file} does not exist.`)
    },
    async 'agents.analyze'(req) {
      record('agents.analyze', req)
      return { analysis: analysis(req.file, req.text) }
    },
    async 'agents.edit'(req) {
      record('agents.edit', req)
      return { text: req.text, analysis: analysis(req.file, req.text) }
    },
    async 'agents.repair'(req) {
      record('agents.repair', req)
      return { text: req.text, changes: [], analysis: analysis(req.file, req.text) }
    },
    async 'agents.save'(req) {
      record('agents.save', req)
      return { result: { saved: true, version: VERSION, analysis: analysis(req.file, req.text) } }
    },
    async 'agents.create'(req) {
      record('agents.create', req)
      return { file: `${req.cwd}/.claude/agents/${req.name}.md` }
    },
    async 'agents.duplicate'(req) {
      record('agents.duplicate', req)
      return { file: req.file.replace(/\.md$/, '-copy.md') }
    },
    async 'agents.rename'(req) {
      record('agents.rename', req)
      return { file: req.file.replace(/[^/]+\.md$/, `${req.name}.md`), version: VERSION }
    },
    async 'agents.move'(req) {
      record('agents.move', req)
      return { file: req.file }
    },
    async 'agents.delete'(req) {
      record('agents.delete', req)
      return {}
    },
    async 'agents.try'(req) {
      record('agents.try', req)
      return { run: { sessionId: 'try-1', agentId: 'main-try-1' } }
    }
  }
}

// The agent editor's methods on RuntimeHost, one per call of AGENT_EDITOR_CALLS (host.ts extends this).
import type { AGENT_EDITOR_CALLS } from './agent-editor-channels'
import type { CallResponse, ParsedRequest } from './ipc-contract'

type Call<K extends keyof typeof AGENT_EDITOR_CALLS> = (request: ParsedRequest<K>) => Promise<CallResponse<K>>

export interface AgentEditorHost {
  agentLibrary: Call<'agents.library'>
  openAgentFile: Call<'agents.open'>
  analyzeAgent: Call<'agents.analyze'>
  editAgent: Call<'agents.edit'>
  repairAgent: Call<'agents.repair'>
  saveAgent: Call<'agents.save'>
  createAgent: Call<'agents.create'>
  duplicateAgent: Call<'agents.duplicate'>
  renameAgent: Call<'agents.rename'>
  moveAgent: Call<'agents.move'>
  deleteAgent: Call<'agents.delete'>
  tryAgent: Call<'agents.try'>
}

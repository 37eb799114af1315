// The scripted Messages API server and its script helpers (tests, the benchmark and the app's demo mode).
export { startScriptedServer, type ScriptedModelInfo, type ScriptedServer, type ScriptedServerOptions } from './server'
export { block, reply } from './reply'
export {
  byAttempt,
  LEAD_AGENT,
  matches,
  relayFirstLine,
  scriptByAgent,
  scriptLead,
  scriptedSummary,
  scriptTurns,
  textOf,
  type AgentScript,
  type Matcher,
  type Turn
} from './scenario'
export { estimateTokens, requestTokens, CLEARED_RESULT_TEXT } from './usage'
export { startScriptedModel, type ScriptedModel } from './fixture'
export { parseRequest, validateMessagesBody } from './parse-request'
export { requestLogViolations } from './request-log'
export type * from './types'

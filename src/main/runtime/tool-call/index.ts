// The tool-call pipeline: every tool call of every agent goes through these steps, in this order, each answering
// one CallVerdict (verdict.ts; not the person's answer, which is shared/permission-answer.ts):
//   1 validate     validate.ts      the tool exists for the agent, the input is JSON and the tool accepts it
//   2 hooks        pre-hooks.ts     PreToolUse: deny, allow (deny rules still bind), ask, or a changed input
//   3 rules        gate.ts → permissions/decide.ts   deny, ask and allow rules of the settings and the session
//   4 mode         gate.ts → permissions/decide.ts   default, acceptEdits, plan, dontAsk, bypassPermissions
//   5 ask          gate.ts, person-queue.ts          a PermissionRequest hook, else the person (with words for the
//                                                    agent), else headless: a denial saying how to allow it
//   6 sandbox      gate.ts → permissions/decide.ts   which OS sandbox an allowed Bash call runs in
//   7 execute      execute.ts       the tool runs; a throw becomes the model's error
//   8 post-hooks   post-hooks.ts    PostToolUse / PostToolUseFailure
//   9 record       record.ts        redacted, capped, one tool_end
// pipeline.ts runs them for one call; loop/run-tools.ts runs a message's calls (batches, stops).
export { beforeToolCall, preToolUse } from './pre-hooks'
export {
  createPermissionGate,
  type AskFn,
  type AskHook,
  type AskHookAnswer,
  type PermissionGate,
  type PermissionGateOptions,
  type PermissionRequest
} from './gate'
export { headlessPermissions, type AgentPermissionTarget, type HeadlessPermissionsOptions } from './headless'
export { PersonQueue, type AskingAgent, type PersonQueueOptions } from './person-queue'
export { postToolHooks } from './post-hooks'
export { invokeTool, runTool } from './execute'
export { personAllowedNote, personDenied, personSaid, type AfterToolCall, type BeforeToolCall, type CallVerdict, type FinalVerdict } from './verdict'

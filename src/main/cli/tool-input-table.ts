// Run by the CLI's build only (scripts/build.mjs), never by the CLI: the JSON schema of every tool input the
// built-in and session tools declare (tools/define-tool.ts toolInput), which the build puts in the bundle so
// that `fanout run` sends its tools without building their zod schemas (runtime/tools/input-json.ts).
// Importing the modules declares their inputs; an input left out here is converted from zod at its first use.
import '../runtime/tools/registry'
import '../runtime/orchestration/spawn/agent-tool'
import '../runtime/orchestration/messaging/send-message'
import '../runtime/orchestration/tools/task-tools'
import '../runtime/orchestration/tools/request-merge-tool'
import '../runtime/orchestration/tools/skill-tool'
import { declaredToolInputs, toJsonSchema } from '../runtime/tools/define-tool'

export function toolInputTable(): Record<string, Record<string, unknown>> {
  return Object.fromEntries([...declaredToolInputs()].map(([key, make]) => [key, toJsonSchema(make())]))
}

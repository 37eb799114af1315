// TaskOutput and TaskStop (Claude Code's names): how an agent checks on a background agent it started, or
// stops it. Background agents report by themselves when they finish; these are for when the caller needs a
// result now or changed its mind.
import { z } from 'zod'
import { lastAssistantText } from '../../loop'
import { defineTool, type Tool, toolInput } from '../../tools/define-tool'
import type { AgentHandle, AgentRegistry } from '../runs/agent-registry'
import { formatAgentReport } from '../runs/report'

export const TASK_OUTPUT_TOOL_NAME = 'TaskOutput'
export const TASK_STOP_TOOL_NAME = 'TaskStop'
const DEFAULT_WAIT_MS = 30_000
const MAX_WAIT_MS = 600_000

export interface TaskToolsHost {
  registry: AgentRegistry
  /** The last part of a background agent's output log, if it has one. */
  outputTail(handle: AgentHandle): string | undefined
  /** A wait on other agents: the calling agent's slot is theirs meanwhile (see SlotLease). */
  aside<T>(wait: Promise<T>): Promise<T>
}

const target = () => ({
  agentId: z.string().trim().min(1).optional().describe('Id (or name) of the agent, as returned when it was launched'),
  task_id: z.string().trim().min(1).optional().describe('Same as agentId (Claude Code name)')
})
const needsId = (v: { agentId?: string; task_id?: string }) => Boolean(v.agentId ?? v.task_id)
const idMissing = { message: 'give agentId: the id returned when the agent was launched' }

const taskOutputInput = toolInput('TaskOutput', () =>
  z
    .object({
      ...target(),
      block: z.boolean().optional().describe('Wait for the agent to finish (default true)'),
      timeout: z
        .number()
        .int()
        .min(0)
        .max(MAX_WAIT_MS)
        .optional()
        .describe(`Most milliseconds to wait when block is true (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS})`)
    })
    .strict()
    .refine(needsId, idMissing)
)

const taskStopInput = toolInput('TaskStop', () => z.object(target()).strict().refine(needsId, idMissing))

function find(host: TaskToolsHost, id: string): AgentHandle | undefined {
  return host.registry.find(id)
}

const unknown = (id: string) => ({ content: `There is no agent '${id}' in this session. Use the agentId returned when the agent was launched.`, isError: true })

function progress(host: TaskToolsHost, handle: AgentHandle): string {
  const text = host.outputTail(handle) ?? lastAssistantText(handle.messages)
  return text.trim() ? `Its output so far (the latest part):\n${text.trim()}` : 'It has produced no output yet.'
}

export function createTaskOutputTool(host: TaskToolsHost): Tool {
  return defineTool({
    name: TASK_OUTPUT_TOOL_NAME,
    description: `Get the status and output of a background agent (one started with run_in_background). By default waits up to ${DEFAULT_WAIT_MS / 1000} s for it to finish; block: false returns at once. You are notified when a background agent finishes anyway, so call this only when you need its result now.`,
    schema: taskOutputInput,
    readOnly: true,
    concurrencySafe: true,
    maxOutputChars: 100_000,
    async execute(input, ctx) {
      const id = (input.agentId ?? input.task_id) as string
      const handle = find(host, id)
      if (!handle) return unknown(id)
      const started = Date.now()
      if (handle.run && input.block !== false) {
        let timer: ReturnType<typeof setTimeout> | undefined
        let onAbort: (() => void) | undefined
        await host.aside(
          Promise.race([
            handle.run,
            new Promise<void>((resolve) => {
              timer = setTimeout(resolve, input.timeout ?? DEFAULT_WAIT_MS)
              onAbort = resolve
              ctx.signal.addEventListener('abort', onAbort, { once: true })
            })
          ])
        )
        clearTimeout(timer)
        if (onAbort) ctx.signal.removeEventListener('abort', onAbort)
      }
      const details = { agentId: handle.id, status: handle.status, ...(handle.outputFile ? { outputFile: handle.outputFile } : {}) }
      if (handle.run || !handle.lastResult) {
        const waited = input.block !== false ? ` (waited ${Math.round((Date.now() - started) / 1000)} s)` : ''
        return {
          content: `Agent ${handle.id} is still ${handle.status === 'queued' ? 'queued' : 'running'}${waited}; ${handle.turnCount} turns so far. ${progress(host, handle)}`,
          details
        }
      }
      const report = formatAgentReport(handle, handle.lastResult)
      return { content: `Agent ${handle.id} has finished (status: ${handle.lastResult.status}).\n\n${report.content}`, details }
    }
  })
}

export function createTaskStopTool(host: TaskToolsHost): Tool {
  return defineTool({
    name: TASK_STOP_TOOL_NAME,
    description: 'Stop a running background agent (and any agent it started). You get its output so far; no notification follows.',
    schema: taskStopInput,
    readOnly: false,
    concurrencySafe: true,
    async execute(input) {
      const id = (input.agentId ?? input.task_id) as string
      const handle = find(host, id)
      if (!handle) return unknown(id)
      if (!handle.run)
        return {
          content: `Agent ${handle.id} is not running (status: ${handle.status}); there is nothing to stop.`,
          details: { agentId: handle.id, status: handle.status }
        }
      handle.quiet = true
      const run = handle.run
      host.registry.stop(handle.id, false)
      await host.aside(run)
      return { content: `Stopped agent ${handle.id}. ${progress(host, handle)}`, details: { agentId: handle.id, status: handle.status } }
    }
  })
}

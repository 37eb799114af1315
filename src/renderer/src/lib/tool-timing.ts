// A tool call's time as the person reads it. A call's duration runs from its hand-off, which includes waiting
// for the person's permission (a Bash call that ran for 7 s after waiting 50 s read "57 s") and what came
// before the question (hooks, the sandbox's first start: a 0.4 s command read "1.3 s"). The runtime records
// the tool's own run (runMs) and that is its time; for calls recorded before it did, the wait known from the
// call's permission requests is taken out of the duration.
import type { PermissionState, ToolCall } from '../../../shared/view/session-state'
import { formatDuration } from './format'

type Permissions = Record<string, PermissionState>

const waitsByPermissions = new WeakMap<Permissions, ReadonlyMap<string, number>>()

/** How long each tool call waited for answers to its permission requests, by tool use id (answered ones only). */
export function permissionWaits(permissions: Permissions): ReadonlyMap<string, number> {
  let waits = waitsByPermissions.get(permissions)
  if (!waits) {
    const out = new Map<string, number>()
    for (const p of Object.values(permissions)) {
      if (!p.toolUseId || p.respondedAt === undefined) continue
      out.set(p.toolUseId, (out.get(p.toolUseId) ?? 0) + Math.max(0, p.respondedAt - p.ts))
    }
    waits = out
    waitsByPermissions.set(permissions, waits)
  }
  return waits
}

export interface ToolTiming {
  /** Time the tool itself ran; undefined until it ends. */
  runMs?: number
  /** Time spent waiting for the person's permission. */
  waitMs: number
}

export function toolTiming(tool: Pick<ToolCall, 'durationMs' | 'runMs'>, waitMs = 0): ToolTiming {
  if (tool.durationMs === undefined) return { waitMs }
  const wait = Math.min(waitMs, tool.durationMs)
  return { runMs: tool.runMs ?? tool.durationMs - wait, waitMs: wait }
}

/** A wait shorter than this is not worth a mention (an answer given at once). */
const NOTABLE_WAIT_MS = 1000

/** "7.0 s", or with a notable wait "7.0 s, after 50 s waiting for you": for the row's detail and tooltip. */
export function timingText({ runMs, waitMs }: ToolTiming): string {
  const run = formatDuration(runMs)
  if (!run || waitMs < NOTABLE_WAIT_MS) return run
  return `${run}, after ${formatDuration(waitMs)} waiting for you`
}

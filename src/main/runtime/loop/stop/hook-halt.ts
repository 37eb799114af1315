// A hook's `"continue": false`: the run ends after the turn's tools, completed (Claude Code's hook_stopped).
import type { StopCondition } from './stop-condition'

export function hookHalt(halted: (() => { event: string; reason: string } | null) | undefined): StopCondition {
  return {
    name: 'hook_halt',
    at: 'tools',
    check: () => {
      const halt = halted?.()
      return halt ? { message: halt.reason, hook: { event: halt.event } } : null
    }
  }
}

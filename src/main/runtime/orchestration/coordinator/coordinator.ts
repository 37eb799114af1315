// Coordinator mode: the phase the coordinator is in, the SetPhase tool that changes it (and emits a `phase`
// event, so the UI can show the phase and group agents by it), and the one rule the runtime enforces on top
// of the prompt: in the implementation phase, agents the coordinator starts work in their own worktree.
import { z } from 'zod'
import { COORDINATOR_PHASES, type CoordinatorPhase } from '../../../../shared/team'
import type { AgentEvent, ChatMessage } from '../../../../shared/events'
import { defineTool, type Tool, type ToolContext, type ToolResult } from '../../tools/define-tool'
import { probeGit } from '../../worktrees'
import type { AgentHandle } from '../runs/agent-registry'
import type { AgentToolInput } from '../spawn/agent-tool'
import { SET_PHASE_TOOL_NAME } from './coordinator-prompt'

const PURPOSE: Record<CoordinatorPhase, string> = {
  research: 'Start Explore agents in parallel, one question each.',
  synthesis: 'Turn the findings into a plan (yourself, or with a Plan agent).',
  implementation: 'Start named general-purpose workers, one per independent unit, in one message; each gets its own git worktree.',
  verification: "Start a verifier to run the tests and checks on each worker's branch; continue a worker with SendMessage to fix what fails."
}

type Spawn = (input: AgentToolInput, ctx: ToolContext) => Promise<ToolResult>

export class Coordinator {
  phase: CoordinatorPhase | null = null
  private git: Promise<boolean> | null = null

  constructor(private readonly s: { cwd: string; sessionId: string; emit(event: AgentEvent): void }) {}

  setPhaseTool(coordinator: AgentHandle): Tool {
    return defineTool({
      name: SET_PHASE_TOOL_NAME,
      description: `Say which phase of the work you are entering: ${COORDINATOR_PHASES.join(', ')}. Call it before starting the phase's agents; the person sees the phase, and the agents you start are grouped under it.`,
      schema: z
        .object({ phase: z.enum(COORDINATOR_PHASES), note: z.string().trim().max(500).optional().describe('One line on what this phase is for in this task') })
        .strict(),
      readOnly: false,
      // Never runs alongside the Agent calls of the same message: it must take effect before them.
      concurrencySafe: false,
      execute: async (input) => {
        const previous = this.phase
        this.phase = input.phase
        this.s.emit({
          agentId: coordinator.id,
          parentAgentId: coordinator.parentId,
          parentToolUseId: coordinator.parentToolUseId,
          sessionId: this.s.sessionId,
          ts: Date.now(),
          type: 'phase',
          phase: input.phase,
          ...(input.note ? { note: input.note } : {})
        })
        return {
          content: `Phase: ${input.phase}${previous && previous !== input.phase ? ` (was ${previous})` : ''}. ${PURPOSE[input.phase]}`,
          details: { phase: input.phase, previous }
        }
      }
    })
  }

  /** After a restart: the phase the coordinator last set, read from its conversation. */
  restore(messages: readonly ChatMessage[]): void {
    for (const m of messages) {
      if (m.role !== 'assistant' || typeof m.content === 'string') continue
      for (const b of m.content) {
        const phase = b.type === 'tool_use' && b.name === SET_PHASE_TOOL_NAME ? (b.input as { phase?: unknown } | null)?.phase : undefined
        if ((COORDINATOR_PHASES as readonly unknown[]).includes(phase)) this.phase = phase as CoordinatorPhase
      }
    }
  }

  /** The coordinator's Agent tool: in the implementation phase a new agent gets its own worktree, in a git repository. */
  wrapSpawn(spawn: Spawn): Spawn {
    return async (input, ctx) => {
      if (this.phase === 'implementation' && !input.resume && input.isolation === undefined && (await this.inGit()))
        return spawn({ ...input, isolation: 'worktree' }, ctx)
      return spawn(input, ctx)
    }
  }

  private inGit(): Promise<boolean> {
    this.git ??= probeGit(this.s.cwd).then(
      (p) => p.isGitRepo,
      () => false
    )
    return this.git
  }
}

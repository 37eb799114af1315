// Scripted turns for the agent editor's "Try it" runs in the e2e suite: an agent whose prompt says it
// writes changelogs reads the README, then reports in markdown, streamed slowly enough to be seen live.
import { block, reply, type AgentScript, type ParsedRequest } from '../../src/main/runtime/model/scripted'

export const TRY_AGENT_MARKER = 'You write changelogs'

export function agentEditorScripts(opts: { speed: number }): AgentScript[] {
  const pace = { textChunk: 8, chunkDelayMs: Math.round(30 * opts.speed) }
  return [
    {
      name: 'tried agent',
      match: TRY_AGENT_MARKER,
      turns: [
        () => reply.with(pace, block.text('Reading the README to see what changed.'), block.toolUse('Read', { file_path: 'README.md' })),
        (req: ParsedRequest) =>
          reply.with(
            pace,
            block.text(
              `## Changelog\n\n- **parse(src)** returns an AST (documented in the README, ${req.toolResults[0]?.content.split('\n').length ?? 0} lines read).\n- No breaking changes.`
            )
          )
      ]
    }
  ]
}

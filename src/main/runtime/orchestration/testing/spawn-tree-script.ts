// The scripted model of a 5x5x5 spawn tree (155 subagents): every agent above the leaves starts five
// children at once, in the foreground, then reports how many answered. The nesting tests (in process and
// through `fanout run`) share it.
import { reply, scriptByAgent, type ParsedRequest } from '../../model/scripted'

export const TREE_WIDTH = 5

export function spawnTreeScript() {
  const spawnAll = (prefix: string) =>
    reply.toolUses(
      Array.from({ length: TREE_WIDTH }, (_, i) => ({
        name: 'Agent',
        input: { description: `${prefix}${i}`, prompt: `Task ${prefix}${i}`, subagent_type: 'general-purpose' }
      }))
    )
  const report = (req: ParsedRequest) => reply.text(`${req.toolResults.filter((r) => !r.isError).length} of ${req.toolResults.length} answered`)
  // A leaf at the depth limit is told so after its task (a system reminder on the same message).
  const level = (req: ParsedRequest) => /^Task (\d*)(?:\n|$)/.exec(req.firstUserText)?.[1] ?? null
  return scriptByAgent([
    {
      name: 'subagent',
      match: (req) => level(req) !== null,
      turns: [(req) => (level(req)!.length < 3 ? spawnAll(level(req)!) : reply.text(`leaf ${level(req)} done`)), report]
    },
    { name: 'main', match: 'lead agent in Fanout', turns: [() => spawnAll(''), report] }
  ])
}

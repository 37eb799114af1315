// The scripted model for a coordinator-mode session in the e2e suite: the coordinator's four phases over the
// tiny-parser project — two Explore agents, a Plan agent, an agent team of two isolated members that take
// three tasks (one waiting for another) from the shared list, and a verifier that runs the real `npm test`.
import { block, reply, type AgentScript, type ParsedRequest, type ReplyBlock, type ScriptedReply } from '../../src/main/runtime/model/scripted'

const EXPLORE = '[coord explore]'
const PLAN = '[coord plan]'
const VERIFY = '[coord verify]'

/** The tool the agent called in its previous turn. */
function previousCall(req: ParsedRequest): string | undefined {
  const last = [...req.messages].reverse().find((m) => m.role === 'assistant')
  const uses = Array.isArray(last?.content) ? last.content.filter((b: { type: string }) => b.type === 'tool_use') : []
  return uses.at(-1)?.name
}

const repeat = <T>(t: T, n = 40): T[] => Array.from({ length: n }, () => t)

export function coordinatorScripts(opts: { speed: number }): AgentScript[] {
  const pace = (chunkDelayMs: number) => ({ textChunk: 4, chunkDelayMs: Math.round(chunkDelayMs * opts.speed) })
  const say = (ms: number, text: string, tool?: { name: string; input: unknown }): ScriptedReply =>
    reply.with(pace(ms), block.text(text), ...(tool ? [block.toolUse(tool.name, tool.input)] : []))

  // The Agent tool's call: a short description, the prompt (its marker picks the agent's script), the type.
  const agent = (description: string, prompt: string, type: string): ReplyBlock => block.toolUse('Agent', { description, prompt, subagent_type: type })

  // A coordinator turn: a sentence, the phase it enters, then the agents or team it starts; `long` turns carry
  // large tool inputs, streamed in bigger JSON chunks.
  const phaseTurn = (text: string, phase: { phase: string; note?: string }, calls: ReplyBlock[], long = false): ScriptedReply =>
    reply.with(long ? { ...pace(20), jsonChunk: 200 } : pace(20), block.text(text), block.toolUse('SetPhase', phase), ...calls)

  const member = (req: ParsedRequest): ScriptedReply => {
    const prev = previousCall(req)
    const out = req.toolResults[0]
    const claimed = prev === 'TaskClaim' ? /You claimed task (\d+)\.\n#\d+ \[in_progress\] (.*?) —/.exec(out.content) : null
    if (claimed) {
      const [, id, subject] = claimed
      return say(70, `Working on #${id}: ${subject}. Writing my notes for it in this worktree.`, {
        name: 'Write',
        input: { file_path: `notes/task-${id}.md`, content: `# ${subject}\n\nDone in the e2e run.\n` }
      })
    }
    if (prev === 'Write') {
      const id = /task-(\d+)\.md/.exec(JSON.stringify(req.messages.at(-2)?.content ?? ''))?.[1] ?? '0'
      return say(60, `Notes written; marking task ${id} as completed.`, {
        name: 'TaskUpdate',
        input: { taskId: id, status: 'completed', result: `notes/task-${id}.md written` }
      })
    }
    if (prev === 'TaskClaim') return say(40, `Nothing left for me: ${out.content.split('\n')[0]}`)
    return say(60, 'Checking the shared task list for the next task I can take.', { name: 'TaskClaim', input: {} })
  }

  const coordinator = (req: ParsedRequest): ScriptedReply => {
    switch (req.turn) {
      case 0:
        return phaseTurn(
          'Research first: two Explore agents in parallel.',
          { phase: 'research', note: 'map the parser and its tests' },
          [
            agent('Map the parser', `${EXPLORE} Where are parse() and lex(), and who calls them?`, 'Explore'),
            agent('Find the tests', `${EXPLORE} Which tests cover the parser?`, 'Explore')
          ],
          true
        )
      case 1:
        return phaseTurn('Now a plan.', { phase: 'synthesis' }, [agent('Plan the fix', `${PLAN} Plan how lex() can report line and column.`, 'Plan')])
      case 2:
        return phaseTurn(
          'Three small tasks: a team of two takes them from a shared list.',
          { phase: 'implementation', note: 'a team of two works through the task list' },
          [
            block.toolUse('TeamCreate', {
              team_name: 'lexer-crew',
              description: 'positions in lexer errors',
              members: [
                { name: 'ada', prompt: 'Take tasks from the list until none is left.', isolation: 'worktree' },
                { name: 'bo', prompt: 'Take tasks from the list until none is left.', isolation: 'worktree' }
              ],
              tasks: [
                { subject: 'Track line and column in lex()' },
                { subject: 'Add a LexError class' },
                { subject: 'Report positions in parse()', blockedBy: ['1'] }
              ]
            })
          ],
          true
        )
      default: {
        if (previousCall(req) === 'TeamCreate') return say(20, 'The team is working; I will verify once both members report.')
        if (previousCall(req) === 'Agent')
          return say(
            25,
            `## Summary\n\nThe team finished its three tasks on two worktree branches. Verification: ${req.toolResults.at(-1)!.content.split('\n')[0]}`
          )
        const history = req.messages.map((m) => JSON.stringify(m.content)).join('\n')
        const reported = new Set([...history.matchAll(/<name>(ada|bo)<\/name>/g)].map((m) => m[1]))
        if (reported.size < 2) return say(20, 'Waiting for the rest of the team.')
        return phaseTurn('Both members are done: verification.', { phase: 'verification' }, [
          agent('Run the tests', `${VERIFY} Run the test suite and report.`, 'verifier')
        ])
      }
    }
  }

  return [
    { name: 'coordinator', match: 'You are the coordinator of a crew', turns: repeat(coordinator) },
    { name: 'member', match: 'a member of the agent team', turns: repeat(member) },
    {
      name: 'explorer',
      match: EXPLORE,
      turns: [
        (req) =>
          say(60, 'Searching the sources.', {
            name: 'Grep',
            input: { pattern: req.firstUserText.includes('tests') ? 'describe' : 'lex\\(', path: '.', output_mode: 'files_with_matches' }
          }),
        (req) => say(50, `Found: ${req.toolResults[0].content.trim().split('\n').join(', ')}`)
      ]
    },
    {
      name: 'planner',
      match: PLAN,
      turns: [say(40, '1. Track line and column in lex(). 2. Add a LexError class. 3. Report positions in parse(), after step 1.')]
    },
    {
      name: 'verifier',
      match: VERIFY,
      turns: [
        say(50, 'Running the project test script.', { name: 'Bash', input: { command: 'npm test', description: 'Run the tests' } }),
        (req) => say(40, `FAIL: ${req.toolResults[0].content.trim().split('\n').pop()}`)
      ]
    }
  ]
}

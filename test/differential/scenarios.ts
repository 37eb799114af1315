// The scripted scenarios the differential tests run through Claude Code and Fanout. Each reply is chosen from
// the conversation itself (markers in the prompts), so both tools get the same answers whatever their own
// system prompts, tool descriptions and extra context say.
import { reply, type ParsedRequest } from '../../src/main/runtime/model/scripted'
import { conversation, type Scenario } from './harness'

const HELPER = `---
name: helper
description: Helps with small shell tasks.
tools: Bash, Read
---
You are the helper agent.
`

function respond(req: ParsedRequest) {
  const text = conversation(req)
  if (text.includes('MAIN TASK')) {
    if (req.turn === 0) return reply.toolUse('Bash', { command: 'echo hi', description: 'say hi' })
    if (req.turn === 1) return reply.toolUse('Agent', { description: 'help out', prompt: 'HELPER TASK', subagent_type: 'helper', run_in_background: false })
    return reply.text('all done')
  }
  if (text.includes('HELPER TASK')) {
    if (req.turn === 0) return reply.toolUse('Bash', { command: 'echo sub', description: 'say sub' })
    if (req.turn === 1) return reply.toolUse('Bash', { command: 'ls nonexistent-fanout-kit', description: 'fail' })
    return reply.text('helper done')
  }
  return reply.text('ok')
}

/** The main agent runs Bash, starts a project agent (foreground) that runs Bash and a failing ls, then answers. */
export const HOOKS_SCENARIO: Scenario = {
  files: { '.claude/agents/helper.md': HELPER },
  hooks: [
    { event: 'PreToolUse', matcher: 'Task' },
    { event: 'PreToolUse', matcher: 'Agent' },
    { event: 'PreToolUse', matcher: 'Bash' },
    { event: 'PostToolUse', matcher: '*' },
    { event: 'PostToolUseFailure', matcher: '*' },
    { event: 'SubagentStart' },
    { event: 'SubagentStop', matcher: 'helper' },
    { event: 'Stop' }
  ],
  respond,
  prompt: 'MAIN TASK',
  args: ['--model', 'opus', '--output-format', 'json']
}

const agentFile = (name: string, fields: string) => `---\nname: ${name}\ndescription: The ${name} agent.\n${fields}---\nYou are the ${name} agent.\n`

/** The main agent starts two project agents, one with its own effort and model; each answers at once. */
export const REQUEST_SCENARIO: Scenario = {
  files: {
    '.claude/agents/plain.md': agentFile('plain', 'tools: Read\n'),
    '.claude/agents/careful.md': agentFile('careful', 'tools: Read\neffort: low\nmodel: sonnet\n')
  },
  respond(req) {
    const text = conversation(req)
    if (text.includes('MAIN TASK')) {
      if (req.turn === 0) return reply.toolUse('Agent', { description: 'plain work', prompt: 'PLAIN TASK', subagent_type: 'plain', run_in_background: false })
      if (req.turn === 1)
        return reply.toolUse('Agent', { description: 'careful work', prompt: 'CAREFUL TASK', subagent_type: 'careful', run_in_background: false })
      return reply.text('both done')
    }
    return reply.text('done')
  },
  prompt: 'MAIN TASK',
  args: ['--model', 'opus', '--output-format', 'json']
}

/** Project agents of several shapes; the main agent starts `lead`, whose tools allow only Explore agents. */
export const LISTING_SCENARIO: Scenario = {
  files: {
    '.claude/agents/lead.md': agentFile('lead', 'tools: Agent(Explore), Read\n'),
    '.claude/agents/reader.md': agentFile('reader', 'tools: Read, Grep, Glob\n'),
    '.claude/agents/no-web.md': agentFile('no-web', 'disallowedTools: WebFetch, WebSearch\n'),
    '.claude/agents/anything.md': agentFile('anything', ''),
    '.claude/agents/quoted.md': '---\nname: quoted\ndescription: "Use for: quoting, with a colon"\ntools: ["Read", "Bash"]\n---\nYou quote.\n'
  },
  respond(req) {
    const text = conversation(req)
    if (text.includes('MAIN TASK')) {
      if (req.turn === 0) return reply.toolUse('Agent', { description: 'lead work', prompt: 'LEAD TASK', subagent_type: 'lead', run_in_background: false })
      return reply.text('done')
    }
    return reply.text('lead done')
  },
  prompt: 'MAIN TASK',
  args: ['--model', 'opus', '--output-format', 'json']
}

/** Read this many times before answering; each read is ~10k tokens, so a low threshold compacts on the way. */
const COMPACT_READS = 4

/**
 * The main agent reads a 40 KB file four times, past a threshold set low (Claude Code's
 * CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, Fanout's autoCompactPercent), so each compacts automatically once or more,
 * with PreCompact and PostCompact hooks recorded; it answers once a summary is in view.
 */
export const COMPACT_SCENARIO: Scenario = {
  files: { 'big.txt': `${'x'.repeat(99)}\n`.repeat(400) },
  hooks: [{ event: 'PreCompact' }, { event: 'PostCompact' }],
  settings: { permissions: { allow: ['Read'] } },
  respond(req) {
    const text = conversation(req)
    if (req.isSummaryRequest || /^CRITICAL: Respond with TEXT ONLY/.test(req.lastUserText)) return reply.text('<summary>SUMMARY OF THE READS</summary>')
    if (text.includes('SUMMARY OF THE READS')) return reply.text('all done')
    if (text.includes('MAIN TASK') && req.messages.filter((m) => m.role === 'assistant').length < COMPACT_READS)
      return reply.toolUse('Read', { file_path: 'big.txt' })
    return reply.text('all done')
  },
  prompt: 'MAIN TASK',
  args: ['--model', 'claude-sonnet-4-6', '--output-format', 'stream-json', '--verbose'],
  env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '16' },
  fanoutSettings: { context: { autoCompactPercent: 16, toolResultClearing: 'off' } }
}

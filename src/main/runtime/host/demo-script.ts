// The demo: a scripted fan-out over the opened folder, so a person without an API key sees Fanout work
// in seconds. The "model" is the scripted server; the agents, tools, files and permission requests are
// real. Every agent is told it is scripted, and the session is marked as a demo in the UI.
import { block, reply, scriptByAgent, type ParsedRequest, type Respond, type ScriptedReply } from '../model/scripted'

export const DEMO_PROMPT = 'Give me a tour of this folder: what is in it, how it is organised, and anything notable.'

interface Area {
  key: string
  description: string
  pattern: string
  focus: string
}

const AREAS: Area[] = [
  { key: 'code', description: 'Survey the source code', pattern: '**/*.{ts,tsx,js,jsx,mjs,py,go,rs,java,c,cc,cpp,h,rb,php,swift,kt}', focus: 'source files' },
  { key: 'tests', description: 'Find the tests', pattern: '**/*{test,spec}*', focus: 'tests' },
  { key: 'docs', description: 'Read the docs and config', pattern: '**/*.{md,json,yaml,yml,toml}', focus: 'documentation and configuration' },
  { key: 'shape', description: 'Measure the folder', pattern: '*', focus: 'the top level, its size and the tools installed' }
]

const tag = (key: string) => `[scripted demo: ${key}]`

// Slow enough to watch the agents stream side by side, fast enough to finish in about half a minute.
const SHAPE = { textChunk: 5, chunkDelayMs: 18 }
const say = (text: string, extra: ScriptedReply | null = null): ScriptedReply => {
  const blocks = [block.text(text)]
  if (extra && extra.kind === 'message') blocks.push(...extra.content)
  return { kind: 'message', content: blocks, ...SHAPE }
}

function files(result: string | undefined): string[] {
  if (!result) return []
  return result
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('No files') && !l.startsWith('(') && !l.startsWith('[') && !/^Found \d+/.test(l))
}

function firstLines(readOutput: string, n: number): string {
  return readOutput
    .split('\n')
    .slice(0, n)
    .map((l) => l.replace(/^\s*\d+[\t\u2192]/, '').trimEnd())
    .filter((l) => l.trim())
    .join(' / ')
    .slice(0, 160)
}

function childTurns(area: Area) {
  return [
    () => say(`Looking for ${area.focus}.`, reply.toolUse('Glob', { pattern: area.pattern })),
    (req: ParsedRequest) => {
      const found = files(req.toolResults[0]?.content)
      // `node --version` is not on the read-only list, so this asks for approval: the demo shows the permission queue.
      if (area.key === 'shape')
        return say(`${found.length} entries at the top level. Measuring the size on disk and checking the tools.`, reply.toolUse('Bash', { command: 'du -sh . && node --version', description: 'Folder size and Node version' }))
      if (!found.length) return say(`No ${area.focus} here.\n\n**Report:** this folder has no ${area.focus}.`)
      return say(`Found ${found.length} ${found.length === 1 ? 'match' : 'matches'}. Reading the most recently changed one.`, reply.toolUse('Read', { file_path: found[0], limit: 40 }))
    },
    (req: ParsedRequest) => {
      const result = req.toolResults[0]
      if (area.key === 'shape') {
        if (!result || result.isError) return say('**Report:** I was not allowed to measure the folder, so its size is unknown.')
        const [size, , node] = result.content.trim().split(/\s+/)
        return say(`**Report:** the folder takes ${size ?? 'an unknown amount'} on disk; Node ${node ?? '(not found)'} is installed.`)
      }
      const glob = files(req.messages.find((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((b: any) => b.type === 'tool_result'))?.content?.[0]?.content)
      const preview = result && !result.isError ? firstLines(result.content, 3) : 'it could not be read'
      return say(`**Report:** ${glob.length || 'some'} ${area.focus}. The newest starts with: \`${preview}\``)
    }
  ]
}

export function demoScript(): Respond {
  const children = AREAS.map((area) => ({ name: area.key, match: tag(area.key), turns: childTurns(area) }))
  const main = {
    name: 'main',
    match: DEMO_PROMPT,
    turns: [
      () =>
        reply.with(
          SHAPE,
          block.text('This is a **scripted demo**: no model is called, but the agents, tools and files are real. I will split the tour across four agents that work in parallel.'),
          ...AREAS.map((a) =>
            block.toolUse('Agent', {
              description: a.description,
              subagent_type: a.key === 'shape' ? 'general-purpose' : 'Explore',
              prompt: `${tag(a.key)} Look at ${a.focus} in this folder and report what you find in two sentences.`
            })
          )
        ),
      (req: ParsedRequest) => {
        const reports = req.toolResults.map((r, i) => `- **${AREAS[i]?.description ?? 'Agent'}:** ${r.content.split('\n')[0].replace(/^\*\*Report:\*\*\s*/, '')}`)
        return say(`Here is the tour, from four agents that ran side by side:\n\n${reports.join('\n')}\n\nAdd an API key in Settings to run real agents on your own prompts.`)
      }
    ]
  }
  // A follow-up prompt in a demo session gets an honest answer instead of an error.
  const fallback = () => say('This session is a scripted demo, so it cannot answer new prompts. Add an API key in Settings and start a session to work with a real model.')
  return scriptByAgent([...children, main], { fallback })
}

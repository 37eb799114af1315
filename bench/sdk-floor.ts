// The floor under the fan-out overhead: the bench's fan-out hops made by nothing but the SDK, in a fresh process
// as `fanout run` and `claude -p` are. It sends the main request, starts each worker as its Agent call streams
// whole (as both sides do), lists the folder for the worker's Glob, sends the worker's second request and the
// main agent's last, and prints one line. No transcripts, permissions, prompts or events, and smaller requests
// than either side sends: what is left is Node's start of the code on each hop, the SDK with its own fetch and
// HTTP on loopback. The overhead is computed as the other two's (vs-claude-code.ts), so its figure says about how
// much of theirs is their own work (Fanout sends through a pooled fetch of its own, which may be a little faster).
import Anthropic from '@anthropic-ai/sdk'
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { watchChild } from './fanout-process'

/** Runs the floor as a fresh process; resolves with the moment its line had been printed. */
export function runSdkFloorProcess(opts: {
  root: string
  cwd: string
  baseUrl: string
  prompt: string
  model: string
}): Promise<{ endedAt: number; ok: boolean; note: string }> {
  const child = spawn(process.execPath, [join(opts.root, 'out/bench/index.mjs'), '--sdk-floor'], {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH, FLOOR_URL: opts.baseUrl, FLOOR_PROMPT: opts.prompt, FLOOR_MODEL: opts.model },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  return watchChild(child, (stdout) => stdout.includes('\n')).then(({ code, endedAt, stdout, stderr }) => ({
    endedAt,
    ok: code === 0 && stdout.startsWith('done'),
    note: (stderr || stdout).slice(0, 200)
  }))
}

type Block = { type: string; id?: string; name?: string; text?: string; input?: any; json?: string }

/** The child's side (`index.mjs --sdk-floor`). */
export async function sdkFloor(): Promise<void> {
  const sdk = new Anthropic({ apiKey: 'sk-ant-api03-floor', baseURL: process.env.FLOOR_URL, maxRetries: 0 })
  const model = process.env.FLOOR_MODEL!
  const schema = (props: Record<string, unknown>) => ({ type: 'object' as const, properties: props })
  const tools = [
    { name: 'Agent', description: 'Starts an agent on a task.', input_schema: schema({ prompt: { type: 'string' }, description: { type: 'string' } }) },
    { name: 'Glob', description: 'Lists files that match a pattern.', input_schema: schema({ pattern: { type: 'string' } }) }
  ]
  const call = async (messages: any[], onCall?: (b: Block) => void): Promise<Block[]> => {
    const stream = await sdk.messages.create({ model, max_tokens: 4096, system: 'You are an agent.', tools, messages, stream: true })
    const blocks: Block[] = []
    let cur: Block | null = null
    for await (const e of stream) {
      if (e.type === 'content_block_start') cur = { ...(e.content_block as Block), json: '', text: '' }
      else if (e.type === 'content_block_delta' && cur) {
        if (e.delta.type === 'input_json_delta') cur.json += e.delta.partial_json
        else if (e.delta.type === 'text_delta') cur.text += e.delta.text
      } else if (e.type === 'content_block_stop' && cur) {
        const { json, ...block } = cur
        if (block.type === 'tool_use') {
          block.input = json ? JSON.parse(json) : {}
          delete block.text
          onCall?.(block)
        }
        blocks.push(block)
      }
    }
    return blocks
  }
  const worker = async (prompt: string): Promise<string> => {
    const first = [{ role: 'user', content: prompt }]
    const reply = await call(first)
    const glob = reply.find((b) => b.type === 'tool_use')!
    const files = readdirSync(join(process.cwd(), 'src')).join('\n')
    const answer = await call([
      ...first,
      { role: 'assistant', content: reply },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: glob.id, content: files }] }
    ])
    return answer.map((b) => b.text ?? '').join('')
  }
  const reports = new Map<string, Promise<string>>()
  const first = [{ role: 'user', content: process.env.FLOOR_PROMPT! }]
  const reply = await call(first, (b) => reports.set(b.id!, worker(String(b.input.prompt ?? ''))))
  const results = []
  for (const b of reply) if (b.type === 'tool_use') results.push({ type: 'tool_result', tool_use_id: b.id, content: await reports.get(b.id!)! })
  await call([...first, { role: 'assistant', content: reply }, { role: 'user', content: results }])
  process.stdout.write('done\n')
}

// Every run of an agent definition, and review's later verdict on its work, one line each in
// `<dataDir>/agent-history.jsonl`: what `fanout agents stats`, the agent library and the fan-out estimate
// read. Append-only, one O_APPEND write of a whole line per record (as the mailbox writes), so sessions in
// several processes never interleave their lines and nothing already written is rewritten. A line that is
// not a record (cut by a crash, written by hand) is skipped, never fatal.
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import type { AgentRunRecord } from '../../../shared/budget'
import { errorCode } from './atomic-file'

export const AGENT_HISTORY_FILE = 'agent-history.jsonl'

export const agentHistoryPath = (dataDir: string): string => join(dataDir, AGENT_HISTORY_FILE)

const recordSchema = z.object({
  ts: z.number(),
  sessionId: z.string(),
  agentId: z.string(),
  agentType: z.string(),
  file: z.string().optional(),
  model: z.string().optional(),
  outcome: z.enum(['completed', 'failed', 'stopped', 'budget', 'max_turns', 'merged', 'discarded']),
  costUsd: z.number().min(0),
  tokens: z.number().min(0),
  turns: z.number().min(0),
  durationMs: z.number().min(0),
  promptChars: z.number().min(0).optional(),
  verdict: z.literal(true).optional()
})

/** Appends one record; durable in the file once the promise resolves. */
export async function appendAgentRun(dataDir: string, record: AgentRunRecord): Promise<void> {
  await mkdir(dataDir, { recursive: true })
  await appendFile(agentHistoryPath(dataDir), `${JSON.stringify(record)}\n`, { flag: 'a' })
}

/** Every record in the store, oldest first; none when there is no store yet. */
export async function readAgentHistory(dataDir: string): Promise<AgentRunRecord[]> {
  let text: string
  try {
    text = await readFile(agentHistoryPath(dataDir), 'utf8')
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return []
    throw err
  }
  const records: AgentRunRecord[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const parsed = recordSchema.safeParse(JSON.parse(line))
      if (parsed.success) records.push(parsed.data as AgentRunRecord)
    } catch {
      // A line cut short by a crash: the records around it stand.
    }
  }
  return records
}

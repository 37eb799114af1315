// A durable mailbox per agent, for messages to an agent that is not running (SendMessage): it reads
// them when it starts or resumes. Many writers, any number of racing readers (in this process or
// others), and no message is lost or delivered twice.
//
// `<session>/mailbox/<agentId>.jsonl` is append-only: each message is one O_APPEND write of a whole line,
// which the OS never interleaves with another writer's. Readers never modify it. Consumption is a chain
// of claims in `<agentId>.claims/`: a claim named after byte offset S records the range [S, E) it took.
// A reader follows the chain from a hint to its tip T, reads the complete lines after T, and claims them
// by hard-linking a finished claim record to `claims/T`. link(2) fails if the name exists, so of two
// readers at the same tip exactly one wins; the loser follows the winner's claim and tries again from
// its end. Nothing is ever deleted, so the full history stays readable (and auditable) on disk.
import { cleanUuid } from '../random-hex'
import { existsSync } from 'node:fs'
import { appendFile, mkdir, open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createExclusive, errorCode, writeJsonAtomic } from './atomic-file'
import { assertSafeId, mailboxDir } from './data-dir'
import { errorMessage } from '../../../shared/error-message'

export interface MailboxMessage {
  /** Unique id, so a consumer can tell messages apart (and de-duplicate across its own retries). */
  id: string
  to: string
  from: string
  text: string
  summary?: string
  /** Milliseconds since the epoch, when posted. */
  ts: number
}

export interface MailboxOptions {
  /** A line that is not a message (e.g. written by hand): reported, consumed, never thrown. */
  onProblem?: (message: string) => void
}

export interface ClaimOptions extends MailboxOptions {
  /**
   * Hands the messages over before they are marked taken: a crash between the two leaves them in the
   * mailbox, to be handed over again (the receiver drops what it has by message id), never lost.
   */
  beforeClaim?: (messages: MailboxMessage[]) => Promise<void>
}

interface Paths {
  file: string
  claims: string
  hint: string
}

function paths(dataDir: string, sessionId: string, agentId: string): Paths {
  assertSafeId(agentId, 'agent id')
  const dir = mailboxDir(dataDir, sessionId)
  return { file: join(dir, `${agentId}.jsonl`), claims: join(dir, `${agentId}.claims`), hint: join(dir, `${agentId}.cursor`) }
}

/** Appends a message to `to`'s mailbox; durable once the promise resolves. */
export async function postMessage(
  dataDir: string,
  sessionId: string,
  to: string,
  message: { from: string; text: string; summary?: string }
): Promise<MailboxMessage> {
  const p = paths(dataDir, sessionId, to)
  const msg: MailboxMessage = { id: cleanUuid(), to, from: message.from, text: message.text, ts: Date.now() }
  if (message.summary !== undefined) msg.summary = message.summary
  await mkdir(join(p.file, '..'), { recursive: true })
  // The leading newline isolates this line from a torn fragment a crashed writer might have left.
  await appendFile(p.file, '\n' + JSON.stringify(msg) + '\n', { encoding: 'utf8', flush: true })
  return msg
}

/** Takes every message not yet taken, oldest first. Each message is returned by exactly one call, ever. */
export async function claimMessages(dataDir: string, sessionId: string, agentId: string, opts: ClaimOptions = {}): Promise<MailboxMessage[]> {
  const p = paths(dataDir, sessionId, agentId)
  // Every agent looks at its mailbox as it starts, and most never had one: answer that with one cheap
  // check rather than a round of reads (and a hint written) on the way to the agent's first request.
  if (!existsSync(p.file)) return []
  const hint = await readHint(p)
  let offset = hint
  for (;;) {
    offset = await followChain(p, offset)
    const { end, text } = await readCompleteLines(p.file, offset)
    if (end === offset) {
      if (offset !== hint) await writeHint(p, offset)
      return []
    }
    const messages = parseMessages(text, p.file, opts)
    if (opts.beforeClaim && messages.length) await opts.beforeClaim(messages)
    if (!(await tryClaim(p, offset, end))) continue // another reader took [offset, …): follow its claim
    await writeHint(p, end)
    return messages
  }
}

/** The messages waiting, without taking them (e.g. to show a count). */
export async function peekMessages(dataDir: string, sessionId: string, agentId: string, opts: MailboxOptions = {}): Promise<MailboxMessage[]> {
  const p = paths(dataDir, sessionId, agentId)
  const offset = await followChain(p, await readHint(p))
  return parseMessages((await readCompleteLines(p.file, offset)).text, p.file, opts)
}

const claimName = (offset: number) => String(offset).padStart(16, '0') + '.json'

async function followChain(p: Paths, from: number): Promise<number> {
  let offset = from
  for (;;) {
    let raw: string
    try {
      raw = await readFile(join(p.claims, claimName(offset)), 'utf8')
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return offset
      throw err
    }
    const end = (JSON.parse(raw) as { end: number }).end
    if (!(end > offset)) throw new Error(`Mailbox claim ${join(p.claims, claimName(offset))} is malformed (end ${end})`)
    offset = end
  }
}

async function tryClaim(p: Paths, start: number, end: number): Promise<boolean> {
  await mkdir(p.claims, { recursive: true })
  return createExclusive(join(p.claims, claimName(start)), JSON.stringify({ start, end, pid: process.pid, claimedAt: Date.now() }))
}

/** The bytes after `offset` up to the last newline: a line still being written is left for later. */
async function readCompleteLines(file: string, offset: number): Promise<{ end: number; text: string }> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return { end: offset, text: '' }
    throw err
  }
  try {
    const { size } = await handle.stat()
    if (size <= offset) return { end: offset, text: '' }
    const buf = Buffer.alloc(size - offset)
    let got = 0
    while (got < buf.length) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, offset + got)
      if (!bytesRead) break
      got += bytesRead
    }
    const last = buf.lastIndexOf(0x0a, got - 1)
    if (last < 0) return { end: offset, text: '' }
    return { end: offset + last + 1, text: buf.toString('utf8', 0, last + 1) }
  } finally {
    await handle.close()
  }
}

function parseMessages(text: string, file: string, opts: MailboxOptions): MailboxMessage[] {
  const out: MailboxMessage[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const m = JSON.parse(line) as MailboxMessage
      if (typeof m?.id !== 'string' || typeof m.text !== 'string') throw new Error('not a message')
      out.push(m)
    } catch (err) {
      opts.onProblem?.(`${file}: skipped a line that is not a message (${errorMessage(err)}): ${line.slice(0, 80)}`)
    }
  }
  return out
}

// The hint only saves walking the chain from 0; it may lag (a slower reader can write an older value)
// but is always a chain offset, so following the chain from it is always correct.
async function readHint(p: Paths): Promise<number> {
  try {
    const n = Number(JSON.parse(await readFile(p.hint, 'utf8')).offset)
    return Number.isSafeInteger(n) && n >= 0 ? n : 0
  } catch {
    return 0
  }
}

async function writeHint(p: Paths, offset: number): Promise<void> {
  await writeJsonAtomic(p.hint, { offset }, { fsync: false }).catch(() => {})
}

// `fanout run --resume` of a session an older Fanout wrote (transcript version 1, lines without `seq`) goes on
// as any other; one a newer Fanout wrote is refused: exit 1, the file and both versions on stderr and in the
// result, no model call, and the session left byte for byte (after which it can still be resumed).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliProject, runCli, useCliServers } from '../../../test/support/cli'
import { reply } from '../runtime/model/scripted'
import { readTranscript } from '../runtime/store'

const serve = useCliServers()
const json = ['--output-format', 'json']

/** The session's transcripts, each rewritten by `edit` line by line (the header is line 0). */
function rewrite(dataDir: string, sessionId: string, edit: (line: Record<string, unknown>, i: number) => Record<string, unknown>): string[] {
  const agents = join(dataDir, 'sessions', sessionId, 'agents')
  const files = readdirSync(agents)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(agents, f))
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean)
    writeFileSync(file, lines.map((l, i) => JSON.stringify(edit(JSON.parse(l), i))).join('\n') + '\n')
  }
  return files
}

async function recorded(name: string) {
  const { project, dataDir, env } = cliProject(name, {})
  const server = await serve({ respond: (req) => reply.text(`answer ${req.messages.length}: ${req.lastUserText}`) })
  const first = await runCli(['run', '-p', 'first question', '--cwd', project, ...json], { env: env(server.url) })
  expect(first.code, first.stderr).toBe(0)
  return { dataDir, env: env(server.url), server, sessionId: JSON.parse(first.stdout).session_id as string }
}

describe('fanout run --resume across transcript versions', () => {
  it('a version 1 session written before seq existed resumes: the main agent sees its conversation, the file keeps its header', async () => {
    const { dataDir, env, sessionId } = await recorded('fanout-v1-')
    const files = rewrite(dataDir, sessionId, (line, i) => {
      if (i === 0) return { ...line, version: 1 }
      const { seq: _seq, firstSeq: _first, ...old } = line
      return old
    })
    const r = await runCli(['run', '--resume', sessionId, '-p', 'second question', ...json], { env })
    expect(r.code, r.stderr).toBe(0)
    // Said once, on stderr: nothing is lost, but the files on disk are not in today's format.
    expect(r.stderr).toMatch(/^fanout: \d+ transcripts? of format version 1 (was|were) read as version 2 \(1 -> 2: .*\); the files are left as they are\.\n$/)
    expect(JSON.parse(r.stdout)).toMatchObject({ session_id: sessionId, is_error: false, result: 'answer 3: second question' })
    const main = files.find((f) => f.includes('main-'))!
    expect(JSON.parse(readFileSync(main, 'utf8').split('\n')[0])).toMatchObject({ type: 'header', version: 1 })
    const t = await readTranscript(main)
    expect(t.issues).toEqual([])
    expect(t.writtenIn).toBe(1)
    expect(t.events.filter((e) => e.type === 'agent_start')).toHaveLength(2)
  })

  it.each([
    ['json', json],
    ['stream-json', ['--output-format', 'stream-json', '--verbose']]
  ])('a session a newer Fanout wrote is refused (%s): exit 1, why on stderr and in result, nothing written', async (_format, flags) => {
    const { dataDir, env, server, sessionId } = await recorded('fanout-v3-')
    const files = rewrite(dataDir, sessionId, (line, i) => (i === 0 ? { ...line, version: 3 } : line))
    const main = files.find((f) => f.includes('main-'))!
    const before = files.map((f) => readFileSync(f))
    const requests = server.messageRequests().length
    const r = await runCli(['run', '--resume', sessionId, '-p', 'second question', ...flags], { env })
    expect(r.code).toBe(1)
    const why = `cannot resume session ${sessionId}: ${main} was written by a newer Fanout: transcript version 3, this Fanout reads up to 2. Update Fanout to open this session; the file was left as it is.`
    expect(r.stderr).toBe(`fanout run: failed: ${why}\n`)
    const lines = r.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0])).toMatchObject({ type: 'result', is_error: true, subtype: 'error_during_execution', session_id: sessionId, result: why })
    expect(server.messageRequests()).toHaveLength(requests)
    expect(files.map((f) => readFileSync(f))).toEqual(before)
    // Nothing was taken: with the header back at this version, the session resumes.
    rewrite(dataDir, sessionId, (line, i) => (i === 0 ? { ...line, version: 2 } : line))
    const again = await runCli(['run', '--resume', sessionId, '-p', 'second question', ...json], { env })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).result).toBe('answer 3: second question')
  })
})

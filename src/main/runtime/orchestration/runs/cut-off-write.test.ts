// An isolated agent killed in the middle of a Write: the transcript holds the call (written ahead of the tool),
// the temp file the Write made is in the worktree, and the rename that would have made it the agent's file
// never happened. After the restart the agent is told its Write did not finish (its file lacks the content),
// writes again, and its branch ends with the file — and without the temp file, which is no work of the agent.
// A Write the kill caught after its rename is answered with what it did: finished.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { reply, type ParsedRequest } from '../../model/scripted'
import { transcriptPath } from '../../store/data-dir'
import { waitUntil } from '../../tools/test-kit'
import { closeFixtures, latch, makeFixture, tempRepo } from '../testing/session-fixture'

afterEach(closeFixtures)

/** The Write's result as the agent's last request carried it, or undefined when it carried none. */
function writeResults(req: ParsedRequest): string[] {
  const out: string[] = []
  for (const m of req.messages)
    if (Array.isArray(m.content))
      for (const b of m.content as Array<Record<string, any>>)
        if (b.type === 'tool_result') out.push(typeof b.content === 'string' ? b.content : JSON.stringify(b.content))
  return out
}

/**
 * Runs one isolated background agent `iso` that writes iso.txt, and takes the crash copy while its next model
 * call (after the Write) is held. `rename`: whether the kill is to look as if it came after the Write's
 * rename (the file is there) or before it (only the temp file is). The copy's transcript is cut back to the
 * Write's tool_run, which is what the write-ahead guarantees is on disk when the tool starts.
 */
async function killedMidWrite(rename: boolean) {
  const repo = tempRepo()
  const hold = latch()
  let crashed = false
  const requests: ParsedRequest[] = []
  const f = await makeFixture(
    {
      respond: async (req) => {
        if (!/^Task iso$/m.test(req.firstUserText)) {
          if (req.turn === 0) return reply.toolUse('Agent', { description: 'iso', prompt: 'Task iso', run_in_background: true, isolation: 'worktree' })
          return reply.text('noted')
        }
        requests.push(req)
        const results = writeResults(req)
        if (!results.length) return reply.toolUse('Write', { file_path: 'iso.txt', content: 'iso was here\n' })
        if (!crashed) await hold.wait
        // A sensible model writes again what it is told was not written.
        if (results.every((r) => /did not (run|finish): Fanout stopped/.test(r)))
          return reply.toolUse('Write', { file_path: 'iso.txt', content: 'iso was here\n' })
        return reply.text('iso done')
      }
    },
    { cwd: repo.root, permissionMode: 'bypassPermissions' }
  )
  const s1 = f.session
  await s1.run('Fan out.')
  await waitUntil(() => requests.some((r) => writeResults(r).length > 0), 'the agent to call the model after its Write')
  const iso = s1.registry.all().find((h) => h.description === 'iso')!
  const worktree = iso.worktree!.path
  const copy = await f.crashCopy(s1)
  crashed = true

  // The copy's transcript as a kill right after the Write's tool_run leaves it.
  const file = transcriptPath(copy, s1.sessionId, iso.id)
  const lines = readFileSync(file, 'utf8').split('\n')
  const at = lines.findIndex((l) => l.includes('"type":"tool_run"') && l.includes('"name":"Write"'))
  expect(at).toBeGreaterThan(0)
  writeFileSync(file, lines.slice(0, at + 1).join('\n') + '\n')
  // Made by a process that is gone (as the killed one is): a pid that has exited.
  const temp = `.iso.txt.${spawnSync(process.execPath, ['-e', '']).pid}.0badc0de.tmp`
  if (!rename) renameSync(join(worktree, 'iso.txt'), join(worktree, temp))
  const { session: s2, events } = await f.openSession(s1.sessionId, copy, { permissionMode: 'bypassPermissions' })
  requests.length = 0
  await s2.resumeInterrupted()
  await waitUntil(() => events.some((e) => e.type === 'agent_end' && e.agentId === iso.id), 'the restarted agent to end')
  return { repo, iso, worktree, temp, requests, events, release: hold.open }
}

describe('an isolated agent killed mid-Write', () => {
  it('before the rename: told its Write did not finish, it writes again, and its branch holds the file and no temp file', { timeout: 120_000 }, async () => {
    const { repo, iso, worktree, temp, requests, events, release } = await killedMidWrite(false)
    try {
      const answer = writeResults(requests[0])[0]
      expect(answer).toMatch(/^Write did not finish: Fanout stopped \(it was closed or crashed\) before iso\.txt held the content this call gave/)
      expect(events.find((e) => e.type === 'agent_end' && e.agentId === iso.id)).toMatchObject({ status: 'completed', worktree: { kept: true } })
      expect(repo.git('show', `fanout/${iso.id}:iso.txt`)).toBe('iso was here')
      // No commit anywhere has the temp file, and it is not left in the worktree either.
      expect(repo.git('log', '--all', '--format=', '--name-only')).not.toMatch(/\.tmp/)
      expect(existsSync(join(worktree, temp))).toBe(false)
      expect(repo.git('status', '--porcelain')).toBe('')
    } finally {
      release()
    }
  })

  it('after the rename: told its Write had finished, it does not write again, and its branch holds the file', { timeout: 120_000 }, async () => {
    const { repo, iso, requests, release } = await killedMidWrite(true)
    try {
      const answer = writeResults(requests[0])[0]
      expect(answer).toBe(
        'Write had finished when Fanout stopped (it was closed or crashed): iso.txt holds the content this call gave. Only its result was lost.'
      )
      expect(requests.some((r) => JSON.stringify(r.messages).split('"name":"Write"').length > 2)).toBe(false)
      expect(repo.git('show', `fanout/${iso.id}:iso.txt`)).toBe('iso was here')
    } finally {
      release()
    }
  })
})

// A session whose data folder's disk fills during a run and frees again (a real small tmpfs): the run says it
// is paused, its agent waits before the tool that changes a file, goes on once there is room, and in the end
// every transcript reads back whole, with no event twice, and the model was never sent a broken request.
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { reply, requestLogViolations } from '../../model/scripted'
import { readTranscript } from '../../store'
import { CAN_MOUNT, CANNOT_MOUNT_REASON, fillDisk, mountSmallDisk } from '../../store/testing/full-disk'
import { waitUntil } from '../../tools/test-kit'
import { closeFixtures, makeFixture } from '../testing/session-fixture'
import { mainAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

describe.skipIf(!CAN_MOUNT)(`a run on a disk that fills and frees (${CAN_MOUNT ? 'tmpfs' : `skipped: ${CANNOT_MOUNT_REASON}`})`, () => {
  it('is paused, said plainly, goes on when space returns, and leaves whole transcripts with nothing twice', { timeout: 120_000 }, async () => {
    const disk = mountSmallDisk('1m')
    let filler: string | null = null
    try {
      const notices: string[] = []
      const f = await makeFixture(
        [
          mainAgent([
            reply.text('Ready.'),
            // The Write waits until its call is on disk: it runs once the disk has room again.
            reply.toolUse('Write', { file_path: 'out.txt', content: 'written once\n' }, { text: `Writing now. ${'padding '.repeat(200)}` }),
            reply.text('Done writing.')
          ])
        ],
        { dataDir: join(disk.dir, 'data'), permissionMode: 'acceptEdits', onError: (e) => notices.push(e.message) }
      )
      expect((await f.session.run('Get ready.')).result).toBe('Ready.')
      await f.session.flush()
      filler = fillDisk(disk.dir)
      const run = f.session.run('Write the file.')
      await waitUntil(() => notices.some((n) => n.startsWith('Paused: Could not write')), 'the run to say it is paused')
      expect(notices.find((n) => n.startsWith('Paused:'))).toMatch(/ENOSPC|no space/i)
      // Paused: the tool that changes a file has not run while its call could not be recorded.
      expect(existsSync(join(f.cwd, 'out.txt'))).toBe(false)
      rmSync(filler)
      filler = null
      const result = await run
      expect(result).toMatchObject({ status: 'completed', result: 'Done writing.' })
      expect(notices.some((n) => n.startsWith('Resumed: the transcript of agent'))).toBe(true)
      expect(readFileSync(join(f.cwd, 'out.txt'), 'utf8')).toBe('written once\n')
      await f.session.flush()
      const agents = join(disk.dir, 'data', 'sessions', f.session.sessionId, 'agents')
      for (const name of readdirSync(agents).filter((n) => n.endsWith('.jsonl'))) {
        const t = await readTranscript(join(agents, name))
        expect(t.issues, name).toEqual([])
        const seqs = t.events.map((e) => e.seq)
        expect(new Set(seqs).size, `${name}: no event written twice`).toBe(seqs.length)
      }
      expect(requestLogViolations(f.model.server.messageRequests())).toEqual([])
    } finally {
      if (filler) rmSync(filler, { force: true })
      await closeFixtures()
      disk.unmount()
    }
  })
})

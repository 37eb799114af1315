// A session a newer Fanout wrote (a transcript of a version past this one's) is refused in the app with the
// store's sentence, which names the file and both versions, and nothing of it is written; the CLI's
// --resume exits 1 with the same sentence (cli/run-transcript-versions.test.ts).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { HostCallError } from '../../../shared/host-call-error'
import { reply } from '../model/scripted'
import { host, until } from '../../../../test/support/host'

it('opening, prompting or resuming a session a newer Fanout wrote is refused, saying which file and which versions', async () => {
  const first = await host(() => reply.text('Done the first time.'))
  const { sessionId } = await first.h.handlers['session.start']({ prompt: 'Do it.', cwd: first.dirs.cwd })
  await until(() => first.events.some((e) => e.type === 'agent_end' && e.parentAgentId === null), 'the first run to end')
  await first.h.close()
  const dir = join(first.dirs.dataDir, 'sessions', sessionId)
  const main = join(dir, 'agents', readdirSync(join(dir, 'agents')).find((f) => f.startsWith('main-') && f.endsWith('.jsonl'))!)
  const [header, ...rest] = readFileSync(main, 'utf8').split('\n')
  writeFileSync(main, [JSON.stringify({ ...JSON.parse(header), version: 3 }), ...rest].join('\n'))
  rmSync(join(dir, 'view.json'), { force: true }) // the fold a newer Fanout left would be its own
  const files = () => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => [f, f.endsWith('.jsonl') ? readFileSync(join(dir, f), 'utf8') : ''])
  const before = files()

  const second = await host(() => reply.text('Must not be asked.'), first.dirs)
  const why = `${main} was written by a newer Fanout: transcript version 3, this Fanout reads up to 2. Update Fanout to open this session; the file was left as it is.`
  for (const call of [
    () => second.h.handlers['sessions.open']({ sessionId }),
    () => second.h.handlers['session.sendPrompt']({ sessionId, prompt: 'Go on.' }),
    () => second.h.handlers['session.resumeInterrupted']({ sessionId })
  ]) {
    const refused = await call().catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(HostCallError)
    expect(refused).toMatchObject({ code: 'conflict', message: why })
  }
  expect(second.server!.messageRequests()).toHaveLength(0)
  expect(files()).toEqual(before)
})

// A reopened session whose main transcript is gone is not continued as if the main agent remembered: a
// prompt or a resume is refused with the reason, where the CLI's --resume exits 1 (run-truthful.test.ts).
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { HostCallError } from '../../../shared/host-call-error'
import { reply } from '../model/scripted'
import { host, until } from '../../../../test/support/host'

it('a prompt to a reopened session whose main transcript was deleted is refused, saying why', async () => {
  const first = await host(() => reply.text('Done the first time.'))
  const { sessionId } = await first.h.handlers['session.start']({ prompt: 'Do it.', cwd: first.dirs.cwd })
  await until(() => first.events.some((e) => e.type === 'agent_end' && e.parentAgentId === null), 'the first run to end')
  await first.h.close()
  const agents = join(first.dirs.dataDir, 'sessions', sessionId, 'agents')
  rmSync(join(agents, readdirSync(agents).find((f) => f.startsWith('main-') && f.endsWith('.jsonl'))!))

  const second = await host(() => reply.text('A fresh start that must not happen.'), first.dirs)
  await second.h.handlers['sessions.open']({ sessionId })
  for (const call of [
    () => second.h.handlers['session.sendPrompt']({ sessionId, prompt: 'Go on.' }),
    () => second.h.handlers['session.resumeInterrupted']({ sessionId })
  ]) {
    const refused = await call().catch((e) => e)
    expect(refused).toBeInstanceOf(HostCallError)
    expect(refused.code).toBe('conflict')
    expect(refused.message).toMatch(
      /^This session cannot be continued: the main agent's transcript \(.*main-\w+\.jsonl\) is missing, though the session says it ran 1 turn\. Start a new session for this work\.$/
    )
  }
  expect(second.server!.messageRequests()).toHaveLength(0)
})

// Tool outputs past their cap, in a real session: Bash spools its whole output to the session's tool-outputs
// folder and returns its head and tail with the path; any other tool's large output is saved by the runner
// with its head; and the agent may read the saved file, headless and asking nothing.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { reply, scriptByAgent, type ParsedRequest } from '../model/scripted'
import { closeFixtures, makeFixture } from '../orchestration/testing/session-fixture'
import { limitOutput, PREVIEW_CHARS } from './large-output'

afterEach(closeFixtures)

const MAIN = 'lead agent in Fanout'
const savedPath = (text: string) => /whole output is saved in (\S+) —/.exec(text)?.[1]

describe('large tool outputs', () => {
  it("Bash's whole output goes to a file; the agent gets head, tail and path, and reads the rest without asking", async () => {
    let saved: string | undefined
    const respond = scriptByAgent([
      {
        name: 'main',
        match: MAIN,
        turns: [
          reply.toolUse('Bash', { command: 'cat numbers.txt', description: 'Show the numbers' }),
          (req: ParsedRequest) => {
            saved = savedPath(req.toolResults[0].content)
            return reply.toolUse('Read', { file_path: saved, offset: 30000, limit: 2 })
          },
          (req: ParsedRequest) => reply.text(`Line 30000 onwards: ${req.toolResults[0].content.replace(/\s+/g, ' ').trim()}`)
        ]
      }
    ])
    // Default mode and nobody to ask: a read outside the project would be denied, unless it is the session's folder.
    const f = await makeFixture({ respond }, { headless: true, files: { 'numbers.txt': Array.from({ length: 60000 }, (_, i) => i + 1).join('\n') + '\n' } })
    const result = await f.session.run('Show the numbers, then look at the middle.')
    expect(result.status).toBe('completed')
    const first = f.model.server.messageRequests()[1].toolResults[0].content
    expect(first.startsWith('1\n2\n3\n')).toBe(true)
    expect(first.trimEnd().endsWith('59999\n60000')).toBe(true)
    expect(first).toMatch(
      /\[… \d+ characters of output omitted …\] \[Output too large for the conversation \([\d.]+ KB, 60,001 lines\): its beginning and its end are shown\. The whole output is saved in \S+ — read the parts you need with Read/
    )
    expect(first.length).toBeLessThan(32_000)
    expect(saved).toContain('/tool-outputs/')
    expect(readFileSync(saved!, 'utf8')).toBe(Array.from({ length: 60000 }, (_, i) => i + 1).join('\n') + '\n')
    expect(result.result).toMatch(/^Line 30000 onwards: 30000 30000 30001 30001 \[Showing lines 30000-30001 of 60000\./)
  })

  it("any other tool's large output is saved by the runner with its beginning; without a folder it is cut, saying how much", async () => {
    const dir = `${process.env.TMPDIR ?? '/tmp'}/fanout-large-output-${process.pid}`
    const text = Array.from({ length: 5_000 }, (_, i) => `line ${i}`).join('\n')
    const shown = await limitOutput(text, 10_000, dir, 'toolu_01/../x')
    const file = savedPath(shown)!
    expect(file).toBe(`${dir}/toolu_01_.._x.txt`)
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(shown.length).toBeLessThan(PREVIEW_CHARS + 400)
    expect(shown).toMatch(/^line 0\nline 1\n/)
    expect(shown).toMatch(/\([\d.]+ KB, 5,000 lines\): only its beginning is shown above\./)
    expect(await limitOutput('short', 10_000, dir, 't')).toBe('short')
    expect(await limitOutput(text, 10_000, undefined, 't')).toMatch(/\n\n\[output truncated: \d+ more characters not shown\]$/)
  })
})

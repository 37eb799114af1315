// The scripted demo over a real folder, through the real SDK and tools: the tour's figures and wording,
// and what it answers after the tour (a follow-up prompt, a message to a subagent).
import { readdirSync, utimesSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { closeFixtures, ends, makeFixture, starts } from '../orchestration/testing/session-fixture'
import { count, DEMO_PROMPT, demoScript, globListing, inlineCode } from './demo-script'

afterEach(() => closeFixtures())

describe('demo wording helpers', () => {
  it('counts what Glob found in all, not the 100 it lists', () => {
    const listing = ['src/a.ts', 'src/b.ts', '(Results are truncated: showing 100 of 152. Use a more specific pattern or path.)'].join('\n')
    expect(globListing(listing)).toEqual({ files: ['src/a.ts', 'src/b.ts'], total: 152 })
    expect(globListing('No files found matching "*.py" in .')).toEqual({ files: [], total: 0 })
    expect(count(1, ['test file', 'test files'])).toBe('1 test file')
    expect(count(1204, ['test file', 'test files'])).toBe('1,204 test files')
  })

  it('quotes code that holds backticks without breaking the Markdown', () => {
    expect(inlineCode('plain')).toBe('`plain`')
    expect(inlineCode('const s = `hi`')).toBe('`` const s = `hi` ``')
    expect(inlineCode('a `` b')).toBe('``` a `` b ```')
  })
})

describe('the scripted demo', () => {
  it('reports true counts, each file once, in whole sentences, and answers a follow-up as the demo it is', async () => {
    const files: Record<string, string> = {
      'README.md': '# Calc\nA tiny calculator.\n',
      'package.json': '{ "name": "calc" }\n',
      'docs/CHANGELOG.md': '',
      'agents/test-writer.md': '---\nname: test-writer\n---\n', // named like a test, is not one
      'src/tpl.ts': 'const s = `hi ${name}`\nexport default s\n',
      'src/calc.test.ts': "import { add } from './m0'\ntest('adds', () => {})\n"
    }
    for (let i = 0; i < 150; i++) files[`src/m${i}.ts`] = `export const n${i} = ${i}\n`
    const f = await makeFixture({ respond: demoScript(), latencyMs: 0 }, { files, permissionMode: 'bypassPermissions' })
    // Newest first, as Glob sorts: the test file, then the template, then the rest.
    const at = (rel: string, s: number) => utimesSync(`${f.cwd}/${rel}`, s, s)
    for (let i = 0; i < 150; i++) at(`src/m${i}.ts`, 1_000_000 + i)
    at('package.json', 1_500_000)
    at('README.md', 1_600_000)
    at('agents/test-writer.md', 1_650_000)
    at('docs/CHANGELOG.md', 1_700_000)
    at('src/tpl.ts', 2_000_000)
    at('src/calc.test.ts', 2_000_100)

    const tour = await f.session.run(DEMO_PROMPT)
    expect(tour.status).toBe('completed')
    const summary = tour.result
    // Glob lists at most 100 files; the report counts all of them.
    expect(summary).toContain(
      '**Survey the source code:** 152 source files. The newest source file that is not a test, `src/tpl.ts`, starts with `` const s = `hi ${name}` / export default s ``.'
    )
    expect(summary).toContain('**Find the tests:** 1 test file. The newest, `src/calc.test.ts`, starts with')
    expect(summary).toContain('**Read the docs and config:** 4 documentation and configuration files. The newest, `docs/CHANGELOG.md`, is empty.')
    expect(summary).not.toContain('100 source files')
    // The top level is counted, folders included, not every file below it (Glob's `*` matches files at any
    // depth, which once made 156 files read as "156 entries at the top level"); hidden entries aside (inside the
    // sandbox the folder also shows its stand-ins for protected dotfiles).
    const top = readdirSync(f.cwd).filter((name) => !name.startsWith('.')).length
    expect(top).toBeLessThan(10)
    expect(summary).toMatch(
      new RegExp(`\\*\\*Measure the folder:\\*\\* the folder has ${top} entries at the top level \\(hidden ones aside\\) and takes \\S+ on disk; Node v\\d+`)
    )
    // No key is stored (no keyStored given): the way to real agents is to add one.
    expect(summary).toMatch(/Add an API key in Settings to run real agents on your own prompts\.$/)
    // Each file is read and named by one agent only.
    expect(summary.split('src/calc.test.ts')).toHaveLength(2)
    // Every report is a sentence that ends, with its code spans closed.
    for (const line of summary.split('\n').filter((l) => l.startsWith('- '))) {
      expect(line).toMatch(/\.$/)
      expect(line.replace(/``.*?``/g, '').split('`').length % 2).toBe(1)
    }

    const followUp = await f.session.run('Now list the biggest files')
    expect(followUp.status).toBe('completed')
    expect(followUp.result).toContain('You asked: “Now list the biggest files”.')
    expect(followUp.result).toContain('**scripted demo**')
    expect(followUp.result).toContain('add an Anthropic API key in **Settings**')

    // A subagent messaged after its report answers the same way rather than failing.
    const tests = starts(f.events).find((e) => e.description === 'Find the tests')!
    await f.session.sendMessage(tests.agentId, 'And the fixtures?')
    await f.session.idle()
    const again = ends(f.events)
      .filter((e) => e.agentId === tests.agentId)
      .at(-1)!
    expect(again).toMatchObject({ status: 'completed', result: expect.stringContaining('You asked: “And the fixtures?”.') })
    expect(ends(f.events).filter((e) => e.status === 'failed')).toEqual([])
  }, 60_000)

  it('speaks of adding a key only when none is stored', async () => {
    let stored = true
    const f = await makeFixture(
      { respond: demoScript({ keyStored: async () => stored }), latencyMs: 0 },
      { files: { 'src/a.ts': 'export const a = 1\n' }, permissionMode: 'bypassPermissions' }
    )
    const tour = await f.session.run(DEMO_PROMPT)
    expect(tour.result).not.toContain('API key')
    expect(tour.result).toMatch(/Start a new session to run real agents on your own prompts\.$/)
    const followUp = await f.session.run('And now?')
    expect(followUp.result).not.toContain('API key')
    expect(followUp.result).toContain('start a new session')
    // Asked at the time of each answer: a key removed since is missed again.
    stored = false
    expect((await f.session.run('And now?')).result).toContain('add an Anthropic API key in **Settings**')
  }, 60_000)
})

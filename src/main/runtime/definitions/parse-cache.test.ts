// Agent files parsed before are not parsed again, and never served for another text, place, option set or build.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { parseAgentMarkdown } from './parse'
import { cachedParse, saveParseCache, useParseCacheFile } from './parse-cache'

const dir = mkdtempSync(join(tmpdir(), 'fanout-parse-cache-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => useParseCacheFile(null))

const agent = (name: string, body = 'You review code.') => `---\nname: ${name}\ndescription: Reviews code\ntools: Read, Grep\n---\n${body}\n`

/** cachedParse as the loader calls it, counting the parses it really made. */
function parser() {
  let parses = 0
  const parse = (text: string, path = '/home/u/.claude/agents/a.md', opts = {}) =>
    cachedParse(text, path, 'user', opts, () => {
      parses++
      return parseAgentMarkdown(text, path, 'user', opts)
    })
  return { parse, parses: () => parses }
}

describe('the parse cache of agent files', () => {
  it('parses a file once per text, place and options, and hands out a copy each time', () => {
    useParseCacheFile(null)
    const p = parser()
    const first = p.parse(agent('reviewer'))
    const again = p.parse(agent('reviewer'))
    expect(p.parses()).toBe(1)
    expect(again).toEqual(first)
    expect(again).not.toBe(first)
    again.definition!.tools!.push('Bash') // a caller's change stays its own
    expect(p.parse(agent('reviewer')).definition!.tools).toEqual(['Read', 'Grep'])
    // An edit, another place, other options: parsed anew, each.
    expect(p.parse(agent('reviewer', 'You review code carefully.')).definition!.systemPrompt).toBe('You review code carefully.')
    expect(p.parse(agent('reviewer'), '/repo/.claude/agents/a.md').definition!.file).toBe('/repo/.claude/agents/a.md')
    p.parse(agent('reviewer'), '/home/u/.claude/agents/a.md', { plugin: 'p' })
    expect(p.parses()).toBe(4)
  })

  it('keeps them across runs in its file, holding only the files the last run read', () => {
    const file = join(dir, 'across', 'agent-files.json')
    useParseCacheFile(file)
    const run1 = parser()
    const expected = [run1.parse(agent('a')), run1.parse(agent('b'))]
    saveParseCache()
    expect(JSON.parse(readFileSync(file, 'utf8')).entries).toHaveLength(2)

    useParseCacheFile(file) // the next run
    const run2 = parser()
    expect([run2.parse(agent('a')), run2.parse(agent('b'))]).toEqual(expected)
    expect(run2.parses()).toBe(0)
    saveParseCache()

    useParseCacheFile(file) // a run that reads only one of them, and a new one
    const run3 = parser()
    run3.parse(agent('a'))
    run3.parse(agent('c'))
    expect(run3.parses()).toBe(1)
    saveParseCache()
    expect(JSON.parse(readFileSync(file, 'utf8')).entries).toHaveLength(2)
  })

  it("keeps a prompt as its place in the file's text, not a second copy of it", () => {
    const file = join(dir, 'prompts.json')
    useParseCacheFile(file)
    const body = `You review code.\n\n${'Check every branch of the change, and say where each finding is. '.repeat(400)}`
    const first = parser().parse(agent('long', body))
    saveParseCache()
    // The file holds the agent's fields, not its 26 KB prompt.
    expect(readFileSync(file, 'utf8').length).toBeLessThan(2000)
    useParseCacheFile(file)
    const p = parser()
    const again = p.parse(agent('long', body))
    expect(p.parses()).toBe(0)
    expect(again).toEqual(first)
    expect(again.definition!.systemPrompt).toBe(body.trim())
  })

  it('parses anew where an entry of its file is not one it wrote (a prompt placed outside the text)', () => {
    const file = join(dir, 'tampered.json')
    useParseCacheFile(file)
    const expected = parser().parse(agent('a', 'A prompt of some length, to be placed.'))
    saveParseCache()
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    for (const bad of [[0, 100_000], [-1, 3], [5, 2], 'x']) {
      saved.entries[0][1].prompt = bad
      writeFileSync(file, JSON.stringify(saved))
      useParseCacheFile(file)
      const p = parser()
      expect(p.parse(agent('a', 'A prompt of some length, to be placed.'))).toEqual(expected)
      expect(p.parses()).toBe(1)
    }
  })

  it('serves nothing from a file another build wrote, or one that is broken', () => {
    const file = join(dir, 'other-build.json')
    useParseCacheFile(file)
    parser().parse(agent('a'))
    saveParseCache()
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    writeFileSync(file, JSON.stringify({ ...saved, build: `${saved.build}-older` }))
    useParseCacheFile(file)
    const p = parser()
    p.parse(agent('a'))
    expect(p.parses()).toBe(1)
    writeFileSync(file, '{ not json')
    useParseCacheFile(file)
    const q = parser()
    q.parse(agent('a'))
    expect(q.parses()).toBe(1)
  })

  it('never keeps a result JSON would not give back as it is', () => {
    const file = join(dir, 'odd.json')
    useParseCacheFile(file)
    const odd = `---\nname: odd\ndescription: Odd values\nlimit: .inf\n---\nBody.\n`
    const p = parser()
    const first = p.parse(odd)
    expect(p.parse(odd)).toEqual(first)
    expect(p.parses()).toBe(2)
  })
})

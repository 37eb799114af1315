// The fast path must read exactly what the yaml library reads, or step aside: checked on hand-made lines,
// on every real agent file of the corpus, and on thousands of mutations of them.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultBuiltinDir } from './builtins'
import { readFlatYaml } from './flat-yaml'
import { splitFrontmatter } from './frontmatter'
import { parseYaml } from './yaml-read'

const origin = { line: 2, column: 1 }

/** The fast path's reading, when it gives one, equals the full parse; returns whether it gave one. */
function agrees(src: string, at = origin): boolean {
  const flat = readFlatYaml(src, at)
  if (flat) expect(flat, JSON.stringify(src)).toEqual(parseYaml(src, at))
  return flat !== null
}

function frontmatters(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...frontmatters(path))
    else if (entry.name.endsWith('.md')) {
      const split = splitFrontmatter(readFileSync(path, 'utf8'))
      if (split.ok) out.push(split.yaml)
    }
  }
  return out
}

describe('readFlatYaml', () => {
  it('reads flat key: value lines as yaml does, with the positions of keys and values', () => {
    const src =
      'name: reviewer\n# a comment\ndescription: \'Reviews code: it\'\'s "strict"\'\ntools: Read, Grep, Bash(git diff:*)\nmodel:   sonnet\nmaxTurns: 12\nbackground: true\nmemory: null\ncolor: "blue"\n'
    expect(agrees(src)).toBe(true)
    const read = readFlatYaml(src, { line: 2, column: 5 })
    if (!read?.ok) throw new Error('expected the fast path to read it')
    expect(read.data).toEqual({
      name: 'reviewer',
      description: 'Reviews code: it\'s "strict"',
      tools: 'Read, Grep, Bash(git diff:*)',
      model: 'sonnet',
      maxTurns: 12,
      background: true,
      memory: null,
      color: 'blue'
    })
    expect(read.keys.get('name')).toEqual({ key: { line: 2, column: 5 }, value: { line: 2, column: 11 } })
    expect(read.keys.get('model')).toEqual({ key: { line: 6, column: 1 }, value: { line: 6, column: 10 } })
  })

  it('leaves everything else to the yaml library', () => {
    const others = [
      'model: 4.5\n',
      'n: .inf\n',
      'n: 0x1F\n',
      'n: -3\n',
      'n: 1e3\n',
      'n: ~\n',
      'tools:\n',
      'tools:\n  - Read\n',
      'tools: [Read, Grep]\n',
      'description: a: b\n',
      'description: text # comment\n',
      'description: "tab\\there"\n',
      'description: |\n  block\n',
      'name: a\r\n',
      'name: a\tb\n',
      'name: a\nname: b\n',
      'true: a\nTrue: b\n',
      '\ufeffname: a\n',
      'name: a\n...\n',
      'name: a\n  more\n',
      '# only a comment\n',
      "description: 'open\n  quote'\n",
      'name: &a x\n',
      'name: *a\n',
      'name: !!str 1\n',
      '__proto__: x\n',
      'a.b: c\n',
      'name:a\n',
      // yaml refuses an implicit key longer than 1024 characters (and so does Claude Code's parser)
      `name: a\n${'k'.repeat(1025)}: v\n`
    ]
    for (const src of others) {
      expect(readFlatYaml(src, origin), src).toBeNull()
      agrees(src)
    }
  })

  it('reads the built-in agents itself (they are read before every first request)', () => {
    const builtins = frontmatters(defaultBuiltinDir())
    expect(builtins.length).toBeGreaterThan(4)
    for (const src of builtins) expect(agrees(src)).toBe(true)
  })

  const corpus = resolve(__dirname, '../../../../../shared/corpus/agents')
  it.skipIf(!existsSync(corpus))('agrees with the yaml library on the corpus and on mutations of it', () => {
    const sources = frontmatters(corpus)
    expect(sources.length).toBeGreaterThan(500)
    const fast = sources.filter((src) => agrees(src)).length
    expect(fast).toBeGreaterThan(sources.length / 4)
    // Mutations: one character of a line swapped for one that means something in YAML.
    const specials = [':', '#', "'", '"', '-', '[', '{', '&', '*', '!', '|', '>', '%', '@', '`', ' ', '.', '0', '~', ',', '?', '\\']
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    let checked = 0
    for (let n = 0; n < 6000; n++) {
      const src = sources[Math.floor(next() * sources.length)]!
      const at = Math.floor(next() * src.length)
      const mutated = src.slice(0, at) + specials[Math.floor(next() * specials.length)] + src.slice(at + 1)
      if (agrees(mutated)) checked++
    }
    expect(checked).toBeGreaterThan(500)
  })
})

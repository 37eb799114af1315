import { describe, expect, it } from 'vitest'
import { MAX_YAML_NESTING, nestingDepth, readYaml } from './yaml-read'

const origin = { line: 2, column: 1 }

describe('readYaml', () => {
  it('reads a mapping and gives file positions for keys and values', () => {
    const r = readYaml('name: a\n# comment\ntools:\n  - Read\n', origin)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.data).toEqual({ name: 'a', tools: ['Read'] })
    expect(r.keys.get('name')).toEqual({ key: { line: 2, column: 1 }, value: { line: 2, column: 7 } })
    expect(r.keys.get('tools')?.key).toEqual({ line: 4, column: 1 })
  })

  it('reads a key written twice as Claude Code does, the last value winning, and says where', () => {
    const r = readYaml('name: a\nmodel: x\nname: b\n', origin)
    expect(r).toMatchObject({ ok: true, data: { name: 'b', model: 'x' }, duplicates: [{ key: 'name', at: { line: 4, column: 1 } }] })
  })

  it('reports syntax errors with their position', () => {
    const r = readYaml('name: a\ndescription: x: y\n', origin)
    expect(r).toMatchObject({ ok: false, at: { line: 3, column: 14 } })
  })

  it('refuses alias bombs', () => {
    let bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    let prev = 'a'
    for (let i = 0; i < 9; i++) {
      bomb += `b${i}: &b${i} [${Array(9).fill(`*${prev}`).join(',')}]\n`
      prev = `b${i}`
    }
    const r = readYaml(bomb, origin)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toMatch(/aliases expand too much/)
  })

  it('refuses deep nesting before parsing it', () => {
    const deep = `a: ${'['.repeat(5000)}${']'.repeat(5000)}`
    const r = readYaml(deep, origin)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toContain(`more than ${MAX_YAML_NESTING} levels`)
    let indented = ''
    for (let i = 0; i < 200; i++) indented += `${' '.repeat(i)}k:\n`
    expect(readYaml(indented, origin).ok).toBe(false)
    expect(readYaml(`${'- '.repeat(300)}x\n`, origin).ok).toBe(false)
  })

  it('does not count brackets of earlier top-level keys against later ones', () => {
    const text = Array.from({ length: 100 }, (_, i) => `k${i}: unbalanced [ text`).join('\n')
    expect(nestingDepth(text).depth).toBeLessThan(5)
  })
})

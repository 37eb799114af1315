import { isAbsolute, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { displayPath, isInside, pathUnder } from './paths'

// isInside compares plain absolute paths as strings and leaves the rest to path.relative: both must agree.
const byRelative = (parent: string, child: string) => {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

describe('isInside', () => {
  it('answers as path.relative does, for plain paths and for ones with ., .., doubled or trailing slashes', () => {
    const segments = ['', 'a', '.', '..', '..a', '.a', 'a.']
    const paths = new Set(['/', '//', '/a/', '/a//b', 'a', 'a/b', '', '.'])
    for (const x of segments)
      for (const y of segments)
        for (const z of ['', 'a', '..', '.a']) {
          paths.add(`/${x}`)
          paths.add(`/${x}/${y}`)
          paths.add(`/${x}/${y}/${z}`)
          paths.add(`/${x}/${y}/${z}/`)
        }
    const list = [...paths]
    const differ = list.flatMap((p) => list.filter((c) => isInside(p, c) !== byRelative(p, c)).map((c) => `${p} ⊇ ${c}`))
    expect(differ).toEqual([])
    // The path below, as path.relative spells it (what a search's ignore rules and the paths shown to the model use).
    const spelt = list.flatMap((p) =>
      list.filter((c) => pathUnder(p, c) !== (byRelative(p, c) ? relative(p, c) : null)).map((c) => `${p} ⊇ ${c}: ${pathUnder(p, c)}`)
    )
    expect(spelt).toEqual([])
    expect(list.length).toBeGreaterThan(200)
  })

  it('tells a folder from a sibling that shares its name as a prefix', () => {
    expect(isInside('/work/app', '/work/app/src/a.ts')).toBe(true)
    expect(isInside('/work/app', '/work/app')).toBe(true)
    expect(isInside('/work/app', '/work/apple/a.ts')).toBe(false)
    expect(isInside('/', '/etc')).toBe(true)
    expect(isInside('/work/app', '/work/app/../secret')).toBe(false)
  })
})

describe('displayPath', () => {
  it('shows a path inside the working directory relative to it, and any other whole', () => {
    expect(displayPath('/work/app', '/work/app/src/a.ts')).toBe('src/a.ts')
    expect(displayPath('/work/app', '/work/app')).toBe('.')
    expect(displayPath('/', '/etc/hosts')).toBe('etc/hosts')
    expect(displayPath('/work/app', '/work/apple/a.ts')).toBe('/work/apple/a.ts')
    expect(displayPath('/work/app/', '/work/app/src//a.ts')).toBe('src/a.ts')
    expect(displayPath('/work/app', '/work/app/../secret')).toBe('/work/app/../secret')
  })
})

// The index of a secret's pieces keeps only every fourth gram of its forms (secret-pieces.ts, class Grams): a run
// of PIECE characters of a form always holds one, and the gram found is extended along its form. Held here to
// the index of every gram: on texts carrying pieces of keys in every encoding the redaction knows, cut anywhere,
// among noise, both find exactly the same stretches.
import { describe, expect, it } from 'vitest'
import { SecretPieces } from './secret-pieces'

/** A seeded generator, so that a failure names a text that can be made again. */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s % n
  }
}

const encodings = (key: string): string[] => {
  const bytes = Buffer.from(key)
  return [
    key,
    key.toUpperCase(),
    bytes.toString('hex'),
    bytes.toString('base64'),
    Buffer.concat([Buffer.from('x'), bytes]).toString('base64'),
    [...key].reverse().join(''),
    [...bytes].join(''),
    [...bytes].map((b) => b.toString(8).padStart(3, '0')).join(' '),
    key.split('').join('\n'),
    bytes
      .toString('hex')
      .match(/.{1,8}/g)!
      .join('-'),
    bytes
      .toString('hex')
      .match(/.{1,32}/g)!
      .map((line, i) => `${(i * 16).toString(16).padStart(8, '0')}: ${line.match(/.{1,4}/g)!.join(' ')}`)
      .join('\n')
  ]
}

const randomBytes = (next: (n: number) => number, n: number): Buffer => Buffer.from(Array.from({ length: n }, () => next(256)))

describe('SecretPieces, every fourth gram', () => {
  it('finds the same stretches as every gram, in every encoding, cut anywhere', () => {
    const next = random(28)
    let compared = 0
    let withPieces = 0
    for (let round = 0; round < 120; round++) {
      const bytes = randomBytes(next, 20 + next(60))
      const key = round % 3 === 0 ? `sk-ant-api03-${bytes.toString('base64url')}AA` : bytes.toString(round % 2 ? 'hex' : 'base64url')
      const sampled = new SecretPieces()
      const every = new SecretPieces(1)
      sampled.add(key)
      every.add(key)
      const forms = encodings(key)
      for (let t = 0; t < 25; t++) {
        const form = forms[next(forms.length)]!
        const from = next(form.length)
        const piece = form.slice(from, from + 1 + next(60))
        const noise = () => randomBytes(next, next(30)).toString((['hex', 'base64', 'latin1'] as const)[next(3)])
        const text = `${noise()} ${piece} ${noise()} ${next(2) ? form.slice(0, next(form.length)) : ''}`
        const want = every.spans(text)
        expect(sampled.spans(text), JSON.stringify({ key, text })).toEqual(want)
        compared++
        if (want.length) withPieces++
      }
    }
    expect(compared).toBe(3000)
    expect(withPieces).toBeGreaterThan(1500) // most texts do carry a piece: the comparison is not of empty answers
  })
})

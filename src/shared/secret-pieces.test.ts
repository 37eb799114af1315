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

// Shared code runs without Node: bytes, hex and base64 by hand (the keys are ASCII).
const toHex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('')
const toBase64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes))
const toBase64Url = (bytes: number[]) => toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
const latin1 = (bytes: number[]) => String.fromCharCode(...bytes)

const encodings = (key: string): string[] => {
  const bytes = [...new TextEncoder().encode(key)]
  const hex = toHex(bytes)
  return [
    key,
    key.toUpperCase(),
    hex,
    toBase64(bytes),
    toBase64([0x78, ...bytes]),
    [...key].reverse().join(''),
    bytes.join(''),
    bytes.map((b) => b.toString(8).padStart(3, '0')).join(' '),
    key.split('').join('\n'),
    hex.match(/.{1,8}/g)!.join('-'),
    hex
      .match(/.{1,32}/g)!
      .map((line, i) => `${(i * 16).toString(16).padStart(8, '0')}: ${line.match(/.{1,4}/g)!.join(' ')}`)
      .join('\n')
  ]
}

const randomBytes = (next: (n: number) => number, n: number): number[] => Array.from({ length: n }, () => next(256))

describe('SecretPieces, every fourth gram', () => {
  it('finds the same stretches as every gram, in every encoding, cut anywhere', () => {
    const next = random(28)
    let compared = 0
    let withPieces = 0
    for (let round = 0; round < 120; round++) {
      const bytes = randomBytes(next, 20 + next(60))
      const key = round % 3 === 0 ? `sk-ant-api03-${toBase64Url(bytes)}AA` : round % 2 ? toHex(bytes) : toBase64Url(bytes)
      const sampled = new SecretPieces()
      const every = new SecretPieces(1)
      sampled.add(key)
      every.add(key)
      const forms = encodings(key)
      for (let t = 0; t < 25; t++) {
        const form = forms[next(forms.length)]!
        const from = next(form.length)
        const piece = form.slice(from, from + 1 + next(60))
        const noise = () => [toHex, toBase64, latin1][next(3)]!(randomBytes(next, next(30)))
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

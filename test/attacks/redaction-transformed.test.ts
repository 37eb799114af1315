// Redaction of a registered secret after real commands reshaped it (rev, xxd, od, hexdump, base64, base32,
// fold, cut, head, split, tr, awk, sed, jq): the redacted output is handed to the attacker's way back (the
// inverse command, or a decoder of the dump's format), and not a piece of the secret may come out of it.
import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clearSecrets, redactText, registerSecret } from '../../src/shared/redact'

const PREFIX = 'sk-ant-api03-'
const BODY = `LEAKCHECK${Array.from({ length: 30 }, (_, i) => 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'[(i * 37 + 11) % 57]).join('')}`
const KEY = PREFIX + BODY
const TOKEN = 'ghp_0Qz8Yc4Lr2Vw6Ns1Km5Jt9Hx3Fd7Bp0Ag4Ue'
// A key whose random body happens to hold no digit (a test key of random base-36 characters, once in 35):
// its prefix says it is a key, so it is looked for in pieces like any other.
const LETTERS_KEY = `${PREFIX}LEAKCHECKhuxfwfmjqzrtvbnpgsdoyi`

/** What the command printed, also when it complained (a decoder meeting `[REDACTED]`). */
function sh(command: string, input: string): string {
  try {
    return execFileSync('bash', ['-c', command], { input, encoding: 'latin1', maxBuffer: 1 << 24, stdio: ['pipe', 'pipe', 'ignore'] })
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? '')
  }
}

/** Bytes back from a dump's hex tokens: `size`-byte words, little-endian when `swap`. */
function fromHexTokens(text: string, size: number, swap: boolean, tokensPerLine = Number.POSITIVE_INFINITY): string {
  let out = ''
  for (const line of text.split('\n')) {
    const tokens = line
      .trim()
      .split(/\s+/)
      .slice(1, 1 + tokensPerLine)
    for (const t of tokens) {
      if (!/^[0-9a-f]+$/i.test(t) || t.length !== size * 2) continue
      const bytes = t.match(/../g)!.map((b) => Number.parseInt(b, 16))
      out += String.fromCharCode(...(swap ? bytes.reverse() : bytes))
    }
  }
  return out
}
const fromNumbers = (text: string, base: number, skipOffset: boolean) =>
  text
    .split('\n')
    .flatMap((l) =>
      l
        .trim()
        .split(/\s+/)
        .slice(skipOffset ? 1 : 0)
    )
    .filter((t) => t && Number.isFinite(Number.parseInt(t, base)))
    .map((t) => String.fromCharCode(Number.parseInt(t, base) & 255))
    .join('')

/** [name, the command the attacker runs on the secret, how they get it back from what they saw] */
const CASES: Array<[string, string, (seen: string) => string]> = [
  ['plain cat', 'cat', (s) => s],
  ['rev', 'rev', (s) => sh('rev', s)],
  ['xxd', 'xxd', (s) => sh('xxd -r', s)],
  ['xxd -p', 'xxd -p', (s) => sh('xxd -r -p', s)],
  ['xxd -u', 'xxd -u', (s) => sh('xxd -r', s)],
  ['xxd -c 4', 'xxd -c 4', (s) => sh('xxd -r', s)],
  ['xxd -c 3 -g 1', 'xxd -c 3 -g 1', (s) => sh('xxd -r', s)],
  ['rev | xxd -p', 'rev | xxd -p', (s) => sh('xxd -r -p | rev', s)],
  ['od -x', 'od -x', (s) => fromHexTokens(s, 2, true)],
  ['od -x -w4', 'od -x -w4', (s) => fromHexTokens(s, 2, true)],
  ['od -t x4', 'od -t x4', (s) => fromHexTokens(s, 4, true)],
  ['od -An -tx1', 'od -An -tx1', (s) => fromHexTokens(` ${s.replace(/\n/g, '\n ')}`.replace(/^ /gm, '0 '), 1, false)],
  ['od -c', 'od -c', (s) => s.replace(/^\d+/gm, '').replace(/\s+/g, '')],
  ['od -b', 'od -b', (s) => fromNumbers(s, 8, true)],
  ['od -An -tu1', 'od -An -tu1', (s) => fromNumbers(s, 10, false)],
  ['hexdump -C', 'hexdump -C', (s) => fromHexTokens(s, 1, false, 16)],
  ['hexdump', 'hexdump', (s) => fromHexTokens(s, 2, true)],
  ['percent-encoded', "xxd -p | tr -d '\\n' | sed 's/../%&/g'", (s) => decodeURIComponent(s.replace(/%(?![0-9a-f]{2})/gi, ''))],
  ['base64', 'base64', (s) => sh('base64 -di', s)],
  ['base64 after a byte', 'printf x; cat | base64 -w 0', (s) => sh('base64 -di', s)],
  ['base64 of rev', 'rev | base64', (s) => sh('base64 -di | rev', s)],
  ['base32', 'base32', (s) => sh('base32 -di', s)],
  ['basenc base16', 'basenc --base16', (s) => sh('basenc -di --base16', s)],
  ['fold -w 5', 'fold -w 5', (s) => s.replace(/\n/g, '')],
  ['fold -w 1', 'fold -w 1', (s) => s.replace(/\n/g, '')],
  ['fold | cat -n', 'fold -w 6 | cat -n', (s) => s.replace(/^\s*\d+\t/gm, '').replace(/\n/g, '')],
  ['spaces between', "sed 's/./& /g'", (s) => s.replace(/ /g, '')],
  ['dashes between', "sed 's/./&-/g'", (s) => s.replace(/-(.)/g, '$1')],
  ['a JSON array of characters', 'jq -R \'split("")\'', (s) => s.replace(/[\s",[\]]/g, '')],
  ['upper case', "tr 'a-z' 'A-Z'", (s) => s],
  ['rot13', "tr 'A-Za-z' 'N-ZA-Mn-za-m'", (s) => sh("tr 'A-Za-z' 'N-ZA-Mn-za-m'", s)],
  ['ANSI colour every 3', "sed 's/.../\\x1b[31m&\\x1b[0m/g'", (s) => s.replace(/\x1b\[[0-9;]*m/g, '')]
]

/** A piece of the secret's body the attacker got back (8 characters, case aside), or null. */
function recovered(text: string, secret: string): string | null {
  const body = secret.replace(/^(sk-ant-api03-|ghp_)/, '').toLowerCase()
  const t = text.toLowerCase()
  for (let i = 0; i + 8 <= body.length; i++) if (t.includes(body.slice(i, i + 8))) return body.slice(i, i + 8)
  return null
}

beforeAll(() => {
  registerSecret(KEY)
  registerSecret(TOKEN)
  registerSecret(LETTERS_KEY)
})
let played = 0
let escaped = 0
afterAll(() => {
  clearSecrets()
  console.log(`[attacks] redaction of transformed secrets: ${played} cases, ${escaped} escapes`)
})

/** Counts the case, and whether a piece came back. */
function judged(text: string, secret: string): string | null {
  played++
  const piece = recovered(text, secret)
  if (piece) escaped++
  return piece
}

describe('a registered secret reshaped by a command is redacted', () => {
  for (const [label, secret] of [
    ['key', KEY],
    ['token', TOKEN],
    ['key without a digit', LETTERS_KEY]
  ]) {
    it.each(CASES)(`${label}: %s`, (_name, command, back) => {
      const seen = redactText(sh(command, `${secret}\n`))
      expect(judged(back(seen), secret)).toBeNull()
      expect(recovered(seen, secret)).toBeNull()
    })
  }

  it.each([
    ['cut halves', ['cut -c1-20', 'cut -c21-']],
    ['cut in thirds', ['cut -c1-14', 'cut -c15-28', 'cut -c29-']],
    ['head -c and tail -c', ['head -c 20', 'tail -c +21']],
    ['awk substr', ["awk '{print substr($0,1,16)}'", "awk '{print substr($0,17)}'"]],
    ['split into files', ['split -b 12 - /tmp/pmr-split-$$- && for f in /tmp/pmr-split-$$-*; do echo "== $f"; cat "$f"; echo; rm -f "$f"; done']],
    ['xxd of a half', ['head -c 24 | xxd', 'tail -c +25 | xxd']]
  ])('%s: each output alone, and all of them joined', (_name, commands) => {
    const seen = commands.map((c) => redactText(sh(c, `${KEY}\n`)))
    for (const s of seen) expect(recovered(s.replace(/\s/g, ''), KEY)).toBeNull()
    expect(judged(seen.join('').replace(/\s|==\s\S+/g, ''), KEY)).toBeNull()
  })

  it('the same in an error an endpoint echoed, with its JSON around it', () => {
    const reversed = [...KEY].reverse().join('')
    const body = `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ${reversed.slice(0, 25)}…"}}`
    expect(judged([...redactText(body)].reverse().join(''), KEY)).toBeNull()
  })

  it('a credential-named value that is a path or a word is hidden whole, never in pieces (paths stay readable)', () => {
    registerSecret('/home/someone/.password-store')
    registerSecret('correcthorsebatterystaple')
    expect(redactText('ls /home/someone/.password-store')).toBe('ls [REDACTED]')
    expect(redactText('/home/someone/projects/app/src/main.ts')).toBe('/home/someone/projects/app/src/main.ts')
    expect(redactText('the correcthorse battery')).toBe('the correcthorse battery')
  })

  it('leaves ordinary output alone: dumps, hashes, prose, code', () => {
    const texts = [
      sh('printf "hello world, this is a README with TODO items\\n" | xxd', ''),
      sh('seq 1 200 | od -x | head -20', ''),
      sh('head -c 600 /dev/zero | base64', ''),
      'commit 3f9a1c2e8b7d6f5a4c3b2a1908f7e6d5c4b3a291\nAuthor: t <t@t>\n\n    Fix the parser (closes #12)\n',
      'export const a = 1 // TODO word\nfunction lengthCheck(x: string) { return x.length > 8 }\n',
      // Code that handles keys names their public prefix: it stays readable.
      "if (key.startsWith('sk-ant-api03-') || token.startsWith('ghp_')) return 'skantapi03 prefix'\n",
      `${'0123456789abcdef'.repeat(40)}\n`
    ]
    for (const t of texts) expect(redactText(t)).toBe(t)
  })
})

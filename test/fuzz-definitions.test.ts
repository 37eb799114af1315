// Fuzz: thousands of mutated agent files — cut, byte-flipped, huge, deeply nested, alias bombs, binary —
// must never crash or hang the loader, and each must either load or say why not. Deterministic: the seed
// is printed and can be replayed with FANOUT_FUZZ_SEED.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AgentSource } from '../src/shared/agent-definition'
import { defaultBuiltinDir, loadAgents, parseAgentMarkdown } from '../src/main/runtime/definitions'
import { seededRandom } from './support/seeded-random'

const SEED = Number(process.env.FANOUT_FUZZ_SEED ?? 20240611)
const CASES = 3000

const HANDMADE = [
  '---\nname: a\ndescription: Use it. Examples: <example>Context: x</example>\\nmore\ntools: Read, Bash(git:*)\nmodel: sonnet\n---\nPrompt\n',
  '---\nname: b\ndescription: |\n  Block text\n  more\ntools:\n  - Read\n  - Grep\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks: [{type: command, command: echo}]\n---\nBody\n',
  '---\r\nname: c\r\ndescription: >\r\n  folded\r\nanchor: &x [a, b]\r\nother: *x\r\n---\r\nBody\r\n'
]

function seeds(): string[] {
  const out = [...HANDMADE]
  const builtin = defaultBuiltinDir()
  for (const f of readdirSync(builtin)) out.push(readFileSync(join(builtin, f), 'utf8'))
  const corpus = resolve(__dirname, '../../shared/corpus/agents')
  if (existsSync(corpus)) {
    for (const dir of readdirSync(corpus).slice(0, 21)) {
      for (const f of readdirSync(join(corpus, dir)).slice(0, 4)) out.push(readFileSync(join(corpus, dir, f), 'utf8'))
    }
  }
  return out
}

type Mutation = (text: string, r: () => number) => string | Uint8Array
const pick = <T>(xs: readonly T[], r: () => number): T => xs[Math.floor(r() * xs.length)]
const at = (text: string, r: () => number): number => Math.floor(r() * (text.length + 1))
const SPECIAL = [
  ':',
  ': ',
  '#',
  '&a',
  '*a',
  '!',
  '|',
  '>',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '\n',
  '\r\n',
  '\t',
  '---',
  '\n---\n',
  '- ',
  '? ',
  '\\n',
  '\uFEFF',
  '\u2028',
  '\0',
  '%YAML 1.2\n',
  '<<: *a\n'
]

const MUTATIONS: Record<string, Mutation> = {
  cut: (t, r) => t.slice(0, at(t, r)),
  cutMiddle: (t, r) => {
    const a = at(t, r)
    return t.slice(0, a) + t.slice(a + Math.floor(r() * 200))
  },
  flipBytes: (t, r) => {
    const bytes = new TextEncoder().encode(t)
    for (let i = 0, n = 1 + Math.floor(r() * 8); i < n && bytes.length; i++) bytes[Math.floor(r() * bytes.length)] = Math.floor(r() * 256)
    return bytes
  },
  insertSpecial: (t, r) => {
    let s = t
    for (let i = 0, n = 1 + Math.floor(r() * 5); i < n; i++) {
      const p = at(s, r)
      s = s.slice(0, p) + pick(SPECIAL, r) + s.slice(p)
    }
    return s
  },
  duplicateLines: (t, r) => {
    const lines = t.split('\n')
    const i = Math.floor(r() * lines.length)
    lines.splice(i, 0, ...lines.slice(i, i + 1 + Math.floor(r() * 3)))
    return lines.join('\n')
  },
  shuffleLines: (t, r) => {
    const lines = t.split('\n').slice(0, 12)
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1))
      ;[lines[i], lines[j]] = [lines[j], lines[i]]
    }
    return lines.join('\n')
  },
  deepFlow: (_t, r) => {
    const n = 10 + Math.floor(r() * 20_000)
    return `---\nname: deep\ndescription: d\ntools: ${'['.repeat(n)}${r() < 0.5 ? ']'.repeat(n) : ''}\n---\n`
  },
  deepIndent: (_t, r) => {
    let s = '---\nname: deep\ndescription: d\nhooks:\n'
    for (let i = 1, n = 10 + Math.floor(r() * 400); i < n; i++) s += `${' '.repeat(i)}k${i}:\n`
    return `${s}---\n`
  },
  deepCompact: (_t, r) => `---\nname: deep\ndescription: d\ntools: \n${'- '.repeat(10 + Math.floor(r() * 2000))}x\n---\n`,
  aliasBomb: (_t, r) => {
    let s = '---\nname: bomb\ndescription: d\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n'
    const levels = 2 + Math.floor(r() * 10)
    for (let i = 1; i < levels; i++)
      s += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`
    return `${s}---\n`
  },
  manyKeys: (_t, r) => `---\nname: many\ndescription: d\n${Array.from({ length: 1000 + Math.floor(r() * 20_000) }, (_, i) => `k${i}: v`).join('\n')}\n---\n`,
  huge: (t, r) => (r() < 0.5 ? t + 'x'.repeat(1024 * 1024) : t.replace('description:', `description: ${'y '.repeat(70_000)}`)),
  binary: (_t, r) => Uint8Array.from({ length: Math.floor(r() * 4096) }, () => Math.floor(r() * 256)),
  binaryFrontmatter: (_t, r) => `---\n${String.fromCharCode(...Array.from({ length: 300 }, () => Math.floor(r() * 0x3000)))}\n---\n`
}

const decode = (x: string | Uint8Array): string => (typeof x === 'string' ? x : new TextDecoder().decode(x))
const SOURCES: AgentSource[] = ['project', 'user', 'plugin', 'managed', 'built-in']
const tmp = mkdtempSync(join(tmpdir(), 'fanout-fuzz-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('fuzzing the agent loader', () => {
  it(`parses ${CASES} mutated files without crashing; each loads or says why not`, () => {
    const r = seededRandom(SEED)
    const base = seeds()
    // Big inputs (up to the size caps) take tens of milliseconds each: a few of them prove the point.
    const heavy = new Set(['manyKeys', 'huge'])
    const names = Object.keys(MUTATIONS).flatMap((m) => (heavy.has(m) ? [m] : Array(12).fill(m)))
    const counts = { loaded: 0, refused: 0 }
    let slowest = { ms: 0, mutation: '' }
    const bad: string[] = []
    for (let i = 0; i < CASES; i++) {
      const mutation = pick(names, r)
      let input: string | Uint8Array = pick(base, r)
      // Sometimes stack two mutations, so damage compounds.
      input = MUTATIONS[mutation](decode(input), r)
      if (r() < 0.3) input = MUTATIONS[pick(['cut', 'flipBytes', 'insertSpecial'], r)](decode(input), r)
      const text = decode(input)
      const source = pick(SOURCES, r)
      const file = `/fuzz/case-${i}.md`
      const started = performance.now()
      let result: ReturnType<typeof parseAgentMarkdown>
      try {
        result = parseAgentMarkdown(text, file, source, source === 'plugin' ? { plugin: 'p' } : {})
      } catch (err) {
        throw new Error(`case ${i} (${mutation}, seed ${SEED}) crashed the parser: ${String(err)}`, { cause: err })
      }
      const ms = performance.now() - started
      if (ms > slowest.ms) slowest = { ms, mutation }
      if (result.definition) counts.loaded++
      else counts.refused++
      if (!result.definition && !result.diagnostics.some((d) => d.severity === 'error')) bad.push(`case ${i} (${mutation}): neither loaded nor explained`)
      // Plain checks, not expect(): a case can carry hundreds of diagnostics.
      const wrong = result.diagnostics.find((d) => d.file !== file || !(d.line >= 1) || !(d.column >= 1) || d.message.length < 10)
      if (wrong) bad.push(`case ${i} (${mutation}): malformed diagnostic ${JSON.stringify(wrong)}`)
    }
    console.log(
      `fuzz (seed ${SEED}): ${CASES} files, ${counts.loaded} loaded, ${counts.refused} refused with a diagnostic; slowest ${slowest.ms.toFixed(1)} ms (${slowest.mutation})`
    )
    expect(bad).toEqual([])
    expect(counts.loaded).toBeGreaterThan(CASES / 10)
    expect(counts.refused).toBeGreaterThan(CASES / 10)
  })

  it('loads a folder of damaged files from disk: every file is loaded or has an error diagnostic', async () => {
    const r = seededRandom(SEED + 1)
    const base = seeds()
    const dir = join(tmp, 'project/.claude/agents')
    mkdirSync(dir, { recursive: true })
    const files: string[] = []
    for (let i = 0; i < 300; i++) {
      const mutation = pick(['cut', 'flipBytes', 'insertSpecial', 'binary', 'duplicateLines', 'binaryFrontmatter'], r)
      const out = MUTATIONS[mutation](pick(base, r), r)
      const file = join(dir, `f${i}.md`)
      writeFileSync(file, out)
      files.push(file)
    }
    const { agents, diagnostics } = await loadAgents({ cwd: join(tmp, 'project'), home: join(tmp, 'home'), builtinDir: join(tmp, 'none') })
    const loaded = new Set<string>()
    for (const a of agents) for (const f of [a.definition.file, ...a.shadows.map((s) => s.file)]) if (f) loaded.add(f)
    const explained = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file))
    expect(files.filter((f) => !loaded.has(f) && !explained.has(f))).toEqual([])
  })
})

// The agent editor against ~590 real agent files (../shared/corpus, as test/corpus.test.ts finds it). For
// every file, through the same service the UI calls:
//   - open, re-apply every form value as read, save: the file is byte-identical;
//   - change one field (model, tools, description): the diff touches only that field's lines, the field
//     reads back as set, and every other key and the prompt read as before;
//   - a file with a one-click repair loads after it, with the same name, description, tools and prompt as
//     the loader read before (or, for a file that did not load, its whole text as the prompt).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { EditorFieldKey, FieldChange, FieldValue } from '../src/shared/agent-editor'
import { AgentEditorService } from '../src/main/runtime/agent-editor'
import { formatToolsForListing, parseAgentMarkdown } from '../src/main/runtime/definitions'

const corpus = process.env.FANOUT_CORPUS_DIR ?? resolve(__dirname, '../../shared/corpus')
const agentsDir = join(corpus, 'agents')
const haveCorpus = existsSync(agentsDir)

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? walk(p) : /\.md$/i.test(name) ? [p] : []
  })
}

const tmp = mkdtempSync(join(tmpdir(), 'fanout-editor-corpus-'))
const home = join(tmp, 'home')
const project = join(tmp, 'project')
const folder = join(project, '.claude', 'agents')
mkdirSync(folder, { recursive: true })
mkdirSync(home, { recursive: true })
const service = new AgentEditorService({ home })
afterAll(() => {
  service.close()
  rmSync(tmp, { recursive: true, force: true })
})

/** The changed line range of `before` (0-based, end exclusive) between their common prefix and suffix. */
function changedLines(before: string, after: string): { from: number; to: number } {
  const a = before.split('\n')
  const b = after.split('\n')
  let p = 0
  while (p < a.length && p < b.length && a[p] === b[p]) p++
  let s = 0
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++
  return { from: p, to: a.length - s }
}

function readBack(text: string, file: string) {
  const parsed = parseAgentMarkdown(text, file, 'project')
  return {
    def: parsed.definition,
    raw: parsed.definition?.frontmatter ?? {},
    errors: parsed.diagnostics.filter((d) => d.severity === 'error'),
    repaired: parsed.diagnostics.some((d) => d.code === 'yaml-repaired')
  }
}

function otherChange(key: EditorFieldKey, current: FieldValue | undefined): FieldValue {
  if (key === 'model') return current === 'opus' ? 'haiku' : 'opus'
  if (key === 'tools') return JSON.stringify(current) === JSON.stringify(['Read', 'Grep']) ? ['Read'] : ['Read', 'Grep']
  return `${String(current ?? '')} (edited)`.trim()
}

describe.skipIf(!haveCorpus)('agent editor on the Claude Code corpus', () => {
  const files = haveCorpus ? walk(agentsDir) : []
  const installed = files.map((src, i) => {
    const file = join(folder, `${String(i).padStart(3, '0')}-${basename(src)}`)
    writeFileSync(file, readFileSync(src))
    return file
  })

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThan(500)
  })

  // 591 saves, each written whole and fsynced before its rename (atomic-file.ts): 10-20 s on a loaded disk, so the
  // test has a limit for that much work rather than the default 30 s.
  it('opens and saves every file without edits byte for byte, even after re-applying every form value', async () => {
    const differ: string[] = []
    for (const file of installed) {
      const original = readFileSync(file)
      const doc = await service.open({ cwd: project, file })
      expect(doc.text).toBe(original.toString('utf8'))
      const changes: FieldChange[] = Object.entries(doc.analysis.fields).map(([key, value]) => ({ key: key as EditorFieldKey, value: value! }))
      const edited = service.edit({ cwd: project, file, text: doc.text, changes })
      if (doc.analysis.formEditable) expect(edited.error, file).toBeUndefined()
      const text = doc.analysis.formEditable ? edited.text : doc.text
      const saved = await service.save({ cwd: project, file, text, base: doc.version })
      expect(saved.saved, file).toBe(true)
      if (!readFileSync(file).equals(original)) differ.push(file)
    }
    expect(differ).toEqual([])
  }, 180_000)

  it.each(['model', 'tools', 'description'] as const)('changes only the lines of `%s` in every editable file', async (key) => {
    let checked = 0
    for (const file of installed) {
      let text = readFileSync(file, 'utf8')
      let analysis = service.analyze({ cwd: project, file, text })
      if (analysis.repair) {
        // Editing a file that loads only after Claude Code's quoting makes the same repair first.
        const direct = analysis.formEditable
          ? service.edit({ cwd: project, file, text, changes: [{ key, value: otherChange(key, analysis.fields[key]) }] })
          : null
        ;({ text, analysis } = service.repair({ cwd: project, file, text }))
        if (direct)
          expect(direct.text, `${file}: an edit repairs as Fix it does`).toBe(
            service.edit({ cwd: project, file, text, changes: [{ key, value: otherChange(key, analysis.fields[key]) }] }).text
          )
      }
      if (!analysis.formEditable) continue
      const before = readBack(text, file)
      const value = otherChange(key, analysis.fields[key])
      const edited = service.edit({ cwd: project, file, text, changes: [{ key, value }] })
      expect(edited.error, file).toBeUndefined()
      const span = analysis.keySpans[key]
      const { from, to } = changedLines(text, edited.text)
      if (span) {
        // Lines of the pair, 0-based: the diff stays inside them.
        expect(from, file).toBeGreaterThanOrEqual(span.line - 1)
        expect(to, file).toBeLessThanOrEqual(span.endLine)
      } else {
        expect(to - from, `${file}: a new key only inserts lines`).toBe(0)
      }
      const after = readBack(edited.text, file)
      expect(after.errors, file).toEqual([])
      expect(after.repaired, file).toBe(false)
      expect(edited.analysis.fields[key], file).toEqual(value)
      for (const k of Object.keys(before.raw)) if (k !== key) expect(after.raw[k], `${file}: ${k}`).toEqual(before.raw[k])
      expect(after.def?.systemPrompt, file).toBe(before.def?.systemPrompt)
      checked++
    }
    expect(checked).toBeGreaterThan(550)
  })

  it('repairs every file that needs it so it loads as valid YAML with the same name, description, tools and prompt', () => {
    let repaired = 0
    for (const file of installed) {
      const text = readFileSync(file, 'utf8')
      const analysis = service.analyze({ cwd: project, file, text })
      if (!analysis.repair) continue
      const before = readBack(text, file)
      const fixed = service.repair({ cwd: project, file, text })
      expect(fixed.changes.length, file).toBeGreaterThan(0)
      const after = readBack(fixed.text, file)
      expect(after.errors, file).toEqual([])
      expect(after.repaired, `${file} loads without Claude Code's repair`).toBe(false)
      expect(fixed.analysis.formEditable, file).toBe(true)
      if (before.def) {
        expect(after.def!.agentType, file).toBe(before.def.agentType)
        expect(after.def!.whenToUse, file).toBe(before.def.whenToUse)
        expect(formatToolsForListing(after.def!), file).toBe(formatToolsForListing(before.def))
        expect(after.def!.systemPrompt, file).toBe(before.def.systemPrompt)
      } else {
        // It did not load at all: now it does, and all of its text is the prompt.
        expect(after.def!.systemPrompt, file).toBe(text.trim())
      }
      repaired++
    }
    // 21 files load only after Claude Code's quoting, 4 have no frontmatter.
    expect(repaired).toBeGreaterThanOrEqual(25)
  })
})

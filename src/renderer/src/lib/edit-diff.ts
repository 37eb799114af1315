// What an edit tool call would change, as the two texts a diff shows: Edit and MultiEdit as the replaced
// strings; Write over an existing file against the text it replaces (the request carries it while it asks,
// the tool's patch once it ran), else as its whole content, all added; NotebookEdit as the cell's new
// source. Null for any other tool, or input not yet complete enough to show.

export interface EditDiff {
  path: string
  oldText: string
  newText: string
  /** "whole file" (Write), "3 edits" (MultiEdit), "cell 2: insert" (NotebookEdit). */
  note?: string
  /** Lines removed and added (a line count of each side, not a minimal diff: enough to say how large it is). */
  removed: number
  added: number
}

/** Edit tools whose permission cards and transcript rows show a diff. */
export const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit'])

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

const lineCount = (text: string): number => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length)

function counted(path: string, oldText: string, newText: string, note?: string): EditDiff {
  return { path, oldText, newText, ...(note ? { note } : {}), removed: lineCount(oldText), added: lineCount(newText) }
}

/** Separates the old/new strings of several edits in one diff, so each reads as its own stretch. */
const SEPARATOR = '\n…\n'

/** What an overwriting Write is compared with: the file's text when it asked, or the patch it made (its details). */
export interface WriteBefore {
  previousText?: string
  details?: unknown
}

/** Lines removed and added between two texts, past the lines they share at the start and the end. */
function changedLines(oldText: string, newText: string): { removed: number; added: number } {
  const a = oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n')
  const b = newText === '' ? [] : newText.replace(/\n$/, '').split('\n')
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  return { removed: a.length - head - tail, added: b.length - head - tail }
}

interface Hunk {
  lines: string[]
}

/** A Write's patch (tools/write.ts details: `{ kind: 'update', patch: { hunks, additions, deletions } }`) as two texts. */
function fromPatch(path: string, details: unknown): EditDiff | null {
  const d = details as { kind?: unknown; patch?: { hunks?: unknown; additions?: unknown; deletions?: unknown } } | undefined
  if (d?.kind !== 'update' || !Array.isArray(d.patch?.hunks)) return null
  const hunks = (d.patch.hunks as Hunk[]).filter((h) => Array.isArray(h?.lines))
  const side = (keep: string) =>
    hunks
      .map((h) =>
        h.lines
          .filter((l) => l[0] === ' ' || l[0] === keep)
          .map((l) => l.slice(1))
          .join('\n')
      )
      .join(SEPARATOR)
  const removed = typeof d.patch.deletions === 'number' ? d.patch.deletions : 0
  const added = typeof d.patch.additions === 'number' ? d.patch.additions : 0
  return { path, oldText: side('-'), newText: side('+'), note: 'overwrote the file', removed, added }
}

export function editDiffOf(toolName: string, input: unknown, before: WriteBefore = {}): EditDiff | null {
  if (!EDIT_TOOLS.has(toolName) || !input || typeof input !== 'object') return null
  const o = input as Record<string, unknown>
  switch (toolName) {
    case 'Edit': {
      const path = str(o.file_path)
      const oldText = str(o.old_string)
      const newText = str(o.new_string)
      if (path === undefined || oldText === undefined || newText === undefined) return null
      return counted(path, oldText, newText, o.replace_all === true ? 'every occurrence' : undefined)
    }
    case 'MultiEdit': {
      const path = str(o.file_path)
      if (path === undefined || !Array.isArray(o.edits)) return null
      const edits = o.edits.filter((e): e is Record<string, unknown> => !!e && typeof e === 'object')
      const olds = edits.map((e) => str(e.old_string) ?? '')
      const news = edits.map((e) => str(e.new_string) ?? '')
      const d = counted(path, olds.join(SEPARATOR), news.join(SEPARATOR), `${edits.length} edits`)
      return { ...d, removed: olds.reduce((n, t) => n + lineCount(t), 0), added: news.reduce((n, t) => n + lineCount(t), 0) }
    }
    case 'Write': {
      const path = str(o.file_path)
      const content = str(o.content)
      if (path === undefined || content === undefined) return null
      const ran = fromPatch(path, before.details)
      if (ran) return ran
      if (before.previousText !== undefined)
        return { path, oldText: before.previousText, newText: content, note: 'replaces the whole file', ...changedLines(before.previousText, content) }
      return counted(path, '', content, 'whole file')
    }
    case 'NotebookEdit': {
      const path = str(o.notebook_path)
      if (path === undefined) return null
      const mode = str(o.edit_mode) ?? 'replace'
      const cell = str(o.cell_id)
      const note = `${cell ? `cell ${cell}` : 'new first cell'}: ${mode}`
      return counted(path, '', mode === 'delete' ? '' : (str(o.new_source) ?? ''), note)
    }
  }
  return null
}

/** Diffs longer than this many lines (both sides) start collapsed behind their count. */
export const LARGE_DIFF_LINES = 40

// Unified-diff style hunks for the UI (Edit/Write `details`), computed from the replacements actually made,
// so it costs O(size of the change), not a full diff of the file.

export interface PatchHunk {
  oldStart: number // 1-based
  oldLines: number
  newStart: number
  newLines: number
  /** Each line prefixed with ' ', '-' or '+'. */
  lines: string[]
}

export interface PatchSummary {
  hunks: PatchHunk[]
  additions: number
  deletions: number
  /** True when hunks were cut to keep details small. */
  truncated: boolean
}

export interface Replacement {
  /** Offset in the old text. */
  index: number
  oldText: string
  newText: string
}

interface Change {
  oldStart: number // 0-based line index in old
  oldLines: string[]
  newStart: number // 0-based line index in new
  newLines: string[]
}

const MAX_DETAIL_LINES = 400

/** Line index of offsets asked in increasing order, counting each newline once (replace_all can make thousands). */
function lineCounter(text: string): (offset: number) => number {
  let pos = 0
  let line = 0
  return (offset) => {
    for (let i = text.indexOf('\n', pos); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++
      pos = i + 1
    }
    return line
  }
}

/** Replacements expanded to whole lines, with lines that did not really change trimmed off both ends. */
function toChanges(before: string, replacements: Replacement[]): Change[] {
  const sorted = [...replacements].sort((a, b) => a.index - b.index)
  const changes: Change[] = []
  const lineIndexAt = lineCounter(before)
  let lineDelta = 0
  let i = 0
  while (i < sorted.length) {
    const regionStart = before.lastIndexOf('\n', sorted[i].index - 1) + 1
    let regionEnd = before.indexOf('\n', sorted[i].index + sorted[i].oldText.length)
    if (regionEnd === -1) regionEnd = before.length
    let j = i + 1
    // Replacements that share a line become one change.
    while (j < sorted.length && sorted[j].index <= regionEnd) {
      const end = before.indexOf('\n', sorted[j].index + sorted[j].oldText.length)
      regionEnd = end === -1 ? before.length : end
      j++
    }
    let newRegion = ''
    let cursor = regionStart
    for (const r of sorted.slice(i, j)) {
      newRegion += before.slice(cursor, r.index) + r.newText
      cursor = r.index + r.oldText.length
    }
    newRegion += before.slice(cursor, regionEnd)
    const oldLines = before.slice(regionStart, regionEnd).split('\n')
    const newLines = newRegion.split('\n')
    // At the end of the text, a final newline ends the last line; it does not start another one.
    if (regionEnd === before.length) {
      if (oldLines[oldLines.length - 1] === '') oldLines.pop()
      if (newLines[newLines.length - 1] === '') newLines.pop()
    }
    let start = lineIndexAt(regionStart)
    while (oldLines.length && newLines.length && oldLines[0] === newLines[0]) {
      oldLines.shift()
      newLines.shift()
      start++
    }
    while (oldLines.length && newLines.length && oldLines[oldLines.length - 1] === newLines[newLines.length - 1]) {
      oldLines.pop()
      newLines.pop()
    }
    if (oldLines.length || newLines.length) {
      changes.push({ oldStart: start, oldLines, newStart: start + lineDelta, newLines })
      lineDelta += newLines.length - oldLines.length
    }
    i = j
  }
  return changes
}

export function patchFromReplacements(before: string, replacements: Replacement[], context = 3): PatchSummary {
  const oldAll = before.split('\n')
  const lastRealLine = before.endsWith('\n') ? oldAll.length - 1 : oldAll.length
  const changes = toChanges(before, replacements)
  const hunks: PatchHunk[] = []
  let additions = 0
  let deletions = 0
  let budget = MAX_DETAIL_LINES
  let truncated = false
  const push = (hunk: PatchHunk, line: string): void => {
    if (line[0] !== '+') hunk.oldLines++
    if (line[0] !== '-') hunk.newLines++
    if (budget-- > 0) hunk.lines.push(line)
    else truncated = true
  }
  let k = 0
  while (k < changes.length) {
    // Changes whose context windows touch share a hunk.
    let last = k
    while (last + 1 < changes.length && changes[last + 1].oldStart - (changes[last].oldStart + changes[last].oldLines.length) <= 2 * context) last++
    const first = changes[k]
    const ctxStart = Math.max(0, first.oldStart - context)
    const hunk: PatchHunk = { oldStart: ctxStart + 1, oldLines: 0, newStart: first.newStart - (first.oldStart - ctxStart) + 1, newLines: 0, lines: [] }
    let cursor = ctxStart
    for (const c of changes.slice(k, last + 1)) {
      for (; cursor < c.oldStart; cursor++) push(hunk, ` ${oldAll[cursor]}`)
      for (const l of c.oldLines) push(hunk, `-${l}`)
      for (const l of c.newLines) push(hunk, `+${l}`)
      deletions += c.oldLines.length
      additions += c.newLines.length
      cursor = c.oldStart + c.oldLines.length
    }
    const ctxEnd = Math.min(lastRealLine, cursor + context)
    for (; cursor < ctxEnd; cursor++) push(hunk, ` ${oldAll[cursor]}`)
    // Unified diff convention: an empty side starts at the line before.
    if (hunk.oldLines === 0) hunk.oldStart--
    if (hunk.newLines === 0) hunk.newStart--
    hunks.push(hunk)
    k = last + 1
  }
  return { hunks, additions, deletions, truncated }
}

/** A whole-file rewrite as one change: the common head and tail are kept as context. */
export function patchFromTexts(before: string, after: string, context = 3): PatchSummary {
  if (before === '') {
    const lines = after.split('\n')
    if (after.endsWith('\n')) lines.pop()
    const shown = lines.slice(0, MAX_DETAIL_LINES).map((l) => `+${l}`)
    const hunks = lines.length ? [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines.length, lines: shown }] : []
    return { hunks, additions: lines.length, deletions: 0, truncated: lines.length > MAX_DETAIL_LINES }
  }
  let head = 0
  const max = Math.min(before.length, after.length)
  while (head < max && before[head] === after[head]) head++
  let tail = 0
  while (tail < max - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++
  return patchFromReplacements(
    before,
    [{ index: head, oldText: before.slice(head, before.length - tail), newText: after.slice(head, after.length - tail) }],
    context
  )
}

/** The hunks as unified-diff text (for transcripts, logs and tests). */
export function formatPatch(summary: PatchSummary): string {
  return summary.hunks.map((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines].join('\n')).join('\n')
}

// Edit: exact string replacement. Failure messages say exactly what went wrong and what to do next
// (how many matches, where), because the model's next call depends on them.
import { REDACTED } from '../../../shared/redact'
import { stat } from 'node:fs/promises'
import { z } from 'zod'
import { toolInput } from './define-tool'
import { fileTool, heldByPlaceholder } from './file-tool'
import { numberLine } from './read'
import { patchFromReplacements, type PatchHunk, type Replacement } from './text-patch'
import { currentText, notRegular, writeAndRecord } from './write'

const schema = toolInput('Edit', () =>
  z.object({
    file_path: z.string().min(1).describe('The path of the file to modify (absolute, or relative to the working directory)'),
    old_string: z.string().describe('The exact text to replace'),
    new_string: z.string().describe('The text to replace it with (must differ from old_string)'),
    replace_all: z.boolean().optional().default(false).describe('Replace every occurrence of old_string')
  })
)

function findAll(haystack: string, needle: string): number[] {
  const out: number[] = []
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) out.push(i)
  return out
}

function lineOf(text: string, offset: number): number {
  let n = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++
  return n
}

const LINE_PREFIX = /^\s*\d+\t/

function notFoundHint(content: string, oldString: string): string {
  // Read showed a credential as [REDACTED] (shared/redact.ts); the file holds the real value.
  if (oldString.includes(REDACTED) && !content.includes(REDACTED))
    return ` ${REDACTED} in what you read stands for a credential Fanout hides from you; the file has the real value there. Choose an old_string that leaves that part out (edit the lines around it).`
  const lines = oldString.split('\n')
  if (lines.some((l) => LINE_PREFIX.test(l)) && lines.every((l) => l === '' || LINE_PREFIX.test(l))) {
    const stripped = lines.map((l) => l.replace(LINE_PREFIX, '')).join('\n')
    return content.includes(stripped)
      ? ' old_string includes the line-number prefixes Read shows (number and tab); without them it matches, so remove them.'
      : ' old_string seems to include the line-number prefixes Read shows (number and tab); remove them and copy the text exactly.'
  }
  const firstLine = lines.find((l) => l.trim() !== '')?.trim()
  if (firstLine && content.includes(firstLine))
    return ` Its first line "${firstLine.slice(0, 80)}" does occur (line ${lineOf(content, content.indexOf(firstLine))}); the difference is in the lines after it or in whitespace. Read that part again and copy it exactly.`
  return ' Read the file again and copy the text exactly, including whitespace and indentation.'
}

/** The new text around the first change, numbered, so the model sees the result without another Read. */
function snippet(after: string, hunk: PatchHunk | undefined): string {
  if (!hunk) return ''
  const lines = after.split('\n')
  const start = Math.max(1, hunk.newStart)
  const end = Math.min(lines.length, start + Math.min(hunk.newLines, 30) - 1)
  const rows: string[] = []
  for (let n = start; n <= end; n++) rows.push(numberLine(lines[n - 1], n))
  return rows.length ? `\nHere is the edited part of the file:\n${rows.join('\n')}` : ''
}

export const EDIT_TOOL = fileTool({ name: 'Edit', readOnly: false, concurrencySafe: false, permission: 'edit' }, () => ({
  description: [
    'Performs an exact string replacement in a file. Read the file first in this conversation.',
    'old_string must match the file exactly (whitespace and indentation included; never the line-number prefix Read shows) and be unique in the file,',
    'unless replace_all is true. Add surrounding lines to old_string to make it unique.',
    'An empty old_string on a missing (or empty) file creates it with new_string.'
  ].join('\n'),
  schema,
  pathField: 'file_path',
  access: ['write', 'read'],
  async execute(input, file) {
    const { abs, shown, fileState } = file
    if (input.old_string === input.new_string) return { content: 'No changes to make: old_string and new_string are exactly the same.', isError: true }
    const { placeholder, refusal: held } = heldByPlaceholder(file)
    if (held) return held
    const info = placeholder ? null : await stat(file.real).catch(() => null)
    if (info?.isDirectory()) return { content: `${shown} is a directory, not a file.`, isError: true }
    const odd = notRegular(info, shown)
    if (odd) return { content: odd, isError: true }
    if (!info) {
      if (input.old_string !== '')
        return { content: `File does not exist: ${shown}. To create it, use Write (or Edit with an empty old_string).`, isError: true }
      await writeAndRecord(fileState, file, input.new_string)
      const patch = patchFromReplacements('', [{ index: 0, oldText: '', newText: input.new_string }])
      return {
        content: `Created ${shown}.`,
        details: { filePath: abs, created: true, replacements: 1, ...patch },
        response: editResponse(abs, input, '', patch.hunks)
      }
    }
    const refusal = await fileState.checkWritable(abs, shown, file.real)
    if (refusal) return { content: refusal, isError: true }
    const before = await currentText(file)
    let oldString = input.old_string
    let newString = input.new_string
    let matches: number[]
    if (oldString === '') {
      if (before.trim() !== '')
        return {
          content: `old_string is empty but ${shown} already has content. Give the exact text to replace, or use Write to replace the whole file.`,
          isError: true
        }
      oldString = before // a blank file is filled in
      matches = [0]
    } else matches = findAll(before, oldString)
    if (matches.length === 0 && before.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
      // Read shows CRLF files without the \r; match and write back in the file's own line endings.
      oldString = oldString.replace(/\n/g, '\r\n')
      newString = newString.replace(/\r?\n/g, '\r\n')
      matches = findAll(before, oldString)
    }
    if (matches.length === 0) return { content: `old_string was not found in ${shown}.${notFoundHint(before, input.old_string)}`, isError: true }
    if (matches.length > 1 && !input.replace_all) {
      const where = matches.slice(0, 10).map((m) => lineOf(before, m))
      return {
        content: `Found ${matches.length} matches of old_string in ${shown} (at lines ${where.join(', ')}${matches.length > 10 ? ', …' : ''}), but replace_all is false. Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to replace all ${matches.length}.`,
        isError: true
      }
    }
    const replacements: Replacement[] = matches.map((index) => ({ index, oldText: oldString, newText: newString }))
    let after = ''
    let cursor = 0
    for (const r of replacements) {
      after += before.slice(cursor, r.index) + r.newText
      cursor = r.index + r.oldText.length
    }
    after += before.slice(cursor)
    await writeAndRecord(fileState, file, after)
    const patch = patchFromReplacements(before, replacements)
    const count = replacements.length
    return {
      content: `The file ${shown} has been updated (${count} replacement${count === 1 ? '' : 's'}; +${patch.additions} -${patch.deletions}).${snippet(after, patch.hunks[0])}`,
      details: { filePath: abs, replacements: count, ...patch },
      response: editResponse(abs, input, before, patch.hunks)
    }
  }
}))

/** Edit, built for one agent alone (tests; the registry builds them all). */
export const createEditTool = EDIT_TOOL.create

/** The call as Claude Code's PostToolUse hooks receive it. */
function editResponse(
  filePath: string,
  input: { old_string: string; new_string: string; replace_all?: boolean },
  originalFile: string,
  structuredPatch: unknown[]
): Record<string, unknown> {
  return {
    filePath,
    oldString: input.old_string,
    newString: input.new_string,
    originalFile,
    structuredPatch,
    userModified: false,
    replaceAll: input.replace_all === true
  }
}

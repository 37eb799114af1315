// Read: numbered lines (cat -n style) so the model can cite and edit precisely; records what it saw so
// Write/Edit can insist on read-before-write.
import { readdir, stat } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import { z } from 'zod'
import { toolInput } from './define-tool'
import { kindOf, openRegular, readBounded } from '../security/open-beneath'
import { placeholderAt } from '../security/placeholders'
import { fileTool } from './file-tool'
import type { ToolOptions } from './tool-options'

export const READ_DEFAULT_LIMIT = 2000
export const READ_MAX_LINE_CHARS = 2000
/** Without offset/limit, larger files are refused with advice (whole-file reads that big flood the context). */
export const READ_MAX_WHOLE_FILE_BYTES = 256 * 1024
export const READ_MAX_FILE_BYTES = 50 * 1024 * 1024
/** Output budget: past it, fewer lines are shown and the model is told the offset to continue from. */
export const READ_MAX_OUTPUT_CHARS = 100_000

const IMAGE_TYPES: Record<string, string> = { '.png': 'PNG', '.jpg': 'JPEG', '.jpeg': 'JPEG', '.gif': 'GIF', '.webp': 'WebP', '.bmp': 'BMP', '.ico': 'ICO' }

const schema = toolInput('Read', () =>
  z.object({
    file_path: z.string().min(1).describe('The file to read'),
    offset: z.number().int().min(1).optional().describe('The line number to start reading from (1-based)'),
    limit: z.number().int().min(1).optional().describe(`The number of lines to read (default ${READ_DEFAULT_LIMIT})`)
  })
)

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`
}

function binaryKind(path: string, head: Buffer): string | null {
  const ext = extname(path).toLowerCase()
  if (IMAGE_TYPES[ext]) return `a ${IMAGE_TYPES[ext]} image`
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'a PNG image'
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'a JPEG image'
  if (head.subarray(0, 4).toString('latin1') === '%PDF') return 'a PDF document'
  if (head.subarray(0, 6).toString('latin1').startsWith('GIF8')) return 'a GIF image'
  const probe = head.subarray(0, 8000)
  if (probe.length >= 2 && ((probe[0] === 0xff && probe[1] === 0xfe) || (probe[0] === 0xfe && probe[1] === 0xff))) return null // UTF-16 text
  return probe.includes(0) ? 'a binary file' : null
}

function decode(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le')
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8')
  return bytes.toString('utf8')
}

async function notFoundMessage(abs: string, shown: string, cwd: string): Promise<string> {
  let hint = ''
  try {
    const stem = basename(abs, extname(abs)).toLowerCase()
    const siblings = (await readdir(dirname(abs))).filter((n) => basename(n, extname(n)).toLowerCase() === stem)
    if (siblings.length)
      hint = ` Did you mean ${siblings
        .slice(0, 3)
        .map((n) => join(dirname(shown), n))
        .join(', ')}?`
  } catch {}
  return `File does not exist: ${shown}.${hint} (Working directory: ${cwd})`
}

/** `     1\tline` — cat -n layout, long lines cut so one minified line cannot flood the context. */
export function numberLine(line: string, lineNumber: number): string {
  const text = line.length > READ_MAX_LINE_CHARS ? `${line.slice(0, READ_MAX_LINE_CHARS)}… [line cut: ${line.length} characters]` : line
  return `${String(lineNumber).padStart(6)}\t${text}`
}

/** Numbers lines from `first`, stopping early when the output budget is spent; returns how many fit. */
function numberLines(lines: string[], first: number, budget: number): { text: string; count: number } {
  const out: string[] = []
  let used = 0
  for (let i = 0; i < lines.length; i++) {
    const row = numberLine(lines[i], first + i)
    if (out.length > 0 && used + row.length + 1 > budget) break
    out.push(row)
    used += row.length + 1
  }
  return { text: out.join('\n'), count: out.length }
}

export const READ_TOOL = fileTool({ name: 'Read', readOnly: true, concurrencySafe: true, permission: 'read' }, (opts: ToolOptions) => ({
  description: [
    'Reads a file from the local filesystem and returns its lines numbered like `cat -n` (number, tab, text).',
    'Paths may be absolute or relative to the working directory.',
    `By default up to ${READ_DEFAULT_LIMIT} lines from the start; use offset and limit for long files. Lines longer than ${READ_MAX_LINE_CHARS} characters are cut.`,
    'The line-number prefix is not part of the file: leave it out of Edit old_string.',
    'Read a file before you Write over it or Edit it. It cannot read directories (use Glob or Bash ls) or show images.'
  ].join('\n'),
  schema,
  maxOutputChars: READ_MAX_OUTPUT_CHARS + 500,
  pathField: 'file_path',
  access: ['read'],
  async execute(input, { abs, real, shown, fileState }) {
    const placeholder = placeholderAt(abs)
    if (placeholder) {
      const what = placeholder.kind === 'dir' ? 'an empty folder' : 'an empty file'
      return {
        content: `File does not exist: ${shown}. (What is there now is ${what} the Bash sandbox put in place for ${placeholder.holder}; it goes away when that command ends.)`,
        isError: true
      }
    }
    let info
    try {
      info = await stat(real)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { content: await notFoundMessage(abs, shown, opts.cwd), isError: true }
      throw err
    }
    if (info.isDirectory())
      return { content: `${shown} is a directory, not a file. Use Glob (e.g. pattern "*" with path "${shown}") or Bash ls to list it.`, isError: true }
    if (!info.isFile())
      return {
        content: `${shown} is ${kindOf(info)}, not a regular file: Read reads regular files only (a FIFO or device could block or never end).`,
        isError: true
      }
    if (info.size > READ_MAX_FILE_BYTES)
      return {
        content: `${shown} is ${(info.size / 1048576).toFixed(1)} MB, too large to read. Use Grep to search it, or Bash (head, sed -n) to look at parts.`,
        isError: true
      }
    const ranged = input.offset !== undefined || input.limit !== undefined
    if (!ranged && info.size > READ_MAX_WHOLE_FILE_BYTES)
      return {
        content: `${shown} is ${kb(info.size)}, more than ${kb(READ_MAX_WHOLE_FILE_BYTES)}. Read part of it with offset and limit (e.g. offset 1, limit 500), or use Grep to find what you need.`,
        isError: true
      }
    // Opened through the verified folder fd (no swapped link followed, nothing but a regular file), and read
    // no further than the limit whatever the file grew to since the stat above.
    const { fh, info: opened } = await openRegular(real, shown)
    let bytes: Buffer
    try {
      const read = await readBounded(fh, ranged ? READ_MAX_FILE_BYTES : READ_MAX_WHOLE_FILE_BYTES)
      if (!read.whole)
        return {
          content: `${shown} grew past ${kb(ranged ? READ_MAX_FILE_BYTES : READ_MAX_WHOLE_FILE_BYTES)} while being read; read part of it with offset and limit, or use Grep.`,
          isError: true
        }
      bytes = read.bytes
    } finally {
      await fh.close()
    }
    info = opened
    const kind = binaryKind(abs, bytes)
    if (kind)
      return {
        content: `${shown} is ${kind} (${kb(bytes.length)}). Read returns text only; use Bash (e.g. file, xxd | head) to inspect it.`,
        isError: true,
        details: { filePath: abs, binary: kind, bytes: bytes.length }
      }
    fileState.record(abs, bytes, info.mtimeMs)
    const text = decode(bytes)
    const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
    const totalLines = text === '' ? 0 : lines.length
    // Claude Code's tool_response (PostToolUse hooks), which counts the empty line after a final newline.
    const response = (content: string, startLine: number, numLines: number) => ({
      type: 'text',
      file: { filePath: abs, content, numLines, startLine, totalLines: text.split('\n').length }
    })
    if (totalLines === 0) return { content: `${shown} exists but is empty (0 lines).`, details: { filePath: abs, totalLines: 0 }, response: response('', 1, 0) }
    const start = input.offset ?? 1
    if (start > totalLines)
      return {
        content: `${shown} has ${totalLines} line${totalLines === 1 ? '' : 's'}; offset ${start} is past the end. Use an offset from 1 to ${totalLines}.`,
        details: { filePath: abs, totalLines }
      }
    const limit = input.limit ?? READ_DEFAULT_LIMIT
    const numbered = numberLines(lines.slice(start - 1, start - 1 + limit), start, READ_MAX_OUTPUT_CHARS)
    const end = start + numbered.count - 1
    let content = numbered.text
    const more = end < totalLines
    if (more) content += `\n\n[Showing lines ${start}-${end} of ${totalLines}. Use offset ${end + 1} to read more.]`
    const shownText = lines.slice(start - 1, end).join('\n') + (end === totalLines && text.endsWith('\n') ? '\n' : '')
    return {
      content,
      details: { filePath: abs, startLine: start, endLine: end, totalLines, truncated: more },
      response: response(shownText, start, shownText.split('\n').length)
    }
  }
}))

/** Read, built for one agent alone (tests; the registry builds them all). */
export const createReadTool = READ_TOOL.create

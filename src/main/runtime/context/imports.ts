// `@path` imports in CLAUDE.md files, as Claude Code reads them: a token starting with `@` at the start of a
// line or after whitespace names a file (relative to the importing file, `~/` for the home folder, or
// absolute). Text inside fenced code blocks and inline code spans is never an import, so examples such as
// `@decorator` or an npm scope in a code sample are left alone.
import { constants } from 'node:fs'
import { open, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'

/** Imported files larger than this are skipped: an import is for instructions, not for data. */
export const MAX_IMPORT_BYTES = 512 * 1024

/** Removes fenced code blocks and inline code spans, keeping line structure. */
function withoutCode(markdown: string): string {
  const lines = markdown.split('\n')
  let fence: string | null = null
  const kept = lines.map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null
      return ''
    }
    if (marker) {
      fence = marker
      return ''
    }
    return line.replace(/(`+)[\s\S]*?\1/g, ' ')
  })
  return kept.join('\n')
}

/** The raw import targets in the order they appear (escaped spaces `\ ` become spaces). */
export function extractImports(markdown: string): string[] {
  const found: string[] = []
  for (const match of withoutCode(markdown).matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
    found.push(match[1].replace(/\\ /g, ' '))
  }
  return found
}

/**
 * The file an import names, resolved to its real path, or null when it is not a readable text file.
 * Sentence punctuation stuck to the end ("see @docs/style.md.") is tried without it as well.
 */
export async function resolveImport(target: string, fromFile: string, home: string): Promise<string | null> {
  const candidates = [target]
  const trimmed = target.replace(/[.,;:!?)\]]+$/, '')
  if (trimmed && trimmed !== target) candidates.push(trimmed)
  for (const candidate of candidates) {
    const path = candidate.startsWith('~/') ? join(home, candidate.slice(2)) : isAbsolute(candidate) ? candidate : resolve(dirname(fromFile), candidate)
    if (await isTextFile(path)) return realpath(path)
  }
  return null
}

async function isTextFile(path: string): Promise<boolean> {
  try {
    // Opened first, judged by what is open (O_NONBLOCK: a named pipe swapped in after a look would block a
    // plain open until some writer came, and with it every file operation of the process).
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      const info = await handle.stat()
      if (!info.isFile() || info.size > MAX_IMPORT_BYTES) return false
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(8192), 0, 8192, 0)
      return !buffer.subarray(0, bytesRead).includes(0)
    } finally {
      await handle.close()
    }
  } catch {
    return false
  }
}

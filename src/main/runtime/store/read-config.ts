// Reading a configuration file a repository may have planted (.mcp.json, .claude/settings*.json, CLAUDE.md):
// only a regular file is read, and only up to a size limit, so a file that is a link to /dev/zero, a named
// pipe or a device can neither hang Fanout (a pipe blocks a plain read forever, and with it the whole
// process) nor fill its memory. A UTF-8 byte-order mark is dropped and UTF-16 (with its mark) is decoded,
// so every reader of a file sees the same text: what the trust check lists is exactly what the loaders run.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs'
import { jsonErrorOffset } from '../permissions/json-position'
import { isPlaceholder } from '../security/placeholders'
import { errorMessage } from '../../../shared/error-message'

/** Settings and .mcp.json files: far larger than any real one. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024

export type ConfigRead = { text: string } | { missing: true } | { error: string }

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code

export type BytesRead = { bytes: Buffer } | { missing: true } | { error: string }

/** Nothing at all is at `file` (other failures are left to the open, which says what they are). */
function absent(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) === undefined
  } catch {
    return false
  }
}

/** The file's bytes, if it is a regular file no larger than `maxBytes`. */
export function readConfigBytes(file: string, maxBytes = MAX_CONFIG_BYTES): BytesRead {
  // Most files asked for are missing (a search reads .gitignore, .ignore and .rgignore in every folder up to
  // /): a stat tells that without the open's exception, which costs twenty times as much.
  if (absent(file)) return { missing: true }
  // A placeholder of the Bash sandbox (an empty file standing in for an absent one while a command runs, or
  // one a crash left) is no file: every reader of a project's files treats it as missing.
  if (isPlaceholder(file)) return { missing: true }
  let fd: number
  try {
    // Non-blocking: opening a named pipe nobody writes to returns at once instead of waiting for a writer.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (err) {
    if (code(err) === 'ELOOP') return { error: 'is a symbolic link that loops; it is not read' }
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return { missing: true }
    return { error: `could not be read (${code(err) ?? errorMessage(err)})` }
  }
  try {
    const st = fstatSync(fd)
    if (st.isDirectory()) return { error: 'is a folder, not a file; it is not read' }
    if (!st.isFile()) return { error: 'is not a regular file (it is a device, a pipe or a socket, or a link to one); it is not read' }
    if (st.size > maxBytes) return { error: `is ${st.size} bytes, more than the ${maxBytes}-byte limit for this file; it is not read` }
    const buf = Buffer.alloc(st.size)
    let read = 0
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, read)
      if (n === 0) break
      read += n
    }
    return { bytes: buf.subarray(0, read) }
  } catch (err) {
    return { error: `could not be read (${code(err) ?? errorMessage(err)})` }
  } finally {
    closeSync(fd)
  }
}

export function readConfigFile(file: string, maxBytes = MAX_CONFIG_BYTES): ConfigRead {
  const read = readConfigBytes(file, maxBytes)
  return 'bytes' in read ? { text: decodeText(read.bytes) } : read
}

/** UTF-8 (its byte-order mark dropped), or UTF-16 when the file starts with a UTF-16 byte-order mark. */
export function decodeText(buf: Buffer): string {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString('utf8')
  if (buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le')
  if (buf[0] === 0xfe && buf[1] === 0xff) {
    const body = Buffer.from(buf.subarray(2, 2 + ((buf.length - 2) & ~1)))
    return body.swap16().toString('utf16le')
  }
  return buf.toString('utf8')
}

/** A JSON object from a configuration file: the object, nothing (no file), or a sentence saying what is wrong. */
export function readConfigJson(file: string, maxBytes = MAX_CONFIG_BYTES): { json: Record<string, unknown> } | { missing: true } | { error: string } {
  const read = readConfigFile(file, maxBytes)
  if (!('text' in read)) return read
  if (!read.text.trim()) return { missing: true }
  let json: unknown
  try {
    json = JSON.parse(read.text)
  } catch {
    // The parser's message quotes the text it choked on: a file linked to a private one must not show it.
    const at = jsonErrorOffset(read.text)
    if (at < 0) return { error: 'is not valid JSON' }
    const before = read.text.slice(0, at)
    return { error: `is not valid JSON (line ${before.split('\n').length}, column ${at - before.lastIndexOf('\n')})` }
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { error: 'must be a JSON object' }
  return { json: json as Record<string, unknown> }
}

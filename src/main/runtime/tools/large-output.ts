// A tool output larger than its tool's cap does not go into the conversation whole: it is saved to a file in
// the session's folder, and the model gets its beginning, its size and the file's path, so it can read or
// search the rest when it needs to (as Claude Code does). Without a folder to save to, the output is cut,
// saying how much was left out.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { truncateOutput } from './define-tool'
import { errorMessage } from '../../../shared/error-message'

/** How much of a saved output the model sees. */
export const PREVIEW_CHARS = 2_000

/** The file a tool call's whole output is saved to (its tool_use id, made safe for a file name). */
export function toolOutputFile(dir: string, toolUseId: string): string {
  return join(dir, `${toolUseId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120) || 'output'}.txt`)
}

function sizeText(chars: number, lines: number): string {
  const size = chars < 1024 * 1024 ? `${(chars / 1024).toFixed(1)} KB` : `${(chars / (1024 * 1024)).toFixed(1)} MB`
  return `${size}, ${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}`
}

/** The note that ends a saved output's preview; the clearing stub finds the path in it ("whole output is saved in PATH"). */
export function savedOutputNote(file: string, chars: number, lines: number, shown = 'only its beginning is shown above'): string {
  return `[Output too large for the conversation (${sizeText(chars, lines)}): ${shown}. The whole output is saved in ${file} — read the parts you need with Read (offset and limit) or search it with Grep.]`
}

/** The beginning of `text`, ended at a line break when there is one near the limit. */
function preview(text: string): string {
  const head = text.slice(0, PREVIEW_CHARS)
  const nl = head.lastIndexOf('\n')
  return nl > PREVIEW_CHARS / 2 ? head.slice(0, nl) : head
}

export async function limitOutput(content: string, cap: number, dir: string | undefined, toolUseId: string): Promise<string> {
  if (content.length <= cap) return content
  if (!dir) return truncateOutput(content, cap)
  const file = toolOutputFile(dir, toolUseId)
  try {
    await mkdir(dir, { recursive: true })
    await writeFile(file, content, { mode: 0o600 })
  } catch (err) {
    return `${truncateOutput(content, cap)}\n[The whole output could not be saved to ${file}: ${errorMessage(err)}]`
  }
  const lines = content.split('\n').length
  return `${preview(content)}\n\n${savedOutputNote(file, content.length, lines)}`
}

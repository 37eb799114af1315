// Write: creates or replaces a whole file. Replacing requires a prior Read by this agent and an unchanged
// file on disk, so an agent never silently throws away edits it has not seen.
import { stat } from 'node:fs/promises'
import { z } from 'zod'
import { toolInput } from './define-tool'
import { FileRefusal, kindOf, readRegular, replaceRegular } from '../security/open-beneath'
import { claimPlaceholder, placeholderAt } from '../security/placeholders'
import { EDIT_MAX_FILE_BYTES, type FileState } from './file-state'
import { fileTool, heldByPlaceholder, type FileTarget } from './file-tool'
import { patchFromTexts } from './text-patch'

const schema = toolInput('Write', () =>
  z.object({
    file_path: z.string().min(1).describe('The file to write'),
    content: z.string().describe('The full content to write to the file')
  })
)

/**
 * Writes and records the result as seen by this agent (its own write is not a foreign change). The new text
 * goes to a temp file beside the target, renamed over it (open-beneath.ts): a failed write leaves the old file
 * whole. Over a placeholder of the Bash sandbox it writes in place (the sandbox's mount stays on it; moving it
 * away would let the running command write there), and from then on the file is the agent's, not a placeholder.
 */
export async function writeAndRecord(fileState: FileState, file: Pick<FileTarget, 'abs' | 'real' | 'shown'>, content: string): Promise<void> {
  const inPlace = placeholderAt(file.abs)?.kind === 'file'
  claimPlaceholder(file.abs)
  const info = await replaceRegular(file.real, file.shown, content, { inPlace })
  fileState.record(file.abs, content, info.mtimeMs)
}

/** The current text of the file a Write/Edit replaces (through the verified open; bounded). */
export async function currentText(file: Pick<FileTarget, 'real' | 'shown'>): Promise<string> {
  const found = await readRegular(file.real, file.shown, EDIT_MAX_FILE_BYTES)
  if (!found) throw new FileRefusal(`${file.shown} disappeared while it was being changed; Read it again.`)
  return found.bytes.toString('utf8')
}

/** A refusal for an existing entry that is not a regular file (a FIFO, a socket, a device), else null. */
export function notRegular(info: { isFile(): boolean; isDirectory(): boolean } | null, shown: string): string | null {
  if (!info || info.isFile() || info.isDirectory()) return null
  return `${shown} is ${kindOf(info as Parameters<typeof kindOf>[0])}, not a regular file: the file tools do not read or replace it.`
}

export const WRITE_TOOL = fileTool({ name: 'Write', readOnly: false, concurrencySafe: false, permission: 'edit' }, () => ({
  description: [
    'Writes a file to the local filesystem, creating parent directories as needed.',
    'Overwriting an existing file requires that you Read it first in this conversation; prefer Edit for changes to existing files.',
    'Paths may be absolute or relative to the working directory.'
  ].join('\n'),
  schema,
  pathField: 'file_path',
  access: ['write'],
  async execute(input, file) {
    const { abs, shown, fileState } = file
    // Writing over an empty-file placeholder creates the file (no Read needed first).
    const { placeholder, refusal: held } = heldByPlaceholder(file)
    if (held) return held
    const existing = placeholder ? null : await stat(file.real).catch(() => null)
    if (existing?.isDirectory()) return { content: `${shown} is a directory; give the path of a file inside it.`, isError: true }
    const odd = notRegular(existing, shown)
    if (odd) return { content: odd, isError: true }
    const refusal = placeholder ? null : await fileState.checkWritable(abs, shown, file.real)
    if (refusal) return { content: refusal, isError: true }
    const before = existing ? await currentText(file) : ''
    await writeAndRecord(fileState, file, input.content)
    const lines = input.content === '' ? 0 : input.content.split('\n').length - (input.content.endsWith('\n') ? 1 : 0)
    const patch = patchFromTexts(before, input.content)
    const kind = existing ? 'update' : 'create'
    const content =
      kind === 'create'
        ? `File created successfully at: ${shown} (${lines} line${lines === 1 ? '' : 's'})`
        : `The file ${shown} has been overwritten (${lines} line${lines === 1 ? '' : 's'}; +${patch.additions} -${patch.deletions}).`
    const response = {
      type: kind,
      filePath: abs,
      content: input.content,
      structuredPatch: kind === 'create' ? [] : patch.hunks,
      originalFile: existing ? before : null,
      userModified: false
    }
    return { content, details: { filePath: abs, kind, lines, bytes: Buffer.byteLength(input.content), patch }, response }
  }
}))

/** Write, built for one agent alone (tests; the registry builds them all). */
export const createWriteTool = WRITE_TOOL.create

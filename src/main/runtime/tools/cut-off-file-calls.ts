// How a file tool's call that a crash cut off (it was running; its result was never recorded) is answered on
// resume, told by the file itself. Write, Edit and NotebookEdit change a file in one step — the new text goes
// to a temp file renamed over the file (security/open-beneath.ts) — so a kill leaves the file as it was or as
// the call made it, never in between, and which one it is can be read. "It may have done part of its work" is
// no answer for them: a model that takes it for done ends its task with its change never made (and an
// isolated agent's worktree is then removed as unchanged). Each answer says what the file holds now, which is
// true however the call went; when the file cannot tell (an Edit whose old and new text are both there, or
// neither; a notebook cell inserted), there is no answer here and the call is answered like any other cut off
// while running. The file is read as Fanout reads any file a project holds: a regular file only, bounded, so
// a pipe left there cannot hang the resume. And the temp file a kill left beside it (its writer gone) is
// removed: in a worktree the finish step would remove it anyway (worktrees/crash-debris.ts), but an agent
// working in the checkout would leave it there.
import { lstatSync, readdirSync, realpathSync, unlinkSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { deadWriterTemp } from '../store/atomic-file'
import { readConfigBytes } from '../store/read-config'
import { EDIT_MAX_FILE_BYTES } from './file-state'
import { CELL_BY_PLACE, findCell } from './notebook-edit'
import { displayPath, resolveToolPath } from './paths'

export interface CutOffAnswer {
  content: string
  isError: boolean
}

const STOPPED = 'when Fanout stopped (it was closed or crashed)'

/** The file a call names (`field` of its input), as its tool resolves it, and how it is shown; null without a usable path. */
function target(cwd: string, input: unknown, field = 'file_path'): { abs: string; shown: string } | null {
  const path = (input as Record<string, unknown> | null)?.[field]
  if (typeof path !== 'string' || !path.trim()) return null
  const abs = resolveToolPath(cwd, path)
  return { abs, shown: displayPath(cwd, abs) }
}

/** A Write: its file holds exactly the content it gave (it finished), or not (it must be written again). */
function cutOffWrite(cwd: string, input: unknown): CutOffAnswer | undefined {
  const file = target(cwd, input)
  const content = (input as { content?: unknown }).content
  if (!file || typeof content !== 'string') return undefined
  const want = Buffer.from(content, 'utf8')
  const read = readConfigBytes(file.abs, want.length)
  if ('bytes' in read && read.bytes.equals(want))
    return { content: `Write had finished ${STOPPED}: ${file.shown} holds the content this call gave. Only its result was lost.`, isError: false }
  return {
    content: `Write did not finish: Fanout stopped (it was closed or crashed) before ${file.shown} held the content this call gave, so what this call was to write is not there. Run it again if it is still needed.`,
    isError: true
  }
}

/**
 * An Edit with an old_string: its file has new_string and no old_string (as the edit leaves it), or old_string
 * and no new_string (the edit is not in it: it would have put new_string there).
 */
function cutOffEdit(cwd: string, input: unknown): CutOffAnswer | undefined {
  const file = target(cwd, input)
  const { old_string: from, new_string: to } = (input ?? {}) as { old_string?: unknown; new_string?: unknown }
  if (!file || typeof from !== 'string' || typeof to !== 'string' || from === '' || from === to) return undefined
  const read = readConfigBytes(file.abs, EDIT_MAX_FILE_BYTES)
  if (!('bytes' in read)) return undefined
  const text = read.bytes.toString('utf8')
  // An empty new_string deletes: then only old_string tells.
  const hasFrom = text.includes(from)
  const hasTo = to !== '' && text.includes(to)
  const newPart = (has: boolean) => (to === '' ? '' : has ? ' and has its new_string' : ' and not its new_string')
  if (!hasFrom && (hasTo || to === ''))
    return {
      content: `Edit was cut off ${STOPPED}, and ${file.shown} does not have this call's old_string${newPart(true)}, as the edit leaves it. Only its result was lost.`,
      isError: false
    }
  if (hasFrom && !hasTo)
    return {
      content: `Edit did not finish: Fanout stopped (it was closed or crashed) before it changed ${file.shown}, which still has this call's old_string${newPart(false)}. Run it again if it is still needed.`,
      isError: true
    }
  return undefined
}

/**
 * A NotebookEdit that replaced a cell's source (the cell stays where it is): the cell holds the new source or
 * not. One that deleted a cell by its id: the cell is gone or still there. An insert cannot be told from a cell
 * that was there before, nor a deletion by place from the next cell moving up: those get the general answer.
 */
function cutOffNotebookEdit(cwd: string, input: unknown): CutOffAnswer | undefined {
  const file = target(cwd, input, 'notebook_path')
  const { cell_id: id, new_source: source, edit_mode: mode = 'replace' } = (input ?? {}) as { cell_id?: unknown; new_source?: unknown; edit_mode?: unknown }
  if (!file || typeof id !== 'string' || (mode !== 'replace' && mode !== 'delete') || (mode === 'delete' && CELL_BY_PLACE.test(id))) return undefined
  const read = readConfigBytes(file.abs, EDIT_MAX_FILE_BYTES)
  if (!('bytes' in read)) return undefined
  let cells: Array<{ id?: unknown; source?: unknown }>
  try {
    const nb = JSON.parse(read.bytes.toString('utf8')) as { cells?: unknown }
    if (!Array.isArray(nb.cells)) return undefined
    cells = nb.cells
  } catch {
    return undefined
  }
  // As the tool found it: by id, else by place (a deletion here is by id only, so found means still there).
  const at = findCell(cells, id)
  const shown = `cell ${id} of ${file.shown}`
  if (mode === 'delete')
    return at === -1
      ? {
          content: `NotebookEdit was cut off ${STOPPED}, and ${file.shown} has no cell ${id}, as the deletion leaves it. Only its result was lost.`,
          isError: false
        }
      : {
          content: `NotebookEdit did not finish: Fanout stopped (it was closed or crashed) before it deleted ${shown}, which is still there. Run it again if it is still needed.`,
          isError: true
        }
  if (at === -1 || typeof source !== 'string') return undefined
  const cell = cells[at]
  const now = Array.isArray(cell.source) ? cell.source.join('') : cell.source
  if (now === source)
    return { content: `NotebookEdit had finished ${STOPPED}: ${shown} holds the source this call gave. Only its result was lost.`, isError: false }
  return {
    content: `NotebookEdit did not finish: Fanout stopped (it was closed or crashed) before ${shown} held the source this call gave, so this edit is not there. Run it again if it is still needed.`,
    isError: true
  }
}

const ANSWERS: Record<string, (cwd: string, input: unknown) => CutOffAnswer | undefined> = {
  Write: cutOffWrite,
  Edit: cutOffEdit,
  NotebookEdit: cutOffNotebookEdit
}
const PATH_FIELD: Record<string, string> = { NotebookEdit: 'notebook_path' }

/**
 * What the file says of a file tool's call a crash cut off: `cwd` is where the agent's tools ran (its run's
 * agent_start), `input` the call's. Undefined when the tool is not one of these or its file cannot tell.
 */
export function cutOffFileCall(name: string, cwd: string, input: unknown): CutOffAnswer | undefined {
  if (!Object.hasOwn(ANSWERS, name)) return undefined
  const file = target(cwd, input, PATH_FIELD[name])
  if (file) removeDeadTemps(file.abs)
  return ANSWERS[name](cwd, input)
}

/**
 * Removes the temp files of atomic writes to `file` whose writing process is gone (`.<name>.<pid>.<random>.tmp`
 * beside it): regular files only, in the folder as it really is (no link swapped in). Best effort: a file that
 * cannot be removed stays, and the answer is the same.
 */
function removeDeadTemps(file: string): void {
  try {
    const dir = dirname(file)
    if (realpathSync(dir) !== dir) return
    const prefix = `.${basename(file)}.`
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix)) continue
      // `.<name>.<pid>.<random>.tmp` of this very file (not of `<name>.bak`), its writer gone.
      if (name.slice(prefix.length).split('.').length !== 3 || !deadWriterTemp(name)) continue
      const path = join(dir, name)
      if (lstatSync(path).isFile()) unlinkSync(path)
    }
  } catch {
    // Left as it is: the folder is gone or unreadable.
  }
}

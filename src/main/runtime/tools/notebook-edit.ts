// NotebookEdit: replace, insert or delete one cell of a Jupyter notebook (.ipynb), Claude Code's schema.
// Same read-before-write rule as Edit; the notebook JSON is rewritten with nbformat's own layout.
import { stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { z } from 'zod'
import { toolInput } from './define-tool'
import { fileTool } from './file-tool'
import { currentText, notRegular, writeAndRecord } from './write'
import { errorMessage } from '../../../shared/error-message'

const schema = toolInput('NotebookEdit', () =>
  z.object({
    notebook_path: z.string().min(1).describe('The path of the .ipynb file (absolute, or relative to the working directory)'),
    cell_id: z
      .string()
      .optional()
      .describe('The id of the cell to edit (or "cell-N" for the N-th cell, 0-based). For insert: the new cell goes after it, or first when omitted'),
    new_source: z.string().describe('The new source of the cell (ignored for delete)'),
    cell_type: z.enum(['code', 'markdown']).optional().describe('The cell type; required for insert'),
    edit_mode: z.enum(['replace', 'insert', 'delete']).optional().default('replace')
  })
)

interface Cell {
  id?: string
  cell_type: string
  source: string | string[]
  metadata?: Record<string, unknown>
  outputs?: unknown[]
  execution_count?: number | null
}

/** nbformat stores source as lines that keep their "\n". */
function toSourceLines(source: string): string[] {
  return source === '' ? [] : source.split(/(?<=\n)/)
}

/** `cell-3` or `3`: a cell by its place (which an insert or a deletion before it moves), not by its id. */
export const CELL_BY_PLACE = /^(?:cell-)?(\d+)$/

/** The index of the cell `cellId` names: by its id, else by its place; -1 when there is none. */
export function findCell(cells: ReadonlyArray<{ id?: unknown }>, cellId: string): number {
  const byId = cells.findIndex((c) => c?.id === cellId)
  if (byId !== -1) return byId
  const m = CELL_BY_PLACE.exec(cellId)
  return m && Number(m[1]) < cells.length ? Number(m[1]) : -1
}

export const NOTEBOOK_EDIT_TOOL = fileTool({ name: 'NotebookEdit', readOnly: false, concurrencySafe: false, permission: 'edit' }, () => ({
  description: 'Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb). Read the notebook first. Cells are addressed by cell_id.',
  schema,
  pathField: 'notebook_path',
  access: ['write', 'read'],
  async execute(input, file) {
    const { abs, shown, fileState } = file
    if (extname(abs) !== '.ipynb') return { content: `${shown} is not a .ipynb notebook; use Edit for other files.`, isError: true }
    const info = await stat(file.real).catch(() => null)
    if (!info) return { content: `Notebook does not exist: ${shown}.`, isError: true }
    if (info.isDirectory()) return { content: `${shown} is a directory, not a notebook.`, isError: true }
    const odd = notRegular(info, shown)
    if (odd) return { content: odd, isError: true }
    const refusal = await fileState.checkWritable(abs, shown, file.real)
    if (refusal) return { content: refusal, isError: true }
    const text = await currentText(file)
    let nb: { cells?: Cell[]; nbformat?: number; nbformat_minor?: number }
    try {
      nb = JSON.parse(text)
    } catch (err) {
      return { content: `${shown} is not valid notebook JSON: ${errorMessage(err)}`, isError: true }
    }
    if (!Array.isArray(nb.cells)) return { content: `${shown} has no "cells" array; it is not a Jupyter notebook.`, isError: true }
    const cells = nb.cells
    const mode = input.edit_mode
    let index = input.cell_id === undefined ? -1 : findCell(cells, input.cell_id)
    if (input.cell_id !== undefined && index === -1)
      return { content: `No cell with id "${input.cell_id}" in ${shown} (it has ${cells.length} cells). Read the notebook to see the cell ids.`, isError: true }
    if (mode !== 'insert' && index === -1) return { content: `cell_id is required to ${mode} a cell.`, isError: true }
    let cellId = input.cell_id
    if (mode === 'delete') {
      cells.splice(index, 1)
    } else if (mode === 'insert') {
      if (!input.cell_type) return { content: 'cell_type ("code" or "markdown") is required when inserting a cell.', isError: true }
      const cell: Cell = { cell_type: input.cell_type, metadata: {}, source: toSourceLines(input.new_source) }
      if ((nb.nbformat ?? 4) > 4 || ((nb.nbformat ?? 4) === 4 && (nb.nbformat_minor ?? 0) >= 5)) cell.id = cellId = Math.random().toString(36).slice(2, 10)
      if (input.cell_type === 'code') Object.assign(cell, { execution_count: null, outputs: [] })
      index = index + 1
      cells.splice(index, 0, cell)
    } else {
      const cell = cells[index]
      cell.source = toSourceLines(input.new_source)
      if (input.cell_type && input.cell_type !== cell.cell_type) cell.cell_type = input.cell_type
      if (cell.cell_type === 'code') Object.assign(cell, { execution_count: null, outputs: [] })
      else {
        delete cell.outputs
        delete cell.execution_count
      }
    }
    await writeAndRecord(fileState, file, `${JSON.stringify(nb, null, 1)}\n`)
    const verb = mode === 'delete' ? 'Deleted' : mode === 'insert' ? 'Inserted' : 'Replaced'
    return { content: `${verb} cell ${cellId ?? index} in ${shown}.`, details: { notebookPath: abs, editMode: mode, cellId, index, cells: cells.length } }
  }
}))

/** NotebookEdit, built for one agent alone (tests; the registry builds them all). */
export const createNotebookEditTool = NOTEBOOK_EDIT_TOOL.create

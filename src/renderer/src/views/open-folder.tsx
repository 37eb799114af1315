// Browser mode has no native folder picker: type the folder's absolute path.
import { useState } from 'react'
import { useTask } from '../lib/use-task'
import { openFolder, ui, useApp } from '../state/store'
import { FormDialog } from './form-dialog'

export function OpenFolderDialog() {
  const current = useApp((s) => s.workspace?.cwd ?? '')
  const [path, setPath] = useState(current)
  const { error, busy, run } = useTask()
  const submit = () =>
    run(async () => {
      await openFolder(path.trim())
      ui.setDialog(null)
    })
  return (
    <FormDialog title="Open folder" onClose={() => ui.setDialog(null)} onSubmit={submit} confirm="Open" disabled={!path.trim()} busy={busy} error={error}>
      <label className="field">
        <span className="field-label">Folder (absolute path)</span>
        <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/project" spellCheck={false} data-testid="folder-path" />
      </label>
    </FormDialog>
  )
}

// Browser mode has no native folder picker: type the folder's absolute path.
import { useState } from 'react'
import { DialogActions } from '../components/dialog-actions'
import { useAction } from '../lib/use-action'
import { openFolder, ui, useApp } from '../state/store'
import { Dialog } from './dialog'

export function OpenFolderDialog() {
  const current = useApp((s) => s.workspace?.cwd ?? '')
  const [path, setPath] = useState(current)
  const { error, busy, run } = useAction()
  const submit = () =>
    run(async () => {
      await openFolder(path.trim())
      ui.setDialog(null)
    })
  return (
    <Dialog title="Open folder" onClose={() => ui.setDialog(null)}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <label className="field">
          <span className="field-label">Folder (absolute path)</span>
          <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/project" spellCheck={false} data-testid="folder-path" />
        </label>
        {error && <div className="inline-error">{error}</div>}
        <DialogActions onCancel={() => ui.setDialog(null)} confirm="Open" disabled={!path.trim()} busy={busy} />
      </form>
    </Dialog>
  )
}

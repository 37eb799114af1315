// Browser mode has no native folder picker: type the folder's absolute path.
import { useState } from 'react'
import { openFolder, ui, useApp } from '../state/store'
import { errorText } from '../transport/types'
import { Dialog } from './dialog'

export function OpenFolderDialog() {
  const current = useApp((s) => s.workspace?.cwd ?? '')
  const [path, setPath] = useState(current)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    setBusy(true)
    setError(null)
    try {
      await openFolder(path.trim())
      ui.setDialog(null)
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
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
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => ui.setDialog(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !path.trim()}>
            Open
          </button>
        </div>
      </form>
    </Dialog>
  )
}

// The keyboard shortcuts sheet (`?`): every action that has a key, as registered now, and the keys of the
// overview and the palette.
import { Dialog } from '../views/dialog'
import { keyLabel } from './keys'
import { ACTION_GROUPS, useActions } from './registry'
import { ui } from '../state/store'

const OVERVIEW_KEYS: Array<[string[], string]> = [
  [['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'], 'Move between agents'],
  [['Home', 'End'], 'First and last agent'],
  [['Enter'], 'Open the agent’s full panel'],
  [['Escape'], 'Back from the full panel'],
  [['M'], 'Steer: send the agent a message'],
  [['S'], 'Stop the agent']
]

const PALETTE_KEYS: Array<[string[], string]> = [
  [['ArrowUp', 'ArrowDown'], 'Choose'],
  [['Enter'], 'Run'],
  [['Escape'], 'Close']
]

function Rows({ rows }: { rows: Array<[string[], string]> }) {
  return (
    <>
      {rows.map(([keys, what]) => (
        <div className="shortcut-row" key={what}>
          <span>{what}</span>
          <span className="shortcut-keys">
            {keys.map((k) => (
              <kbd key={k}>{keyLabel(k)}</kbd>
            ))}
          </span>
        </div>
      ))}
    </>
  )
}

export function ShortcutsSheet() {
  const actions = useActions((s) => s.actions)
  const withKeys = [...actions.values()].filter((a) => a.keys && !a.hidden)
  return (
    <Dialog title="Keyboard shortcuts" onClose={() => ui.setDialog(null)} wide testId="shortcuts-sheet">
      <div className="shortcuts">
        <section>
          <h3>Everywhere</h3>
          {ACTION_GROUPS.flatMap((g) => withKeys.filter((a) => a.group === g))
            .sort((a, b) => (a.id === 'palette' ? -1 : b.id === 'palette' ? 1 : 0))
            .map((a) => (
              <div className="shortcut-row" key={a.id} data-testid="shortcut-row" data-command={a.id}>
                <span>{a.title}</span>
                <span className="shortcut-keys">
                  <kbd>{keyLabel(a.keys!)}</kbd>
                </span>
              </div>
            ))}
        </section>
        <section>
          <h3>In the overview (an agent selected)</h3>
          <Rows rows={OVERVIEW_KEYS} />
          <h3>In the command palette</h3>
          <Rows rows={PALETTE_KEYS} />
        </section>
      </div>
    </Dialog>
  )
}

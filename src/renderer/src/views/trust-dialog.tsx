// The folder's consent dialog: everything the folder brings that would run or act by itself, each command
// in full, grouped by what it does, with what is new or changed since the last answer marked. Nothing of it
// runs until the person answers; closing the dialog answers nothing (and starts nothing). The answer is
// sent with the hash of the list shown, so files that changed meanwhile are shown again, not approved.
import { useState } from 'react'
import { KIND_TEXT, type FolderTrust, type ProjectCommandKind, type TrustItem } from '../../../shared/trust'
import { DialogActions } from '../components/dialog-actions'
import { Icon } from '../components/icon'
import { answerTrust, trustDialogClosed } from '../state/folder-trust'
import { useApp } from '../state/store'
import { errorMessage } from '../transport/types'
import { Dialog } from './dialog'
import '../styles/trust.css'
import { InlineError } from '../components/inline-error'

interface Group {
  title: string
  hint: string
  has: (item: TrustItem) => boolean
}

const isHttp = (i: TrustItem) => i.command.startsWith('connects to ')
const isServer = (i: TrustItem) => i.kind === 'mcp-server' || i.kind === 'agent-mcp-server'

const GROUPS: Group[] = [
  { title: 'Programs it starts', hint: 'MCP servers started as programs on this computer, with your permissions.', has: (i) => isServer(i) && !isHttp(i) },
  {
    title: 'Servers it connects to',
    hint: 'MCP servers reached over HTTP from this computer, sending the headers listed.',
    has: (i) => isServer(i) && isHttp(i)
  },
  { title: 'Commands its hooks run', hint: 'Shell commands run around agents’ tool calls and runs.', has: (i) => i.kind === 'hook' || i.kind === 'agent-hook' },
  {
    title: 'Permissions it grants',
    hint: 'Tool calls that would run without asking you, and folders opened to the tools.',
    has: (i) => i.kind === 'permission-rule' || i.kind === 'permission-mode' || i.kind === 'permission-directory' || i.kind === 'agent-mode'
  },
  {
    title: 'Files it sends to the model',
    hint: 'Files outside this folder that its CLAUDE.md would put into every prompt.',
    has: (i) => i.kind === 'outside-file'
  }
]
/** Items that grant rather than run: their line is a sentence, not a command. */
const GRANTS: ReadonlySet<ProjectCommandKind> = new Set(['permission-rule', 'permission-mode', 'permission-directory', 'agent-mode', 'outside-file'])

function stateTag(item: TrustItem, answeredBefore: boolean) {
  if (item.state === 'approved')
    return <span className="tag tag-subtle">{item.by === 'claude-settings' ? 'Approved in Claude Code settings' : 'Approved'}</span>
  if (item.state === 'declined') return <span className="tag tag-subtle">Declined</span>
  if (item.changed) return <span className="tag tag-warn">Changed</span>
  return answeredBefore ? <span className="tag tag-warn">New</span> : null
}

function ItemRow({ item, answeredBefore }: { item: TrustItem; answeredBefore: boolean }) {
  const label = item.name
  return (
    <li className="trust-item" data-testid="trust-item" data-kind={item.kind} data-state={item.state}>
      <div className="trust-item-head">
        <span className={`trust-item-name${GRANTS.has(item.kind) ? ' trust-item-mono' : ''}`}>{label}</span>
        {item.kind !== 'mcp-server' && item.kind !== 'hook' && <span className="tag tag-subtle">{KIND_TEXT[item.kind]}</span>}
        {stateTag(item, answeredBefore)}
        <span className="trust-item-file muted small" title={item.file}>
          {item.file}
        </span>
      </div>
      {GRANTS.has(item.kind) ? <div className="trust-grant">{item.command}</div> : <code className="trust-command">{item.command}</code>}
      {item.detail && <div className="trust-detail muted small">{item.detail}</div>}
    </li>
  )
}

export function TrustDialog() {
  const trust = useApp((s) => s.trust)
  const [busy, setBusy] = useState<'trust' | 'decline' | null>(null)
  const [error, setError] = useState<string | null>(null)
  if (!trust) return null
  const answer = async (decision: 'trust' | 'decline') => {
    setBusy(decision)
    setError(null)
    try {
      await answerTrust(decision, trust.hash)
      trustDialogClosed()
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(null)
    }
  }
  return (
    <Dialog title="Trust what this folder runs?" onClose={trustDialogClosed} wide testId="trust-dialog" describedBy="trust-intro">
      <TrustBody trust={trust} />
      <InlineError error={error} />
      {/* The focus on the first answer: not running them, unless that is the answer already given. */}
      <DialogActions
        className="trust-actions"
        onCancel={trust.state !== 'declined' ? () => void answer('decline') : undefined}
        cancelLabel={trust.state === 'trusted' ? 'Stop trusting it' : 'Don’t run them'}
        cancelDisabled={busy !== null}
        cancelTestId="trust-decline"
        confirm={
          trust.state !== 'trusted' ? (
            <>
              <Icon name="shield" size={13} /> {busy === 'trust' ? 'Saving…' : 'Trust and run them'}
            </>
          ) : undefined
        }
        disabled={busy !== null}
        onConfirm={() => void answer('trust')}
        confirmTestId="trust-accept"
        focus={trust.state === 'declined' ? 'confirm' : 'cancel'}
      >
        <span className="field-hint trust-remember">Fanout remembers your answer for this folder and asks again when any of this changes.</span>
      </DialogActions>
    </Dialog>
  )
}

function TrustBody({ trust }: { trust: FolderTrust }) {
  const answeredBefore = trust.items.some((i) => i.state !== 'waiting' || i.changed)
  const waiting = trust.items.filter((i) => i.state === 'waiting').length
  return (
    <div className="trust-body">
      <p id="trust-intro" className="trust-intro">
        <code>{trust.folder}</code> brings {trust.items.length === 1 ? 'something' : `${trust.items.length} things`} that would run on this computer or act
        without asking you, as soon as a session starts here. They come with the folder’s own files — a repository you cloned can contain them — so Fanout runs{' '}
        {trust.state === 'trusted' ? 'them because you trusted them.' : waiting ? 'none of them until you say so.' : 'none of them: you declined.'}
      </p>
      {GROUPS.map((g) => {
        const items = trust.items.filter(g.has)
        if (!items.length) return null
        return (
          <section key={g.title} className="trust-group" aria-label={g.title}>
            <h3>
              {g.title} <span className="muted small">({items.length})</span>
            </h3>
            <p className="field-hint">{g.hint}</p>
            <ul className="trust-list">
              {items.map((i) => (
                <ItemRow key={i.hash} item={i} answeredBefore={answeredBefore} />
              ))}
            </ul>
          </section>
        )
      })}
      {trust.notRun.length > 0 && (
        <section className="trust-group" aria-label="Settings Fanout never runs">
          <h3>Settings Fanout never runs</h3>
          <ul className="trust-list trust-not-run">
            {trust.notRun.map((n) => (
              <li key={`${n.file}:${n.setting}`} className="muted small">
                <code>{n.setting}</code> in {n.file}: <code>{n.command}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
      {trust.problems.map((p) => (
        <div key={p} className="inline-error small">
          {p}
        </div>
      ))}
    </div>
  )
}

// Settings › MCP servers: the servers sessions in the open folder use (from .mcp.json, ~/.claude.json and
// Fanout's settings), whether each one runs, why not, and the tools agents get from it. A project server the
// person has not approved for the folder is never started here: it is listed as waiting, with a way to review.
import { useCallback, useEffect, useState } from 'react'
import type { McpServerInfo } from '../../../shared/ipc-contract'
import { Icon } from '../components/icon'
import { refreshTrust, reviewTrust, trustAnswered } from '../state/folder-trust'
import { call, useApp } from '../state/store'
import { errorMessage } from '../transport/types'
import '../styles/mcp.css'

const STATUS_LABEL: Record<McpServerInfo['status'], string> = {
  connected: 'Connected',
  failed: 'Failed',
  disabled: 'Disabled',
  pending: 'Not started',
  untrusted: 'Waiting for your approval'
}
const SCOPE_LABEL: Record<McpServerInfo['scope'], string> = {
  fanout: 'Fanout settings',
  user: '~/.claude.json',
  project: '.mcp.json',
  local: 'local',
  agent: 'agent'
}

function ServerRow({ server }: { server: McpServerInfo }) {
  const [open, setOpen] = useState(false)
  const hasTools = server.tools.length > 0
  return (
    <li className={`mcp-server mcp-${server.status}`} data-testid="mcp-server" data-server={server.name} data-status={server.status}>
      <div className="mcp-server-head">
        <button
          type="button"
          className="icon-button mcp-toggle"
          onClick={() => setOpen(!open)}
          disabled={!hasTools}
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} the tools of ${server.name}`}
        >
          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={13} />
        </button>
        <span className={`mcp-dot mcp-dot-${server.status}`} />
        <span className="mcp-name">{server.name}</span>
        <span className="tag tag-subtle">{server.transport ?? 'invalid'}</span>
        <span className="tag" title={server.file}>
          {SCOPE_LABEL[server.scope]}
        </span>
        <span className="mcp-target muted" title={server.target}>
          {server.target}
        </span>
        <span className={`mcp-status small mcp-status-${server.status}`}>
          {STATUS_LABEL[server.status]}
          {server.status === 'connected' && ` · ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`}
        </span>
      </div>
      {server.error && <pre className="mcp-error">{server.error}</pre>}
      {open && hasTools && (
        <ul className="mcp-tools">
          {server.tools.map((t) => (
            <li key={t.name}>
              <code>{t.name}</code>
              {t.readOnly && (
                <span
                  className="tag tag-accent"
                  title="The server says this tool only reads (readOnlyHint). That is its claim, not a permission: the tool still needs a rule or your approval, and plan mode refuses it."
                >
                  says read-only
                </span>
              )}
              <span className="muted small mcp-tool-desc">{t.description}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

/** Opens the folder's consent dialog over Settings (the list follows the answer: see trustAnswer below). */
async function review(): Promise<void> {
  const trust = await refreshTrust()
  if (trust?.state === 'waiting') await trustAnswered()
  else reviewTrust()
}

export function McpServersSection() {
  const cwd = useApp((s) => s.workspace?.cwd)
  const [servers, setServers] = useState<McpServerInfo[] | null>(null)
  const [problems, setProblems] = useState<string[]>([])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const load = useCallback(async () => {
    if (!cwd) return
    setBusy(true)
    setError(null)
    try {
      const r = await call('mcp.list', { cwd })
      setServers(r.servers)
      setProblems(r.problems)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }, [cwd])
  // The person's answer about the folder changes which servers may start: list them again when it does.
  const trustAnswer = useApp((s) => (s.trust ? `${s.trust.state}:${s.trust.hash}` : ''))
  useEffect(() => {
    void load()
  }, [load, trustAnswer])
  return (
    <section className="settings-section mcp-section" data-testid="mcp-servers">
      <div className="mcp-section-head">
        <h3>MCP servers</h3>
        <button type="button" className="btn-link small" onClick={() => void load()} disabled={busy || !cwd} data-testid="mcp-refresh">
          {busy ? 'Checking…' : 'Check again'}
        </button>
      </div>
      {error && <div className="inline-error">{error}</div>}
      {!servers && !error && <div className="muted small">{cwd ? 'Starting the servers to list their tools…' : 'Open a folder to see its MCP servers.'}</div>}
      {servers && servers.length === 0 && (
        <div className="muted small">
          No MCP servers for this folder. Add them to .mcp.json in the project, to ~/.claude.json, or as mcpServers in Fanout’s settings file.
        </div>
      )}
      {servers && servers.length > 0 && (
        <ul className="mcp-list">
          {servers.map((s) => (
            <ServerRow key={s.name} server={s} />
          ))}
        </ul>
      )}
      {servers?.some((s) => s.status === 'untrusted') && (
        <div className="mcp-untrusted-note" data-testid="mcp-untrusted-note">
          <Icon name="shield" size={13} />
          <span className="small">
            Servers from this folder’s .mcp.json start only once you approve the folder: they come with its files, and would run programs or connect to servers
            as you.
          </span>
          <button type="button" className="btn btn-sm" onClick={() => void review()} data-testid="mcp-review">
            Review…
          </button>
        </div>
      )}
      {problems.map((p) => (
        <div key={p} className="inline-error small">
          {p}
        </div>
      ))}
      {servers && servers.length > 0 && (
        <p className="field-hint">
          Agents call these tools as mcp__server__tool; a definition’s tools list can name them, or a whole server as mcp__server__*.
        </p>
      )}
    </section>
  )
}

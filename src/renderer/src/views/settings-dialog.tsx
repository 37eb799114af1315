// Settings: the API key (write-only), base URL, models and aliases, limits, default permission mode, and how
// new sessions orchestrate (coordinator mode, agent teams).
import { useState } from 'react'
import { PERMISSION_MODES, type PermissionMode } from '../../../shared/agent-definition'
import type { Settings } from '../../../shared/ipc-contract'
import { Icon } from '../components/icon'
import { saveApiKey, saveSettings, ui, useApp } from '../state/store'
import { errorText } from '../transport/types'
import { Dialog } from './dialog'
import { McpServersSection } from './mcp-servers'
import { MODE_LABEL } from './new-session'

export function ApiKeyForm({ onSaved }: { onSaved?: () => void }) {
  const settings = useApp((s) => s.settings)
  const mode = useApp((s) => s.mode)
  const [key, setKey] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const [busy, setBusy] = useState(false)
  const save = async () => {
    setBusy(true)
    setError(null)
    try {
      await saveApiKey(key.trim())
      setKey('')
      setSaved(true)
      onSaved?.()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  const source = settings?.apiKeySource
  return (
    <form
      className="api-key-form"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <div className="key-status small">
        <Icon name="key" size={13} />
        {settings?.hasApiKey
          ? source === 'environment'
            ? 'Using ANTHROPIC_API_KEY from the environment. A key saved here takes its place.'
            : 'A key is stored. It is never shown again; enter a new one to replace it.'
          : 'No key yet.'}
      </div>
      <div className="inline-fields">
        <input type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} placeholder="sk-ant-…" aria-label="Anthropic API key" data-testid="api-key-input" />
        <button className="btn btn-primary" type="submit" disabled={busy || !key.trim()} data-testid="api-key-save">
          {settings?.hasApiKey ? 'Replace key' : 'Save key'}
        </button>
      </div>
      {saved && !error && <div className="ok-text small">Saved. It stays {mode === 'electron' ? 'encrypted with your system keychain' : 'in a file only your user can read'}.</div>}
      {error && <div className="inline-error">{error}</div>}
    </form>
  )
}

type Draft = {
  baseUrl: string
  defaultModel: string
  aliases: Array<[string, string]>
  maxConcurrentAgents: string
  maxDepth: string
  maxBudgetUsd: string
  maxTurns: string
  defaultPermissionMode: PermissionMode
  coordinator: boolean
  agentTeams: boolean
}

const toDraft = (s: Settings): Draft => ({
  baseUrl: s.baseUrl ?? '',
  defaultModel: s.defaultModel,
  aliases: Object.entries(s.modelAliases),
  maxConcurrentAgents: String(s.limits.maxConcurrentAgents),
  maxDepth: String(s.limits.maxDepth),
  maxBudgetUsd: s.limits.maxBudgetUsd === null ? '' : String(s.limits.maxBudgetUsd),
  maxTurns: String(s.limits.maxTurns),
  defaultPermissionMode: s.defaultPermissionMode,
  coordinator: s.coordinator,
  agentTeams: s.agentTeams
})

function SettingsForm({ settings }: { settings: Settings }) {
  const [d, setD] = useState<Draft>(() => toDraft(settings))
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const up = (patch: Partial<Draft>) => {
    setD({ ...d, ...patch })
    setSaved(false)
  }
  const save = async () => {
    setError(null)
    try {
      await saveSettings({
        baseUrl: d.baseUrl.trim() || null,
        defaultModel: d.defaultModel.trim(),
        modelAliases: Object.fromEntries(d.aliases.filter(([a, m]) => a.trim() && m.trim()).map(([a, m]) => [a.trim(), m.trim()])),
        limits: {
          maxConcurrentAgents: Number(d.maxConcurrentAgents),
          maxDepth: Number(d.maxDepth),
          maxBudgetUsd: d.maxBudgetUsd.trim() ? Number(d.maxBudgetUsd) : null,
          maxTurns: Number(d.maxTurns)
        },
        defaultPermissionMode: d.defaultPermissionMode,
        coordinator: d.coordinator,
        agentTeams: d.agentTeams
      })
      setSaved(true)
    } catch (err) {
      setError(errorText(err))
    }
  }
  const num = (key: 'maxConcurrentAgents' | 'maxDepth' | 'maxBudgetUsd' | 'maxTurns', label: string, hint: string, placeholder = '') => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input inputMode="decimal" value={d[key]} placeholder={placeholder} onChange={(e) => up({ [key]: e.target.value } as Partial<Draft>)} data-testid={`setting-${key}`} />
      <span className="field-hint">{hint}</span>
    </label>
  )
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <section className="settings-section">
        <h3>Model endpoint</h3>
        <label className="field">
          <span className="field-label">Base URL</span>
          <input value={d.baseUrl} onChange={(e) => up({ baseUrl: e.target.value })} placeholder="https://api.anthropic.com (default)" spellCheck={false} data-testid="setting-baseUrl" />
          <span className="field-hint">For a gateway or an Anthropic-compatible server. Leave empty for the Anthropic API.</span>
        </label>
      </section>
      <section className="settings-section">
        <h3>Models</h3>
        <label className="field">
          <span className="field-label">Default model</span>
          <input value={d.defaultModel} onChange={(e) => up({ defaultModel: e.target.value })} spellCheck={false} />
          <span className="field-hint">An alias below or a full model id. Agents with <code>model: inherit</code> use their parent’s.</span>
        </label>
        <div className="field">
          <span className="field-label">Aliases</span>
          <div className="alias-table">
            {d.aliases.map(([alias, model], i) => (
              <div className="alias-row" key={i}>
                <input value={alias} onChange={(e) => up({ aliases: d.aliases.map((r, j) => (j === i ? [e.target.value, r[1]] : r)) })} aria-label="Alias" spellCheck={false} />
                <span className="muted">→</span>
                <input value={model} onChange={(e) => up({ aliases: d.aliases.map((r, j) => (j === i ? [r[0], e.target.value] : r)) })} aria-label="Model id" spellCheck={false} />
                <button type="button" className="icon-button" onClick={() => up({ aliases: d.aliases.filter((_, j) => j !== i) })} aria-label={`Remove ${alias}`}>
                  <Icon name="x" size={13} />
                </button>
              </div>
            ))}
            <button type="button" className="btn-link small" onClick={() => up({ aliases: [...d.aliases, ['', '']] })}>
              + Add alias
            </button>
          </div>
        </div>
      </section>
      <section className="settings-section">
        <h3>Limits</h3>
        <div className="field-grid">
          {num('maxConcurrentAgents', 'Parallel subagents', 'More wait as queued.')}
          {num('maxDepth', 'Nesting depth', 'How deep subagents may nest.')}
          {num('maxTurns', 'Main agent turns', 'Per prompt.')}
          {num('maxBudgetUsd', 'Budget per session (USD)', 'Stops the session at this cost.', 'No limit')}
        </div>
      </section>
      <section className="settings-section">
        <h3>Permissions</h3>
        <label className="field">
          <span className="field-label">Default permission mode</span>
          <select value={d.defaultPermissionMode} onChange={(e) => up({ defaultPermissionMode: e.target.value as PermissionMode })} data-testid="setting-permissionMode">
            {PERMISSION_MODES.map((m) => (
              <option key={m} value={m}>
                {MODE_LABEL[m]}
              </option>
            ))}
          </select>
        </label>
      </section>
      <section className="settings-section">
        <h3>Orchestration (new sessions)</h3>
        <label className="check-field">
          <input type="checkbox" checked={d.coordinator} onChange={(e) => up({ coordinator: e.target.checked })} data-testid="setting-coordinator" />
          <span>
            <span className="field-label">Coordinator mode</span>
            <span className="field-hint">The main agent only directs agents, in four phases: research, a plan, implementation with each worker in its own git worktree, and verification.</span>
          </span>
        </label>
        <label className="check-field">
          <input type="checkbox" checked={d.agentTeams || d.coordinator} disabled={d.coordinator} onChange={(e) => up({ agentTeams: e.target.checked })} data-testid="setting-agentTeams" />
          <span>
            <span className="field-label">Agent teams</span>
            <span className="field-hint">The main agent can start a team: workers that take tasks from a shared list and message each other. Always on in coordinator mode.</span>
          </span>
        </label>
      </section>
      {error && (
        <div className="inline-error" role="alert">
          {error}
        </div>
      )}
      <div className="form-actions">
        {saved && <span className="ok-text small">Saved.</span>}
        <button type="submit" className="btn btn-primary" data-testid="settings-save">
          Save settings
        </button>
      </div>
    </form>
  )
}

export function SettingsDialog() {
  const settings = useApp((s) => s.settings)
  return (
    <Dialog title="Settings" onClose={() => ui.setDialog(null)} wide testId="settings-dialog">
      <section className="settings-section">
        <h3>Anthropic API key</h3>
        <ApiKeyForm />
      </section>
      {settings ? <SettingsForm settings={settings} /> : <div className="muted">Loading…</div>}
      <McpServersSection />
      <p className="muted small settings-foot">The theme follows your system’s light or dark setting.</p>
    </Dialog>
  )
}

// The Settings form: endpoint (with Test connection), models and the three aliases, limits, the main agent's
// permission mode, orchestration. Every field is checked as it is typed with the contract's own rules; Save
// is refused while one is wrong, and a refusal from the host is put next to the field it is about.
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { PERMISSION_MODES } from '../../../shared/agent-definition'
import type { Settings } from '../../../shared/ipc-contract'
import {
  CLEARING_CHOICES,
  CLEARING_LABEL,
  EFFORT_CHOICES,
  EFFORT_LABEL,
  MODEL_ALIAS_NAMES,
  NUMBER_RULES,
  settingsFieldErrors,
  type EffortChoice,
  type NumberSetting,
  type SettingsFieldKey
} from '../../../shared/settings-fields'
import { DialogActions } from '../components/dialog-actions'
import { Icon } from '../components/icon'
import { SubmitForm } from '../components/submit-form'
import { saveSettings } from '../state/store'
import { CallError, errorMessage } from '../transport/types'
import { useConnectionTest, type FixHints } from './connection-test'
import { MODE_LABEL } from '../lib/permission-modes'
import { changedFields, draftErrors, draftPatch, FIELD_ORDER, sameDraft, toDraft, type Draft, type FieldErrors } from './settings-draft'

const NOT_SAVED = 'Nothing was saved: correct the highlighted field first.'

function FieldMessage({ field, error, hint }: { field: SettingsFieldKey; error?: string; hint?: ReactNode }) {
  if (error)
    return (
      <span className="field-error" id={`err-${field}`} data-testid={`error-${field}`}>
        <Icon name="x" size={11} /> {error}
      </span>
    )
  return hint ? <span className="field-hint">{hint}</span> : null
}

/** Props for an input that belongs to a field: highlighted and described by its error. */
const fieldProps = (field: SettingsFieldKey, error: string | undefined) => ({
  'data-field': field,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `err-${field}` : undefined,
  className: error ? 'invalid' : undefined
})

// Shown under the Base URL, in Settings: the key is at the top of this dialog, the address right above.
const SETTINGS_HINTS: FixHints = {
  base_url: 'Check the Base URL, or leave it empty to use the Anthropic API.',
  environment: 'This address comes from the ANTHROPIC_BASE_URL environment variable; enter a Base URL to use another.',
  network: 'Check the network connection; if you use a gateway, enter its address as the Base URL.',
  key: 'Check the key under “Anthropic API key” above, or replace it.',
  no_key: 'Save one under “Anthropic API key” above first.'
}

export function SettingsForm({ settings, onDirty }: { settings: Settings; onDirty(dirty: boolean): void }) {
  const [baseline, setBaseline] = useState<Draft>(() => toDraft(settings))
  const [d, setD] = useState<Draft>(baseline)
  const [touched, setTouched] = useState<ReadonlySet<SettingsFieldKey>>(new Set())
  const [showAll, setShowAll] = useState(false)
  const [hostErrors, setHostErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const local = draftErrors(d)
  const err = (k: SettingsFieldKey) => hostErrors[k] ?? (showAll || touched.has(k) ? local[k] : undefined)
  const defaults = settings.defaultModelAliases
  // A typed address that cannot be one: its field says so (once), however it was typed.
  const connection = useConnectionTest({
    baseUrl: d.baseUrl,
    hints: SETTINGS_HINTS,
    onInvalidUrl: () => (setTouched((t) => new Set([...t, 'baseUrl'])), focusField('baseUrl'))
  })

  // Before the next event: an Escape typed straight after a change must already know it is unsaved.
  useLayoutEffect(() => onDirty(!sameDraft(d, baseline)), [d, baseline, onDirty])

  const up = (patch: Partial<Draft>) => {
    const next = { ...d, ...patch }
    const changed = changedFields(d, next)
    setTouched((t) => new Set([...t, ...changed]))
    setHostErrors((h) => Object.fromEntries(Object.entries(h).filter(([k]) => !changed.includes(k as SettingsFieldKey))))
    setD(next)
    setSaved(false)
    setFormError(null)
  }
  const focusField = (k: SettingsFieldKey) => formRef.current?.querySelector<HTMLElement>(`[data-field="${k}"]`)?.focus()

  const save = async () => {
    const first = FIELD_ORDER.find((k) => local[k])
    if (first) {
      setShowAll(true)
      setFormError(NOT_SAVED)
      return focusField(first)
    }
    setBusy(true)
    try {
      // Claude Code's file is written only when its setting changed; Fanout's own choice goes with the rest.
      await saveSettings({
        ...draftPatch(d, defaults),
        ...(d.worktreeBaseRef !== baseline.worktreeBaseRef ? { worktreeBaseRef: d.worktreeBaseRef } : {}),
        ...(d.mergeStrategy !== baseline.mergeStrategy ? { mergeStrategy: d.mergeStrategy } : {})
      })
      setBaseline(d)
      setSaved(true)
      connection.clear() // it tested the settings as they were
      setFormError(null)
    } catch (e) {
      const { fields, rest } = settingsFieldErrors(e instanceof CallError ? e : { message: errorMessage(e) })
      setHostErrors(fields)
      setFormError(rest.length ? `Nothing was saved: ${rest.join(' ')}` : NOT_SAVED)
      const at = FIELD_ORDER.find((k) => fields[k])
      if (at) focusField(at)
    } finally {
      setBusy(false)
    }
  }

  const num = (key: NumberSetting, label: string, hint: string, placeholder = '') => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        inputMode={NUMBER_RULES[key].whole ? 'numeric' : 'decimal'}
        value={d[key]}
        placeholder={placeholder}
        onChange={(e) => up({ [key]: e.target.value } as Partial<Draft>)}
        data-testid={`setting-${key}`}
        {...fieldProps(key, err(key))}
      />
      <FieldMessage field={key} error={err(key)} hint={hint} />
    </label>
  )
  // A select whose value is a checked setting: its errors and hint below it, like a number's.
  const choice = (
    key: 'defaultPermissionMode' | 'toolResultClearing',
    label: string,
    hint: string,
    options: Array<{ value: string; label: string }>,
    testId = `setting-${key}`
  ) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <select value={d[key]} onChange={(e) => up({ [key]: e.target.value } as Partial<Draft>)} data-testid={testId} {...fieldProps(key, err(key))}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldMessage field={key} error={err(key)} hint={hint} />
    </label>
  )
  const modes = PERMISSION_MODES.filter((m) => m !== 'bubble' || d.defaultPermissionMode === 'bubble')

  return (
    <SubmitForm ref={formRef} className="form" noValidate onSubmit={save}>
      <section className="settings-section">
        <h3>Model endpoint</h3>
        <div className="field">
          <label className="field-label" htmlFor="setting-baseUrl">
            Base URL
          </label>
          <span className="inline-fields">
            <input
              id="setting-baseUrl"
              value={d.baseUrl}
              onChange={(e) => up({ baseUrl: e.target.value })}
              placeholder="https://api.anthropic.com (default)"
              spellCheck={false}
              data-testid="setting-baseUrl"
              {...fieldProps('baseUrl', err('baseUrl'))}
            />
            {connection.button}
          </span>
          <FieldMessage field="baseUrl" error={err('baseUrl')} hint="For a gateway or an Anthropic-compatible server. Leave empty for the Anthropic API." />
          {connection.result}
        </div>
      </section>
      <section className="settings-section">
        <h3>Models</h3>
        <label className="field">
          <span className="field-label">Default model</span>
          <input
            value={d.defaultModel}
            onChange={(e) => up({ defaultModel: e.target.value })}
            spellCheck={false}
            data-testid="setting-defaultModel"
            {...fieldProps('defaultModel', err('defaultModel'))}
          />
          <FieldMessage
            field="defaultModel"
            error={err('defaultModel')}
            hint={
              <>
                haiku, sonnet, opus or a full model id. Agents with <code>model: inherit</code> use their parent’s.
              </>
            }
          />
        </label>
        <label className="field">
          <span className="field-label">Effort</span>
          <select value={d.defaultEffort} onChange={(e) => up({ defaultEffort: e.target.value as EffortChoice | '' })} data-testid="setting-defaultEffort">
            <option value="">Each model’s default</option>
            {EFFORT_CHOICES.map((level) => (
              <option key={level} value={level}>
                {EFFORT_LABEL[level]}
              </option>
            ))}
          </select>
          <span className="field-hint">
            How hard new sessions’ agents think. A model’s default is medium on the 5.x models. <code>effortLevel</code> in a project’s{' '}
            <code>.claude/settings.json</code>, an agent file’s <code>effort:</code> and the new-session picker win over this.
          </span>
        </label>
        <div className="field" role="group" aria-labelledby="aliases-label">
          <span className="field-label" id="aliases-label">
            Aliases
          </span>
          <span className="field-hint">
            The model each name stands for, wherever it is used: the default model, agent files’ <code>model:</code>, and the Agent tool.
          </span>
          <div className="alias-table">
            {MODEL_ALIAS_NAMES.map((alias) => {
              const key = `alias.${alias}` as const
              const value = d.aliases[alias]
              return (
                <div className="alias-row" key={alias} data-testid={`alias-${alias}`}>
                  <span className="alias-name mono">{alias}</span>
                  <span className="muted" aria-hidden="true">
                    →
                  </span>
                  <input
                    value={value}
                    onChange={(e) => up({ aliases: { ...d.aliases, [alias]: e.target.value } })}
                    aria-label={`Model id for ${alias}`}
                    spellCheck={false}
                    {...fieldProps(key, err(key))}
                  />
                  <button
                    type="button"
                    className="btn-link small"
                    disabled={value.trim() === defaults[alias]}
                    onClick={() => up({ aliases: { ...d.aliases, [alias]: defaults[alias] } })}
                    title={`Back to ${defaults[alias]}`}
                  >
                    Reset to default
                  </button>
                  <span className="alias-message">
                    <FieldMessage field={key} error={err(key)} hint={value.trim() === defaults[alias] ? 'Default' : `Default: ${defaults[alias]}`} />
                  </span>
                </div>
              )
            })}
          </div>
        </div>
      </section>
      <section className="settings-section">
        <h3>Limits</h3>
        <div className="field-grid">
          {num('maxConcurrentAgents', 'Parallel subagents', 'More wait as queued. 1 to 256.')}
          {num('maxDepth', 'Nesting depth', 'How deep subagents may nest. 1 to 32.')}
          {num('maxTurns', 'Turns per agent', 'Each run of any agent without its own max turns. 1 to 10,000.')}
          {num('maxBudgetUsd', 'Budget per session (USD)', 'Stops the session at this cost. Empty: no limit.', 'No limit')}
          {num('maxBudgetTokens', 'Token budget per session', 'All agents together: input, output and cache. Empty: no limit.', 'No limit')}
          {num(
            'subagentBudgetUsd',
            'Budget per subagent (USD)',
            'Stops a subagent and its own subagents at this cost, unless its Agent call or file sets a budget. Empty: no limit.',
            'No limit'
          )}
          {num(
            'approveFanoutAboveUsd',
            'Ask before fan-outs above (USD)',
            'Asks before subagents start whose estimate may cost more than this. Empty: never ask.',
            'Never ask'
          )}
        </div>
      </section>
      <section className="settings-section">
        <h3>Permissions</h3>
        {choice(
          'defaultPermissionMode',
          'Main agent’s permission mode',
          'For new sessions. Subagents can also bubble their requests up to their parent; set that in their agent file.',
          modes.map((m) => ({ value: m, label: m === 'bubble' ? 'Bubble to parent (the main agent has none: it asks you)' : MODE_LABEL[m] })),
          'setting-permissionMode'
        )}
      </section>
      <section className="settings-section">
        <h3>Long sessions</h3>
        <label className="check-field">
          <input type="checkbox" checked={d.autoCompact} onChange={(e) => up({ autoCompact: e.target.checked })} data-testid="setting-autoCompact" />
          <span>
            <span className="field-label">Compact conversations automatically</span>
            <span className="field-hint">
              When an agent’s conversation nears its model’s context window, the older part is summarised and the agent carries on from the summary and its
              latest turns. Its transcript keeps everything.
            </span>
          </span>
        </label>
        <div className="field-grid">
          {num(
            'autoCompactPercent',
            'Compact at (% of the window)',
            'Empty: like Claude Code, the window less 33k (83.5% of 200k, 96.7% of 1M). 10 to 100.',
            'Default'
          )}
          {choice(
            'toolResultClearing',
            'Old tool results',
            'Past half the window, all but the last five become one-line notes in what is sent (transcripts keep them). The API does this for Claude 4 and later on Anthropic’s own endpoint; elsewhere Fanout does.',
            CLEARING_CHOICES.map((c) => ({ value: c, label: CLEARING_LABEL[c] }))
          )}
        </div>
      </section>
      <section className="settings-section">
        <h3>Orchestration (new sessions)</h3>
        <label className="check-field">
          <input type="checkbox" checked={d.coordinator} onChange={(e) => up({ coordinator: e.target.checked })} data-testid="setting-coordinator" />
          <span>
            <span className="field-label">Coordinator mode</span>
            <span className="field-hint">
              The main agent only directs agents, in four phases: research, a plan, implementation with each worker in its own git worktree, and verification.
            </span>
          </span>
        </label>
        <label className="check-field">
          <input
            type="checkbox"
            checked={d.agentTeams || d.coordinator}
            disabled={d.coordinator}
            onChange={(e) => up({ agentTeams: e.target.checked })}
            data-testid="setting-agentTeams"
          />
          <span>
            <span className="field-label">Agent teams</span>
            <span className="field-hint">
              The main agent can start a team: workers that take tasks from a shared list and message each other. Always on in coordinator mode.
            </span>
          </span>
        </label>
        <label className="field">
          <span className="field-label">Agents that start together</span>
          <select
            value={d.promptCacheSharing}
            onChange={(e) => up({ promptCacheSharing: e.target.value as Draft['promptCacheSharing'] })}
            data-testid="setting-promptCacheSharing"
          >
            <option value="first">Share the prompt cache: start one, the rest once its reply begins</option>
            <option value="prewarm">Warm the prompt cache first, then start them all</option>
            <option value="off">Start them all at once</option>
          </select>
          <span className="field-hint" data-testid="promptCacheSharing-hint">
            Agents started side by side have the same instructions and tools. Shared, those are read from the prompt cache at a tenth of the input price instead
            of each agent paying 1.25× to write them; it delays all but the first by the time a reply takes to begin. Warming first costs one more request and
            delays the first agent too.
          </span>
        </label>
      </section>
      <section className="settings-section">
        <h3>Agents’ worktrees</h3>
        <label className="field">
          <span className="field-label">New agent worktrees start from</span>
          <select
            value={d.worktreeBaseRef}
            onChange={(e) => up({ worktreeBaseRef: e.target.value as Draft['worktreeBaseRef'] })}
            data-testid="setting-worktreeBaseRef"
          >
            <option value="head">Your current commit (head): unpushed commits included</option>
            <option value="fresh">The remote’s default branch (fresh): origin/HEAD, fetched first</option>
          </select>
          <span className="field-hint" data-testid="worktreeBaseRef-hint">
            Claude Code’s <code>worktree.baseRef</code>, saved in your <code>~/.claude/settings.json</code>.
            {settings.worktreeBaseRef.scope && settings.worktreeBaseRef.scope !== 'user' && (
              <>
                {' '}
                <code>{settings.worktreeBaseRef.file}</code> sets it for this folder and takes precedence: change it there.
              </>
            )}
          </span>
        </label>
        <label className="field">
          <span className="field-label">Merging an agent’s work</span>
          <select value={d.mergeStrategy} onChange={(e) => up({ mergeStrategy: e.target.value as Draft['mergeStrategy'] })} data-testid="setting-mergeStrategy">
            <option value="merge">Merge commit: keeps the agent’s commits</option>
            <option value="squash">Squash: one commit with all its changes</option>
          </select>
          <span className="field-hint">What the Changes view offers first; it also remembers the choice you make there.</span>
        </label>
      </section>
      <DialogActions confirm="Save settings" busy={busy} confirmTestId="settings-save">
        {formError && (
          <span className="inline-error form-error" role="alert">
            {formError}
          </span>
        )}
        {saved && !formError && <span className="ok-text small">Saved.</span>}
      </DialogActions>
    </SubmitForm>
  )
}

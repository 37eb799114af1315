// The empty state of a workspace: what should the agents do? With the agent, model and permission
// mode for the main agent, and the scripted demo one click away.
import { useState } from 'react'
import { PERMISSION_MODES, type PermissionMode } from '../../../shared/agent-definition'
import { EFFORT_CHOICES, EFFORT_LABEL, type EffortChoice } from '../../../shared/settings-fields'

const EFFORT_SHORT: Record<EffortChoice, string> = { low: 'low', medium: 'medium', high: 'high', xhigh: 'extra high', max: 'max' }
import { Icon } from '../components/icon'
import { type Choice, choicesWithDefault } from '../lib/default-choice'
import { useTask } from '../lib/use-task'
import { MODE_LABEL } from '../lib/permission-modes'
import { startDemo, startSession, ui, useApp } from '../state/store'
import { CallError } from '../transport/types'
import { requestNotificationPermission } from './notifications'
import { PromptBox } from './prompt-box'
import { WaitingNotice } from './waiting-notice'

export function NewSession() {
  const workspace = useApp((s) => s.workspace)
  const settings = useApp((s) => s.settings)
  const agentDefs = useApp((s) => s.agentDefs)
  const [agent, setAgent] = useState('')
  const [model, setModel] = useState('')
  const [mode, setMode] = useState<PermissionMode | ''>('')
  const [effort, setEffort] = useState<EffortChoice | ''>('')
  const { error: demoError, busy: demoBusy, run } = useTask()
  // A start refused for want of a key: the way to add one sits right under the refusal.
  const [needKey, setNeedKey] = useState(false)
  const aliases = Object.keys(settings?.modelAliases ?? {})

  const runDemo = () => {
    requestNotificationPermission()
    return run(startDemo)
  }

  return (
    <div className="new-session">
      <div className="new-session-inner">
        <WaitingNotice />
        <h1 className="new-session-title">What should the agents do?</h1>
        <p className="new-session-sub muted">
          In <code>{workspace?.cwd ?? '…'}</code>. The main agent can delegate to subagents that run in parallel — each gets its own live panel.
        </p>
        <PromptBox
          placeholder="Describe the task… e.g. “Review the parser for bugs and add missing tests”"
          autoFocus
          submitLabel="Start"
          testId="new-prompt"
          draftKey="new-session"
          project={workspace?.cwd}
          errorScope={settings?.hasApiKey}
          onSubmit={async (prompt) => {
            requestNotificationPermission()
            setNeedKey(false)
            try {
              await startSession({
                prompt,
                ...(agent ? { agent } : {}),
                ...(model ? { model } : {}),
                ...(mode ? { permissionMode: mode } : {}),
                ...(effort ? { effort } : {})
              })
            } catch (err) {
              if (err instanceof CallError && err.code === 'unavailable' && settings && !settings.hasApiKey) setNeedKey(true)
              throw err
            }
          }}
        >
          <label className="select-inline" title="The main agent">
            <Icon name="agents" size={13} />
            <select value={agent} onChange={(e) => setAgent(e.target.value)} aria-label="Main agent">
              <option value="">Default agent</option>
              {agentDefs.map((a) => (
                <option key={a.definition.agentType} value={a.definition.agentType}>
                  {a.definition.agentType}
                </option>
              ))}
            </select>
          </label>
          <label className="select-inline" title="Model">
            <Icon name="sparkle" size={13} />
            <select value={model} onChange={(e) => setModel(e.target.value)} aria-label="Model">
              <ChoiceOptions
                choices={choicesWithDefault(
                  aliases,
                  settings?.defaultModel,
                  (m) => m,
                  'Default model',
                  (m) => `Model: ${m}`
                )}
              />
            </select>
          </label>
          <label className="select-inline" title="Effort: how hard the agents think">
            <Icon name="gauge" size={13} />
            <select value={effort} onChange={(e) => setEffort(e.target.value as EffortChoice | '')} aria-label="Effort" data-testid="new-effort">
              <option value="">{settings?.defaultEffort ? `Effort: ${EFFORT_SHORT[settings.defaultEffort]}` : 'Effort: default'}</option>
              {EFFORT_CHOICES.map((level) => (
                <option key={level} value={level}>
                  {EFFORT_LABEL[level]}
                </option>
              ))}
            </select>
          </label>
          <label className="select-inline" title="Permission mode">
            <Icon name="shield" size={13} />
            <select value={mode} onChange={(e) => setMode(e.target.value as PermissionMode | '')} aria-label="Permission mode">
              <ChoiceOptions
                choices={choicesWithDefault(
                  PERMISSION_MODES.filter((m) => m !== 'bubble'),
                  settings?.defaultPermissionMode,
                  (m) => MODE_LABEL[m as PermissionMode],
                  'Default permissions'
                )}
              />
            </select>
          </label>
        </PromptBox>
        {needKey && settings && !settings.hasApiKey && (
          <div className="new-session-key">
            <button className="btn btn-primary btn-sm" onClick={() => ui.setDialog('settings')} data-testid="open-settings-for-key">
              <Icon name="key" size={12} /> Add an API key in Settings
            </button>
          </div>
        )}
        <div className="new-session-demo">
          <button className="btn btn-ghost btn-sm" onClick={() => void runDemo()} disabled={demoBusy} data-testid="run-demo">
            <Icon name="play" size={12} /> Run the scripted demo
          </button>
          <span className="muted small">
            A scripted model (no API key, no network) fans out over this folder with real tools, and asks before it runs a command.
          </span>
        </div>
        {demoError && <div className="inline-error">{demoError}</div>}
      </div>
    </div>
  )
}

/** The entries of a picker that starts with its default (see choicesWithDefault). */
function ChoiceOptions({ choices }: { choices: Choice[] }) {
  return (
    <>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </>
  )
}

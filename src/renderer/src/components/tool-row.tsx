// A tool call as a collapsible row: name, what it is about, status and duration; open for input and output.
import { memo, useState } from 'react'
import { formatDuration } from '../lib/format'
import { permissionWaits, timingText, toolTiming } from '../lib/tool-timing'
import { reasonBeyondInput } from '../lib/permission-reason'
import { prettyJson, toolSummary } from '../lib/tool-summary'
import { useApp } from '../state/store'
import type { ToolCall } from '../../../shared/view/session-state'
import { splitReminders } from '../../../shared/view/model-markup'
import { EditDiffView } from './edit-diff-view'
import { Icon, Spinner } from './icon'
import { editDiffOf } from '../lib/edit-diff'
import { CommandParts, PermissionActions } from './permission-card'
import { useOpenRows } from './row-state'

const OUTPUT_PREVIEW = 4000

function ToolStatusIcon({ tool }: { tool: ToolCall }) {
  switch (tool.status) {
    case 'running':
      return <Spinner size={11} />
    case 'done':
      return <Icon name="check" size={13} className="tool-ok" />
    case 'error':
      return <Icon name="x" size={13} className="tool-err" />
    case 'cancelled':
      return <Icon name="stop" size={12} className="muted" />
    default:
      return <Icon name="dot" size={13} className="muted" />
  }
}

function ToolInput({ tool, previousText }: { tool: ToolCall; previousText?: string }) {
  const input = tool.input as Record<string, unknown> | undefined
  // An edit reads as the diff it makes (raw JSON only while its input is still streaming in).
  if (editDiffOf(tool.name, tool.input)) return <EditDiffView toolName={tool.name} input={tool.input} details={tool.details} previousText={previousText} />
  if (tool.name === 'Bash' && typeof input?.command === 'string') return <pre className="tool-pre">$ {input.command}</pre>
  return <pre className="tool-pre">{tool.input !== undefined ? prettyJson(tool.input) : tool.inputJson || '…'}</pre>
}

function ToolOutput({ tool }: { tool: ToolCall }) {
  const [all, setAll] = useState(false)
  // What a hook added for the model (<system-reminder>) shows as its words, apart from the tool's own output.
  const { text: out, reminders } = splitReminders(tool.output ?? '')
  const shown = all ? out : out.slice(0, OUTPUT_PREVIEW)
  return (
    <>
      <pre className={`tool-pre${tool.status === 'error' ? ' tool-pre-error' : ''}`}>{shown || '(no output)'}</pre>
      {reminders.map((r, i) => (
        <div key={i} className="tool-hook-note small muted" data-testid="tool-hook-note">
          {r}
        </div>
      ))}
      {!all && out.length > OUTPUT_PREVIEW && (
        <button className="btn-link small" onClick={() => setAll(true)}>
          Show all {out.length.toLocaleString()} characters
        </button>
      )}
    </>
  )
}

export const ToolRow = memo(function ToolRow({ sessionId, toolUseId, compact = false }: { sessionId: string; toolUseId: string; compact?: boolean }) {
  const tool = useApp((s) => s.events.sessions[sessionId]?.tools[toolUseId])
  const request = useApp((s) => (tool?.permissionRequestId ? s.events.sessions[sessionId]?.permissions[tool.permissionRequestId] : undefined))
  // The time it waited for permission is not its run time (the runtime's duration includes it).
  const waitMs = useApp((s) => {
    const permissions = s.events.sessions[sessionId]?.permissions
    return permissions ? (permissionWaits(permissions).get(toolUseId) ?? 0) : 0
  })
  const open = useOpenRows((s) => !!s.open[toolUseId])
  const toggle = useOpenRows((s) => s.toggle)
  if (!tool) return null
  const summary = toolSummary(tool.name, tool.input, tool.inputJson)
  const waiting = request && !request.decision
  const timing = toolTiming(tool, waitMs)
  return (
    <div className={`tool-row tool-${tool.status}${waiting ? ' tool-waiting' : ''}${compact ? ' compact' : ''}`} data-testid="tool-row" data-tool={tool.name}>
      <button className="tool-head" onClick={() => toggle(toolUseId)} aria-expanded={open}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} className="chev" />
        <ToolStatusIcon tool={tool} />
        <span className="tool-name">{tool.name}</span>
        <span className="tool-summary" title={summary}>
          {summary}
        </span>
        <span className="tool-meta" title={waiting || tool.status === 'cancelled' ? undefined : timingText(timing) || undefined}>
          {waiting ? <span className="tag tag-warn">needs permission</span> : tool.status === 'cancelled' ? 'cancelled' : formatDuration(timing.runMs)}
        </span>
      </button>
      {waiting && !compact && (
        <div className="tool-permission">
          {/* The row's head already shows the command: only what the reason adds to it. */}
          <span className="small">{reasonBeyondInput(request.reason, request.input)}</span>
          <CommandParts parts={request.commandParts} />
          <PermissionActions key={request.requestId} request={request} size="panel" />
        </div>
      )}
      {open && (
        <div className="tool-body">
          <div className="tool-section-label">Input</div>
          {/* An overwriting Write: against the file's text its request carried, until its own patch says what it did. */}
          <ToolInput tool={tool} previousText={request?.previousText} />
          {tool.output !== undefined && (
            <>
              <div className="tool-section-label">Output {timing.runMs !== undefined && <span className="muted">· {timingText(timing)}</span>}</div>
              <ToolOutput tool={tool} />
            </>
          )}
          {tool.status === 'running' && tool.progress !== undefined && <pre className="tool-pre muted">{prettyJson(tool.progress)}</pre>}
        </div>
      )}
    </div>
  )
})

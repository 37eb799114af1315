// The editor's right column: the loader's diagnostics at file:line:col (click one to see the line), and the
// effective result — the tools a subagent of this definition really gets, why each other tool is removed,
// and the exact line it adds to the Agent tool's listing.
import type { Diagnostic } from '../../../shared/agent-definition'
import type { AgentAnalysis, EditorFieldKey } from '../../../shared/agent-editor'
import { Icon } from '../components/icon'
import { editorUi } from './editor-store'
import { FIELD_LABEL } from './field-help'
import { Prose } from './prose'

const fileName = (file: string): string => file.split(/[\\/]/).pop() ?? file

/** `unapplied`: fields whose typed value the text lacks (the draft's, see editor-store.ts), said before any "Loads cleanly". */
export function ProblemsPanel({ analysis, unapplied }: { analysis: AgentAnalysis; unapplied?: Partial<Record<EditorFieldKey, string>> }) {
  const shown = analysis.diagnostics
  const notInText = Object.keys(unapplied ?? {}) as EditorFieldKey[]
  const counts = { error: 0, warning: 0, info: 0 }
  for (const d of shown) counts[d.severity]++
  return (
    <section className="ae-card" data-testid="problems-panel">
      <h3>
        Problems
        <span className="ae-counts">
          {counts.error > 0 && (
            <span className="err-text">
              {counts.error} error{counts.error > 1 ? 's' : ''}
            </span>
          )}
          {counts.warning > 0 && (
            <span className="warn-text">
              {counts.warning} warning{counts.warning > 1 ? 's' : ''}
            </span>
          )}
          {counts.info > 0 && (
            <span className="muted">
              {counts.info} note{counts.info > 1 ? 's' : ''}
            </span>
          )}
        </span>
      </h3>
      {notInText.length > 0 && (
        <p className="err-text small" data-testid="problems-unapplied">
          <Icon name="alert" size={13} /> What you typed in {notInText.map((k) => FIELD_LABEL[k]).join(', ')} is not in the file; what follows is about the file
          without it.
        </p>
      )}
      {shown.length === 0 ? (
        <p className="ae-ok small">
          <Icon name="check" size={13} /> Loads cleanly, exactly as Claude Code reads it.
        </p>
      ) : (
        <ul className="ae-problems">
          {shown.map((d: Diagnostic, i) => (
            <li key={i} className={`ae-problem ${d.severity}`}>
              <button type="button" onClick={() => editorUi.reveal(d.line)} title="Show this line in the raw file" data-testid="problem">
                <code className="ae-problem-at">
                  {fileName(d.file)}:{d.line}:{d.column}
                </code>
                <span className="ae-problem-sev">{d.severity}</span>
                <span className="ae-problem-msg">
                  <Prose text={d.message} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** Groups removed tools by reason, so forty "not in the agent's tools list" lines read as one. */
function byReason(removed: Record<string, string>): Array<[string, string[]]> {
  const groups = new Map<string, string[]>()
  for (const [tool, reason] of Object.entries(removed)) groups.set(reason, [...(groups.get(reason) ?? []), tool])
  return [...groups].sort((a, b) => a[1].length - b[1].length)
}

export function EffectivePanel({ analysis }: { analysis: AgentAnalysis }) {
  const e = analysis.effective
  if (!e) {
    return (
      <section className="ae-card" data-testid="effective-panel">
        <h3>Effective result</h3>
        <p className="small muted">This definition does not load, so the runtime would not offer it. Fix the errors above to see its tools and listing line.</p>
      </section>
    )
  }
  const t = e.tools
  return (
    <section className="ae-card" data-testid="effective-panel">
      <h3>
        Effective tools <span className="count">{t.resolvedTools.length}</span>
      </h3>
      {t.error ? (
        <p className="inline-error small">{t.error}</p>
      ) : (
        <div className="ae-resolved" data-testid="resolved-tools">
          {t.resolvedTools.map((tool) => (
            <span key={tool} className="ae-tool-chip" title={t.toolRules[tool] ? `only ${t.toolRules[tool].join(', ')}` : undefined}>
              {tool}
              {t.toolRules[tool] && <span className="faint">({t.toolRules[tool].join(', ')})</span>}
            </span>
          ))}
        </div>
      )}
      {t.invalidTools.length > 0 && (
        <p className="small err-text" data-testid="invalid-tools">
          <Icon name="alert" size={12} /> Listed, but it will not get:{' '}
          {t.invalidTools.map((x) => (
            <code key={x}>{x} </code>
          ))}
          <span className="muted">— no such tool, or removed below</span>
        </p>
      )}
      {t.allowedAgentTypes && (
        <p className="small muted">
          May start only: <code>{t.allowedAgentTypes.join(', ')}</code>
        </p>
      )}
      {Object.keys(t.removed).length > 0 && (
        <details className="ae-removed" data-testid="removed-tools">
          <summary className="small">{Object.keys(t.removed).length} removed — why</summary>
          <ul>
            {byReason(t.removed).map(([reason, tools]) => (
              <li key={reason} className="small">
                <span className="ae-removed-tools">{tools.join(', ')}</span>
                <span className="muted"> — {reason}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <h3 className="ae-card-sub">Listing line</h3>
      <p className="field-hint">Exactly what the Agent tool tells the model about this agent.</p>
      <pre className="ae-listing-line" data-testid="listing-line">
        {e.listingLine}
      </pre>
    </section>
  )
}

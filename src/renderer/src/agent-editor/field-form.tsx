// The form: one control per frontmatter field, each with its one-line explanation and the loader's
// diagnostics for its lines. Every change goes to the host, which rewrites only that field's lines.
import { PERMISSION_MODES } from '../../../shared/agent-definition'
import type { Diagnostic } from '../../../shared/agent-definition'
import type { AgentAnalysis, EditorFieldKey, FieldValue } from '../../../shared/agent-editor'
import { Icon } from '../components/icon'
import { useApp } from '../state/store'
import { setField } from './draft-edits'
import { editorUi, useAgentEditor } from './editor-store'
import { ChoiceRow, ColorPicker, FieldFrame, ModelPicker, NameList, Select, TextArea, TextInput, Toggle } from './field-controls'
import { CODE_FIELD, EFFORT_LEVELS, MEMORY_SCOPES, PERMISSION_HELP } from './field-help'
import { fieldProblemText } from './load-problem'
import { Prose } from './prose'
import { ToolsPicker } from './tools-picker'
import { YamlField } from './yaml-field'

function problemsByField(a: AgentAnalysis): Partial<Record<EditorFieldKey, Diagnostic[]>> {
  const out: Partial<Record<EditorFieldKey, Diagnostic[]>> = {}
  for (const d of a.diagnostics) {
    let key: EditorFieldKey | undefined = CODE_FIELD[d.code]
    if (!key) {
      const hit = Object.entries(a.keySpans).find(([, s]) => d.line >= s.line && d.line <= s.endLine)
      key = hit?.[0] as EditorFieldKey | undefined
    }
    // Under its field, in the form's words: an empty required field says "Required", not where to type in YAML.
    if (key) (out[key] ??= []).push({ ...d, message: fieldProblemText(d) })
  }
  return out
}

const str = (v: FieldValue | undefined): string => (v === undefined ? '' : Array.isArray(v) ? v.join(', ') : String(v))
const list = (v: FieldValue | undefined): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [String(v)])
const flag = (v: FieldValue | undefined): boolean => v === true || v === 'true'

/** mcpServers names (a list of names, or the keys of configurations) for the tools picker's suggestions. */
function serverNames(yaml: string): string[] {
  return [...yaml.matchAll(/^-\s*([A-Za-z0-9_.-]+)\s*:?\s*$/gm), ...yaml.matchAll(/^([A-Za-z0-9_.-]+):\s*$/gm)].map((m) => m[1])
}

const LOCKED_NOTE_ID = 'ae-form-locked-note'

/** Why the form cannot be edited, at its top (and kept in view while scrolling through the fields). */
function LockedNote({ analysis, readOnly }: { analysis: AgentAnalysis; readOnly: boolean }) {
  const [title, detail] = readOnly
    ? ['Read-only here.', 'Duplicate this agent to edit a copy.']
    : analysis.repair
      ? ['Fix the YAML to edit in the form.', 'The values below are what Claude Code reads. Use Fix it above, or edit the raw file.']
      : ['The form cannot edit this file.', analysis.formBlocked ?? '']
  return (
    <p className="ae-form-locked" id={LOCKED_NOTE_ID} data-testid="form-locked">
      <Icon name="lock" size={13} />
      <span>
        <strong>{title}</strong> <Prose text={detail} />
      </span>
      {!readOnly && (
        <button type="button" className="btn btn-sm" onClick={() => editorUi.setTab('raw')}>
          Open the raw file
        </button>
      )}
    </p>
  )
}

export function FieldForm({
  analysis,
  fieldError,
  unapplied,
  availableTools,
  readOnly
}: {
  analysis: AgentAnalysis
  fieldError?: { key?: string; message: string }
  /** Fields whose form value the text lacks, and why (said at each until it is in). */
  unapplied?: Partial<Record<EditorFieldKey, string>>
  availableTools: string[]
  readOnly: boolean
}) {
  const aliases = useApp((s) => s.settings?.modelAliases)
  const f = analysis.fields
  const problems = problemsByField(analysis)
  const p = (key: EditorFieldKey) => problems[key] ?? []
  const err = (key: EditorFieldKey) => unapplied?.[key] ?? (fieldError?.key === key ? fieldError.message : undefined)
  const disabled = readOnly || !analysis.formEditable
  const text =
    (key: EditorFieldKey, optional = true) =>
    (v: string) =>
      setField(key, v === '' && optional ? null : v)
  // The tools it may use and the ones it may not: the same picker, only the first offers "all".
  const toolsField = (key: 'tools' | 'disallowedTools', allowAll: boolean, testId: string) => (
    <FieldFrame field={key} problems={p(key)} error={err(key)} group wide>
      <ToolsPicker
        value={list(f[key])}
        onChange={(v) => setField(key, v)}
        available={availableTools}
        servers={servers}
        allowAll={allowAll}
        disabled={disabled}
        testId={testId}
      />
    </FieldFrame>
  )
  // A yes/no field: on writes `on`, off removes the key (absent means no).
  const yesNo = (key: EditorFieldKey, checked: boolean, label: string, on: FieldValue, testId?: string) => (
    <FieldFrame field={key} problems={p(key)} error={err(key)}>
      <Toggle checked={checked} label={label} onChange={(v) => setField(key, v ? on : null)} disabled={disabled} testId={testId} />
    </FieldFrame>
  )
  const configured = useAgentEditor((s) => s.mcpServers)
  const servers = [...new Set([...serverNames(str(f.mcpServers)), ...configured])]
  const knownIds = [...new Set(Object.values(aliases ?? {}))]

  return (
    <div className="ae-form" data-testid="agent-form">
      {disabled && <LockedNote analysis={analysis} readOnly={readOnly} />}
      {/* Disabled as one: every control inside is locked, and the note above says why to whoever enters it. */}
      <fieldset
        className="ae-form-fields"
        aria-label="Frontmatter fields"
        disabled={disabled}
        aria-describedby={disabled ? LOCKED_NOTE_ID : undefined}
        data-testid="agent-form-fields"
      >
        <section className="ae-section">
          <h3>Identity</h3>
          <FieldFrame field="name" problems={p('name')} error={err('name')} aside={<span className="faint small">renaming the file: use Rename</span>}>
            <TextInput value={str(f.name)} onChange={text('name', false)} disabled={disabled} mono testId="field-input-name" />
          </FieldFrame>
          <FieldFrame field="description" problems={p('description')} error={err('description')} wide>
            <TextArea
              value={str(f.description)}
              onChange={text('description', false)}
              disabled={disabled}
              rows={4}
              testId="field-input-description"
              placeholder="Use this agent when …"
            />
          </FieldFrame>
        </section>

        <section className="ae-section">
          <h3>Tools</h3>
          {toolsField('tools', true, 'tools-picker')}
          {toolsField('disallowedTools', false, 'disallowed-picker')}
        </section>

        <section className="ae-section">
          <h3>Model and behavior</h3>
          <FieldFrame field="model" problems={p('model')} error={err('model')} group wide>
            <ModelPicker value={str(f.model)} onChange={(v) => setField('model', v)} disabled={disabled} knownIds={knownIds} />
          </FieldFrame>
          <FieldFrame field="color" problems={p('color')} error={err('color')} group wide>
            <ColorPicker value={str(f.color)} onChange={(v) => setField('color', v)} disabled={disabled} />
          </FieldFrame>
          <div className="ae-grid">
            <FieldFrame field="permissionMode" problems={p('permissionMode')} error={err('permissionMode')}>
              <Select
                value={str(f.permissionMode)}
                disabled={disabled}
                onChange={(v) => setField('permissionMode', v || null)}
                testId="field-input-permissionMode"
              >
                <option value="">Inherit from the caller</option>
                {PERMISSION_MODES.map((m) => (
                  <option key={m} value={m}>
                    {m} — {PERMISSION_HELP[m]}
                  </option>
                ))}
                {f.permissionMode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(str(f.permissionMode)) && (
                  <option value={str(f.permissionMode)}>{str(f.permissionMode)} (not a mode)</option>
                )}
              </Select>
            </FieldFrame>
            <FieldFrame field="maxTurns" problems={p('maxTurns')} error={err('maxTurns')}>
              <TextInput
                value={str(f.maxTurns)}
                onChange={(v) => setField('maxTurns', v.trim() === '' ? null : /^\d+$/.test(v.trim()) ? Number(v.trim()) : v)}
                placeholder="no limit of its own"
                disabled={disabled}
                testId="field-input-maxTurns"
              />
            </FieldFrame>
            <FieldFrame field="effort" problems={p('effort')} error={err('effort')} group>
              <ChoiceRow
                options={[
                  { value: '', label: 'Default' },
                  ...EFFORT_LEVELS.map((l) => ({ value: l, label: l })),
                  ...(f.effort !== undefined && !(EFFORT_LEVELS as readonly string[]).includes(str(f.effort))
                    ? [{ value: str(f.effort), label: str(f.effort) }]
                    : [])
                ]}
                value={str(f.effort)}
                onChange={(v) => setField('effort', v || null)}
                disabled={disabled}
              />
            </FieldFrame>
            <FieldFrame field="memory" problems={p('memory')} error={err('memory')} group>
              <ChoiceRow
                options={[{ value: '', label: 'None' }, ...MEMORY_SCOPES.map((m) => ({ value: m, label: m }))]}
                value={str(f.memory)}
                onChange={(v) => setField('memory', v || null)}
                disabled={disabled}
              />
            </FieldFrame>
            {yesNo('background', flag(f.background), 'Always run in the background', true, 'field-input-background')}
            {yesNo('isolation', f.isolation === 'worktree', 'Own git worktree', 'worktree', 'field-input-isolation')}
            {yesNo('forkContext', flag(f.forkContext), 'See the caller’s conversation', true)}
          </div>
        </section>

        <section className="ae-section">
          <h3>Context</h3>
          <FieldFrame field="skills" problems={p('skills')} error={err('skills')} wide>
            <NameList value={list(f.skills) ?? []} onChange={(v) => setField('skills', v)} placeholder="Add a skill name, then Enter" disabled={disabled} />
          </FieldFrame>
          <FieldFrame field="initialPrompt" problems={p('initialPrompt')} error={err('initialPrompt')} wide>
            <TextArea value={str(f.initialPrompt)} onChange={text('initialPrompt')} disabled={disabled} rows={2} />
          </FieldFrame>
        </section>

        <section className="ae-section">
          <h3>Integrations</h3>
          <FieldFrame field="mcpServers" problems={p('mcpServers')} error={err('mcpServers')} group wide>
            <YamlField field="mcpServers" value={str(f.mcpServers)} onChange={(v) => setField('mcpServers', v)} disabled={disabled} />
          </FieldFrame>
          <FieldFrame field="hooks" problems={p('hooks')} error={err('hooks')} group wide>
            <YamlField field="hooks" value={str(f.hooks)} onChange={(v) => setField('hooks', v)} disabled={disabled} />
          </FieldFrame>
        </section>

        {(analysis.unknownKeys.length > 0 || analysis.rawOnlyKeys.length > 0) && (
          <section className="ae-section">
            <h3>Other keys</h3>
            <ul className="ae-unknown" data-testid="unknown-keys">
              {analysis.rawOnlyKeys.map((k) => (
                <li key={k}>
                  <code>{k}</code>{' '}
                  <span className="faint small">line {analysis.keySpans[k]?.line} · an agent field this form does not edit; change it in the raw file</span>
                </li>
              ))}
              {analysis.unknownKeys.map((k) => (
                <li key={k}>
                  <code>{k}</code>{' '}
                  <span className="faint small">line {analysis.keySpans[k]?.line} · not an agent field: kept exactly as written, with no effect</span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </fieldset>
    </div>
  )
}

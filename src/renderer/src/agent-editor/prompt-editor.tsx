// The system prompt (the markdown body): a CodeMirror markdown editor, its rendered preview, or both.
import { MarkdownView } from '../components/markdown-view'
import { CodeEditor } from './code-editor'
import { setBody } from './draft-edits'
import { editorUi, useAgentEditor, type PromptMode } from './editor-store'
import { useLocal } from './field-controls'
import { TabRow } from '../components/tab-row'

const MODES: Array<{ id: PromptMode; label: string }> = [
  { id: 'write', label: 'Write' },
  { id: 'preview', label: 'Preview' },
  { id: 'split', label: 'Split' }
]

export function PromptEditor({ body, bodyLine, readOnly }: { body: string; bodyLine: number; readOnly: boolean }) {
  const mode = useAgentEditor((s) => s.promptMode)
  // While typing, the editor keeps its own text: the host's copy arrives a moment later.
  const [local, setLocal, focus] = useLocal(body)
  return (
    <section className={`ae-section ae-prompt${readOnly ? ' readonly' : ''}`} data-testid="prompt-section">
      <div className="ae-prompt-head">
        <h3>System prompt</h3>
        {readOnly && <span className="tag tag-subtle">read-only</span>}
        <span className="faint small">the markdown after the frontmatter, from line {bodyLine}</span>
        <TabRow label="Prompt view" className="ae-segmented" tabs={MODES} current={mode} onPick={editorUi.setPromptMode} testIdPrefix="prompt-mode-" />
      </div>
      <div className={`ae-prompt-body mode-${mode}`}>
        {mode !== 'preview' && (
          <div className="ae-prompt-editor" onFocus={focus.onFocus} onBlur={focus.onBlur}>
            <CodeEditor
              language="markdown"
              value={local}
              onChange={(v) => {
                setLocal(v)
                setBody(v)
              }}
              readOnly={readOnly}
              placeholder="You are … Describe the role, how to work, and what the final report contains."
              ariaLabel="System prompt"
              testId="prompt-editor"
            />
          </div>
        )}
        {mode !== 'write' && (
          <div className="ae-prompt-preview" data-testid="prompt-preview">
            {local.trim() ? <MarkdownView text={local} /> : <p className="faint">The prompt is empty.</p>}
          </div>
        )}
      </div>
    </section>
  )
}

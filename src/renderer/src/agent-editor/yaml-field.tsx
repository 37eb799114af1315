// mcpServers and hooks: structured values edited as YAML (their own lines of the file, un-indented). A
// pause in typing applies the text; YAML that does not parse, or is not the kind of value the field takes,
// is reported at the field and the file keeps its last good value.
import { useEffect, useRef, useState } from 'react'
import type { EditorFieldKey } from '../../../shared/agent-editor'
import { CodeEditor } from './code-editor'
import { FIELD_LABEL } from './field-help'

const EXAMPLES: Partial<Record<EditorFieldKey, string>> = {
  mcpServers: '# none. For example:\n# - github\n# - docs:\n#     command: npx\n#     args: [docs-mcp]',
  hooks: '# none. For example:\n# PostToolUse:\n#   - matcher: Edit|Write\n#     hooks:\n#       - type: command\n#         command: npm run lint'
}

export function YamlField({
  field,
  value,
  onChange,
  disabled
}: {
  field: EditorFieldKey
  value: string
  onChange(v: string | null): void
  disabled?: boolean
}) {
  const [text, setText] = useState(value)
  const typing = useRef(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => {
    if (!typing.current) setText(value)
  }, [value])
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    []
  )
  return (
    <div className="ae-yaml" data-testid={`yaml-${field}`}>
      <CodeEditor
        language="yaml"
        value={text}
        readOnly={disabled}
        placeholder={EXAMPLES[field]}
        ariaLabel={FIELD_LABEL[field]}
        onChange={(v) => {
          setText(v)
          typing.current = true
          if (timer.current) clearTimeout(timer.current)
          timer.current = setTimeout(() => {
            typing.current = false
            onChange(v.trim() ? v : null)
          }, 400)
        }}
      />
    </div>
  )
}

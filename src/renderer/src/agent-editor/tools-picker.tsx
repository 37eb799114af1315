// The tools picker: "all tools" or a chosen list — the runtime's tools as toggles, connected MCP servers'
// tools, whole servers (`mcp__server__*`) named in mcpServers, and free-form entries such as `Bash(git:*)`,
// kept in the order the file lists them.
import { useEffect, useId, useState } from 'react'
import { Icon } from '../components/icon'
import { useField } from './field-controls'

const toolOf = (spec: string): string => {
  const open = spec.indexOf('(')
  const name = open > 0 && spec.endsWith(')') ? spec.slice(0, open).trim() : spec.trim()
  return name === 'Task' ? 'Agent' : name
}

export interface ToolsPickerProps {
  /** The list as written; undefined when the field is absent. */
  value: string[] | undefined
  onChange(value: string[] | null): void
  /** The runtime's tools (built-in, then MCP). */
  available: string[]
  /** Server names from the agent's own mcpServers, offered as `mcp__name__*`. */
  servers: string[]
  /** `tools` offers "All tools"; `disallowedTools` does not. */
  allowAll: boolean
  disabled?: boolean
  testId: string
  /** What to start from when "All tools" is turned off. */
  starter?: string[]
}

export function ToolsPicker({
  value: saved,
  onChange: save,
  available,
  servers,
  allowAll,
  disabled,
  testId,
  starter = ['Read', 'Grep', 'Glob']
}: ToolsPickerProps) {
  const [entry, setEntry] = useState('')
  const listId = useId()
  // Named by its field's label ("Tools", "Disallowed tools"): the toggles as a group, the entry box after it.
  const field = useField()
  // The file is edited in the main process and the form follows its answer; until it arrives, the picker
  // shows the choice just made, so a click takes effect at once.
  const [optimistic, setOptimistic] = useState<{ value: string[] | undefined } | null>(null)
  useEffect(() => setOptimistic(null), [saved])
  const value = optimistic ? optimistic.value : saved
  const onChange = (next: string[] | null) => {
    setOptimistic({ value: next ?? undefined })
    save(next)
  }
  const list = value ?? []
  const all = allowAll && (value === undefined || list.length === 0 || list.includes('*'))
  const builtins = available.filter((t) => !t.startsWith('mcp__'))
  const mcp = available.filter((t) => t.startsWith('mcp__'))
  const chosen = new Set(list.map(toolOf))
  const extra = list.filter((spec) => spec !== toolOf(spec) || !builtins.includes(spec))
  const set = (next: string[]) => onChange(next.length ? next : null)
  const toggle = (tool: string) => {
    if (chosen.has(tool)) set(list.filter((spec) => toolOf(spec) !== tool))
    else set([...list, tool])
  }
  const add = () => {
    const spec = entry.trim()
    if (spec && !list.includes(spec)) set([...list, spec])
    setEntry('')
  }
  const suggestions = [...mcp, ...servers.map((s) => `mcp__${s}__*`), 'Bash(git:*)', 'Bash(npm test:*)', 'Agent(worker)'].filter((s) => !list.includes(s))

  return (
    <div className="ae-tools" role="group" aria-labelledby={field?.labelId} aria-describedby={field?.hintId} data-testid={testId}>
      {allowAll && (
        <label className="ae-toggle">
          <input
            type="checkbox"
            checked={all}
            disabled={disabled}
            onChange={(e) => onChange(e.target.checked ? null : starter)}
            data-testid={`${testId}-all`}
          />
          <span>All tools</span>
          <span className="faint small">— no tools list; the agent gets every tool it is allowed</span>
        </label>
      )}
      {!all && (
        <>
          <div className="ae-tool-grid">
            {builtins.map((tool) => (
              <button
                key={tool}
                type="button"
                className={`ae-tool${chosen.has(tool) ? ' on' : ''}`}
                aria-pressed={chosen.has(tool)}
                disabled={disabled}
                onClick={() => toggle(tool)}
                data-testid={`${testId}-tool-${tool}`}
              >
                {chosen.has(tool) && <Icon name="check" size={11} />}
                {tool}
              </button>
            ))}
          </div>
          <div className="ae-chips">
            {extra.map((spec) => (
              <span key={spec} className={`ae-chip${spec.startsWith('mcp__') ? ' mcp' : ''}`}>
                <code>{spec}</code>
                {!disabled && (
                  <button type="button" aria-label={`Remove ${spec}`} onClick={() => set(list.filter((s) => s !== spec))}>
                    <Icon name="x" size={10} />
                  </button>
                )}
              </span>
            ))}
            {!disabled && (
              <input
                type="text"
                className="ae-chip-input mono"
                list={listId}
                value={entry}
                placeholder="Add: Bash(git:*), mcp__server__tool…"
                aria-label={`Add to ${field?.label ?? 'the list'}`}
                onChange={(e) => setEntry(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault()
                    add()
                  }
                }}
                onBlur={add}
                data-testid={`${testId}-entry`}
              />
            )}
            <datalist id={listId}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </div>
        </>
      )}
    </div>
  )
}

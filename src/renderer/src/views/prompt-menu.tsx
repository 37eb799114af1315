// The prompt box's completion menu: `/` at the start lists commands (name, what it takes, what it does),
// `@` lists the project's files (fuzzy) and agents (`@agent-name`). The textarea keeps the focus; the
// list is a listbox whose active option the textarea names (aria-activedescendant), as the combobox
// pattern has it: ↑↓ move, Enter or Tab completes, Escape closes.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { LoadedAgent } from '../../../shared/agent-definition'
import type { CommandInfo } from '../../../shared/prompt-commands'
import { mentionText, rank, triggerAt, type Trigger } from '../lib/prompt-completion'
import { folderCommands, folderFiles } from '../state/prompt-sources'

export interface MenuItem {
  key: string
  /** What replaces the typed `/…` or `@…`. */
  insert: string
  label: string
  /** A command's argument hint, a file's folder. */
  hint?: string
  detail?: string
  tag?: string
}

const SHOWN = 50
const SOURCE_TAG: Record<CommandInfo['source'], string> = { builtin: 'Fanout', project: 'project skill', user: 'your skill', plugin: 'plugin skill' }

export interface PromptMenu {
  trigger: Trigger | null
  items: MenuItem[]
  /** Open: a trigger at the caret with something to list (or a note, e.g. no file matches). */
  open: boolean
  note: string | null
  active: number
  move(by: number): void
  setActive(i: number): void
  close(): void
}

export function usePromptMenu(text: string, caret: number | null, project: string | undefined, agents: readonly LoadedAgent[]): PromptMenu {
  const trigger = project && caret !== null ? triggerAt(text, caret) : null
  const [commands, setCommands] = useState<CommandInfo[] | null>(null)
  const [files, setFiles] = useState<{ files: string[]; complete: boolean } | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  // Escape closes the menu for this `/` or `@`; typing another one opens it again.
  const [closedAt, setClosedAt] = useState<number | null>(null)
  const kind = trigger?.kind

  useEffect(() => {
    if (!project || !kind) return
    let live = true
    const fail = () => live && setFailed(kind === 'command' ? 'The commands could not be listed.' : "The project's files could not be listed.")
    if (kind === 'command') folderCommands(project).then((c) => live && setCommands(c), fail)
    else folderFiles(project).then((f) => live && setFiles(f), fail)
    return () => {
      live = false
    }
  }, [project, kind])

  const query = trigger?.query ?? ''
  const items = useMemo<MenuItem[]>(() => {
    if (kind === 'command')
      return rank(commands ?? [], query, (c) => c.name, SHOWN).map((c) => ({
        key: `cmd:${c.name}`,
        insert: `/${c.name}`,
        label: `/${c.name}`,
        ...(c.argumentHint ? { hint: c.argumentHint } : {}),
        detail: c.description,
        tag: SOURCE_TAG[c.source]
      }))
    if (kind !== 'mention') return []
    // The folder's own agents before the built-in ones.
    const ordered = [...agents.filter((a) => a.definition.source !== 'built-in'), ...agents.filter((a) => a.definition.source === 'built-in')]
    const agentItems = rank(ordered, query.replace(/^agent-/, ''), (a) => a.definition.agentType, 5).map((a) => ({
      key: `agent:${a.definition.agentType}`,
      insert: `@agent-${a.definition.agentType}`,
      label: `@agent-${a.definition.agentType}`,
      detail: a.definition.whenToUse,
      tag: 'agent'
    }))
    const fileItems = rank(query ? (files?.files ?? []) : nearFirst(files?.files ?? []), query, (f) => f, SHOWN).map((f) => {
      const cut = f.lastIndexOf('/')
      return { key: `file:${f}`, insert: mentionText(f), label: f.slice(cut + 1), ...(cut > 0 ? { hint: f.slice(0, cut) } : {}) }
    })
    // A query that reads like an agent mention puts agents first; else files, agents after them.
    return query.startsWith('agent-') || !query ? [...agentItems, ...fileItems] : [...fileItems, ...agentItems]
  }, [kind, commands, files, agents, query])

  useEffect(() => setActive(0), [kind, query])
  useEffect(() => {
    if (trigger?.start !== closedAt) setClosedAt(null)
  }, [trigger?.start, closedAt])

  const loading = kind === 'command' ? commands === null : kind === 'mention' ? files === null : false
  const note = failed ?? (loading ? 'Loading…' : items.length === 0 ? (kind === 'command' ? 'No command matches' : 'No file or agent matches') : null)
  const open = !!trigger && closedAt !== trigger.start
  return {
    trigger,
    items,
    open,
    note,
    active: Math.min(active, Math.max(0, items.length - 1)),
    move: (by) => setActive((a) => (items.length ? (a + by + items.length) % items.length : 0)),
    setActive,
    close: () => setClosedAt(trigger?.start ?? null)
  }
}

/** Before anything is typed: the project's own files before hidden folders' (.claude, .github), shallow first. */
function nearFirst(files: readonly string[]): string[] {
  const weight = (f: string) => (/(^|\/)\./.test(f) ? 1000 : 0) + f.split('/').length
  return [...files].sort((a, b) => weight(a) - weight(b) || a.localeCompare(b))
}

export function PromptMenuList({ id, menu, onPick, label }: { id: string; menu: PromptMenu; onPick(i: number): void; label: string }) {
  const list = useRef<HTMLUListElement>(null)
  const box = useRef<HTMLDivElement>(null)
  // Above the prompt box where there is room (a conversation's box is at the bottom), else below it (the
  // new-session box on a short window), never past the window's edge.
  const [place, setPlace] = useState<{ below: boolean; max: number }>({ below: false, max: 320 })
  useLayoutEffect(() => {
    const wrap = box.current?.parentElement?.getBoundingClientRect()
    if (!wrap) return
    const above = wrap.top - 12
    const below = window.innerHeight - wrap.bottom - 12
    const down = above < 240 && below > above
    setPlace({ below: down, max: Math.max(120, Math.min(320, down ? below : above)) })
  }, [])
  useEffect(() => {
    list.current?.querySelector('[aria-selected=true]')?.scrollIntoView({ block: 'nearest' })
  }, [menu.active])
  return (
    <div className={`prompt-menu${place.below ? ' below' : ''}`} style={{ maxHeight: place.max }} ref={box} data-testid="prompt-menu">
      <ul className="prompt-menu-list" role="listbox" id={id} aria-label={label} ref={list}>
        {menu.items.map((item, i) => (
          <li
            key={item.key}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === menu.active}
            className={`prompt-menu-item${i === menu.active ? ' active' : ''}`}
            data-testid="prompt-menu-item"
            // The textarea keeps the focus: a click picks without blurring it.
            onMouseDown={(e) => e.preventDefault()}
            onMouseMove={() => i !== menu.active && menu.setActive(i)}
            onClick={() => onPick(i)}
          >
            <span className="prompt-menu-label">{item.label}</span>
            {item.hint && <span className="prompt-menu-hint">{item.hint}</span>}
            {item.detail && <span className="prompt-menu-detail">{item.detail}</span>}
            {item.tag && <span className="prompt-menu-tag">{item.tag}</span>}
          </li>
        ))}
      </ul>
      {menu.note && (
        <p className="prompt-menu-note" role="status" data-testid="prompt-menu-note">
          {menu.note}
        </p>
      )}
    </div>
  )
}

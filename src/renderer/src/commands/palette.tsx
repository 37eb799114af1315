// The command palette (Ctrl/Cmd+K): every action by name — what the app, the open session, the overview and
// the selected agent can do — plus the session's agents to go to, and recent sessions to open. Type to
// narrow, arrows to choose, Enter to run; it closes, and focus goes back where it was.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { keyLabel } from './keys'
import { paletteActions, runAction, useActions } from './registry'
import { refocusWhenLost } from '../lib/focus'
import { ATTENTION_LABEL, attentionOf } from '../state/attention'
import { openSession, ui, useApp } from '../state/store'
import { Icon } from '../components/icon'

interface Entry {
  key: string
  title: string
  group: string
  keys?: string
  words: string
  run(): void
}

/**
 * Every word of the query in the entry's words, in any order. Ranked: the title itself, then titles that
 * start with the query, then where its first word starts (a word's start before inside a word), shorter
 * titles first among equals.
 */
export function matchEntries<T extends { title: string; words: string }>(entries: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase()
  const terms = q.split(/\s+/).filter(Boolean)
  if (!terms.length) return [...entries]
  const scored: Array<{ e: T; score: number; i: number }> = []
  entries.forEach((e, i) => {
    const hay = `${e.title} ${e.words}`.toLowerCase()
    if (!terms.every((t) => hay.includes(t))) return
    const title = e.title.toLowerCase()
    const at = title.indexOf(terms[0])
    const score = title === q ? 0 : title.startsWith(q) ? 1 : at === 0 ? 2 : at > 0 && /\W/.test(title[at - 1]) ? 3 : at > 0 ? 4 : 5
    scored.push({ e, score, i })
  })
  return scored.sort((a, b) => a.score - b.score || a.e.title.length - b.e.title.length || a.i - b.i).map((s) => s.e)
}

function useEntries(): Entry[] {
  const actions = useActions((s) => s.actions)
  const sessionId = useApp((s) => s.currentSessionId)
  const agents = useApp((s) => (sessionId ? s.events.sessions[sessionId]?.agents : undefined))
  const order = useApp((s) => (sessionId ? s.events.sessions[sessionId]?.agentOrder : undefined))
  const rootId = useApp((s) => (sessionId ? s.events.sessions[sessionId]?.rootAgentId : undefined))
  const sessions = useApp((s) => s.sessions)
  const acknowledged = useApp((s) => s.acknowledged)
  const session = useApp((s) => (sessionId ? s.events.sessions[sessionId] : undefined))
  return useMemo(() => {
    const out: Entry[] = paletteActions(actions).map((a) => ({
      key: a.id,
      title: a.title,
      group: a.group,
      keys: a.keys,
      words: `${a.keywords} ${a.group}`,
      run: () => void runAction(a.id)
    }))
    for (const id of order ?? []) {
      if (id === rootId || !agents?.[id]) continue
      const a = agents[id]
      const why = session ? attentionOf(session, a, acknowledged) : null
      out.push({
        key: `agent:${id}`,
        title: `${a.name ?? a.agentType}: ${a.description}`,
        group: 'Agents',
        words: `agent ${a.agentType} ${a.status} ${why ? ATTENTION_LABEL[why] : ''}`,
        run: () => ui.focusAgent(id)
      })
    }
    for (const s of sessions.slice(0, 30)) {
      if (s.sessionId === sessionId) continue
      out.push({
        key: `session:${s.sessionId}`,
        title: s.title || s.sessionId,
        group: 'Sessions',
        words: 'open session',
        run: () => void openSession(s.sessionId)
      })
    }
    return out
    // `session` is read for attention only when the agents change: a streamed delta does not rebuild the list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actions, agents, order, rootId, sessions, sessionId, acknowledged])
}

export function CommandPalette() {
  const entries = useEntries()
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const list = useRef<HTMLDivElement>(null)
  const shown = useMemo(() => matchEntries(entries, query).slice(0, 80), [entries, query])
  const close = () => ui.setDialog(null)
  // Focus goes back to where it was when the palette closes without moving it elsewhere.
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    return () => refocusWhenLost(() => (opener?.isConnected ? opener : null))
  }, [])
  useEffect(() => {
    list.current?.querySelector('[aria-selected=true]')?.scrollIntoView({ block: 'nearest' })
  }, [active, shown])
  // Escape closes it wherever focus is inside it (the input handles its own).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      e.preventDefault()
      ui.setDialog(null)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  const run = (e: Entry | undefined) => {
    if (!e) return
    close()
    // After the palette has gone, so a dialog the action opens is not closed with it.
    requestAnimationFrame(() => e.run())
  }
  let group = ''
  return (
    <div className="dialog-backdrop palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" data-palette data-testid="palette">
        <div className="palette-input">
          <Icon name="search" size={15} />
          <input
            autoFocus
            value={query}
            placeholder="Type a command, an agent or a session…"
            role="combobox"
            aria-expanded="true"
            aria-controls="palette-list"
            aria-activedescendant={shown[active] ? `palette-${active}` : undefined}
            onChange={(e) => {
              setQuery(e.target.value)
              setActive(0)
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') setActive((i) => Math.min(shown.length - 1, i + 1))
              else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1))
              else if (e.key === 'PageDown') setActive((i) => Math.min(shown.length - 1, i + 8))
              else if (e.key === 'PageUp') setActive((i) => Math.max(0, i - 8))
              else if (e.key === 'Enter') run(shown[active])
              else if (e.key === 'Escape') close()
              else return
              e.preventDefault()
            }}
            data-testid="palette-input"
          />
        </div>
        <div className="palette-list" id="palette-list" role="listbox" ref={list} aria-label="Commands">
          {!shown.length && <div className="palette-empty muted">Nothing matches “{query}”.</div>}
          {shown.map((e, i) => {
            const head = e.group !== group ? (group = e.group) : null
            return (
              <div key={e.key}>
                {head && <div className="section-label palette-group">{head}</div>}
                <div
                  id={`palette-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className={`palette-item${i === active ? ' active' : ''}`}
                  onMouseMove={() => i !== active && setActive(i)}
                  onClick={() => run(e)}
                  data-testid="palette-item"
                  data-command={e.key}
                >
                  <span className="palette-title">{e.title}</span>
                  {e.keys && <kbd>{keyLabel(e.keys)}</kbd>}
                </div>
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}

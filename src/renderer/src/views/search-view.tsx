// The search box: in the session shown or across the folder's sessions (titles and every transcript, subagents'
// tool outputs too), results as they come (newest first), each saying where it is (session, agent by its task,
// turn, tool) and what matched, words marked. Arrow keys move, Enter
// opens the result: the agent at that place in its transcript.
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import type { SearchHit } from '../../../shared/search-replay-contract'
import { Icon } from '../components/icon'
import { agentFullName } from '../lib/agent-naming'
import { formatDateTime, formatRelative, formatTime, plural } from '../lib/format'
import { closeSearch, openHit, setSearchScope, setSearchText, useSearch } from '../state/search-store'
import { useApp } from '../state/store'
import { Dialog } from './dialog'
import { InlineError } from '../components/inline-error'

const KIND_LABEL: Record<SearchHit['kind'], string> = {
  title: 'Session title',
  prompt: 'Prompt',
  text: 'Reply',
  thinking: 'Thinking',
  tool_input: 'Tool input',
  tool_output: 'Tool output',
  message: 'Message',
  error: 'Error',
  report: 'Report'
}

/** The snippet with the matched words marked (\u0002…\u0003 from the index), as text: never markup. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/([\u0002\u0003])/)
  const out: ReactNode[] = []
  let marked = false
  parts.forEach((p, i) => {
    if (p === '\u0002') marked = true
    else if (p === '\u0003') marked = false
    else if (p) out.push(marked ? <mark key={i}>{p}</mark> : p)
  })
  return <span className="search-snippet">{out}</span>
}

function HitRow({ hit, active, onOpen, id }: { hit: SearchHit; active: boolean; onOpen(): void; id: string }) {
  // Task first, as tiles name agents: "Find the lexer bug (Explore)".
  const who = hit.agentId ? agentFullName({ agentType: hit.agentType ?? 'agent', description: hit.agentDescription }) : ''
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      className={`search-hit${active ? ' active' : ''}`}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onOpen}
      data-testid="search-hit"
      data-kind={hit.kind}
      data-agent-id={hit.agentId ?? ''}
    >
      <div className="search-hit-head small">
        <span className={`tag search-kind kind-${hit.kind}`}>
          {KIND_LABEL[hit.kind]}
          {hit.toolName ? `: ${hit.toolName}` : ''}
        </span>
        {hit.sessionTitle !== undefined && (
          <span className="search-hit-session" title={hit.sessionTitle}>
            {hit.sessionTitle || 'Untitled session'}
          </span>
        )}
        {who && (
          <span className="search-hit-agent muted" title={who} data-testid="search-hit-agent">
            {who}
          </span>
        )}
        {hit.turn !== undefined && (
          <span className="search-hit-turn muted" data-testid="search-hit-turn">
            turn {hit.turn}
          </span>
        )}
        <span className="search-hit-time muted" title={formatDateTime(hit.ts)}>
          {hit.sessionTitle !== undefined ? formatRelative(hit.ts) : formatTime(hit.ts)}
        </span>
      </div>
      <Snippet text={hit.snippet} />
    </li>
  )
}

export function SearchView() {
  const { text, scope, hits, asked, indexing, busy, error } = useSearch()
  const inSession = useApp((s) => !!s.currentSessionId)
  const [active, setActive] = useState(0)
  const list = useRef<HTMLUListElement>(null)
  useEffect(() => setActive(0), [hits])
  useEffect(() => {
    list.current?.querySelector('.search-hit.active')?.scrollIntoView({ block: 'nearest' })
  }, [active])

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') setActive((a) => Math.min(hits.length - 1, a + 1))
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1))
    else if (e.key === 'Enter' && hits[active]) void openHit(hits[active])
    else return
    e.preventDefault()
  }

  return (
    <Dialog title={scope === 'session' ? 'Search this session' : 'Search all sessions'} onClose={closeSearch} wide testId="search-dialog">
      <div className="input-box search-box">
        <Icon name="search" size={15} />
        <input
          value={text}
          onChange={(e) => setSearchText(e.target.value)}
          onKeyDown={onKey}
          placeholder={
            scope === 'session'
              ? 'Transcripts, tool inputs and outputs of every agent…'
              : 'Titles and transcripts (tool outputs too) of every session in this folder…'
          }
          aria-label="Search"
          role="combobox"
          aria-expanded={hits.length > 0}
          aria-controls="search-results"
          aria-activedescendant={hits[active] ? `search-hit-${active}` : undefined}
          data-autofocus
          data-testid="search-input"
        />
        {busy && <span className="spinner-dot" aria-hidden="true" />}
      </div>
      <div className="search-scope" role="radiogroup" aria-label="Where to search">
        <button
          role="radio"
          aria-checked={scope === 'session'}
          className={`chip${scope === 'session' ? ' active' : ''}`}
          disabled={!inSession}
          onClick={() => setSearchScope('session')}
          data-testid="search-scope-session"
          title={inSession ? undefined : 'Open a session to search inside it'}
        >
          This session
        </button>
        <button
          role="radio"
          aria-checked={scope === 'all'}
          className={`chip${scope === 'all' ? ' active' : ''}`}
          onClick={() => setSearchScope('all')}
          data-testid="search-scope-all"
        >
          All sessions
        </button>
        <span className="muted small search-status" role="status" data-testid="search-status">
          {error
            ? ''
            : indexing
              ? `Indexing… ${Math.round((indexing.done / Math.max(1, indexing.total)) * 100)}% — results so far`
              : asked.trim()
                ? hits.length >= 200
                  ? 'The 200 newest results'
                  : plural(hits.length, 'result')
                : ''}
        </span>
      </div>
      <InlineError error={error} as="p" />
      <ul className="search-results" id="search-results" role="listbox" aria-label="Results" ref={list} data-testid="search-results">
        {hits.map((h, i) => (
          <HitRow
            key={`${h.sessionId}:${h.agentId}:${h.seq}:${h.kind}:${i}`}
            id={`search-hit-${i}`}
            hit={h}
            active={i === active}
            onOpen={() => void openHit(h)}
          />
        ))}
      </ul>
      {asked.trim() && !hits.length && !busy && !indexing && !error && <p className="muted search-empty">Nothing found for “{asked}”.</p>}
    </Dialog>
  )
}

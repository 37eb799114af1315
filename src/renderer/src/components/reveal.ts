// Finding the place a search result names in an agent's transcript, and marking its words. A tool call is
// found by its id; any other result by the kind of item and its words, the nearest in time to the result
// (the host's index knows events, the page knows items: they meet on kind, words and time).
import type { ToolCall, TranscriptItem } from '../../../shared/view/session-state'
import type { Reveal } from '../state/store'

const KINDS: Record<string, ReadonlyArray<TranscriptItem['kind']>> = {
  prompt: ['user', 'inbox'],
  text: ['text'],
  thinking: ['thinking'],
  message: ['inbox', 'user'],
  error: ['error', 'notice'],
  report: ['text', 'notice']
}

function itemText(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
    case 'text':
    case 'thinking':
    case 'notice':
      return item.text
    case 'error':
      return item.message
    case 'inbox':
      return JSON.stringify(item.message)
    default:
      return ''
  }
}

/** The index of the item the reveal names, or -1 when it is not (yet) among `items`. */
export function findRevealed(items: readonly TranscriptItem[], r: Reveal, tools: Record<string, ToolCall | undefined> = {}): number {
  if (r.toolUseId) {
    const i = items.findIndex((it) => it.kind === 'tool' && it.toolUseId === r.toolUseId)
    if (i !== -1) return i
    // An Agent call's card, or a tool row not drawn separately: the nearest item in time.
    return tools[r.toolUseId] ? nearest(items, r.ts, () => true) : -1
  }
  const kinds = KINDS[r.kind] ?? []
  const has = (it: TranscriptItem) => {
    const text = itemText(it).toLowerCase()
    return r.words.every((w) => text.includes(w))
  }
  const best = nearest(items, r.ts, (it) => kinds.includes(it.kind) && has(it))
  if (best !== -1) return best
  return nearest(items, r.ts, (it) => has(it))
}

function nearest(items: readonly TranscriptItem[], ts: number, ok: (it: TranscriptItem) => boolean): number {
  let best = -1
  let gap = Infinity
  for (let i = 0; i < items.length; i++) {
    if (!ok(items[i])) continue
    const d = Math.abs(items[i].ts - ts)
    if (d < gap) {
      gap = d
      best = i
    }
  }
  return best
}

const HIGHLIGHT = 'search-hit'

/** Marks the words in an element's text (CSS Custom Highlight: no change to the markup), or clears them. */
export function highlightWords(el: Element | null, words: readonly string[]): void {
  const registry = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights
  const HighlightCtor = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight
  if (!registry || !HighlightCtor) return
  if (!el || !words.length) return void registry.delete(HIGHLIGHT)
  const ranges: Range[] = []
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node && ranges.length < 200; node = walker.nextNode()) {
    const text = (node.textContent ?? '').toLowerCase()
    for (const w of words) {
      for (let at = text.indexOf(w); at !== -1 && ranges.length < 200; at = text.indexOf(w, at + w.length)) {
        const range = document.createRange()
        range.setStart(node, at)
        range.setEnd(node, at + w.length)
        ranges.push(range)
      }
    }
  }
  registry.set(HIGHLIGHT, new HighlightCtor(...ranges))
}

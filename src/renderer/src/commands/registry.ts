// Every action a person can take by name: the command palette lists them, the shortcuts sheet shows their
// keys, one window listener runs them by key, and the desktop menu runs them by id. Any view adds one with a
// line, for as long as it is shown:
//
//   useAction({ id: 'search', run: openSearch })                       // label and keys from APP_COMMANDS
//   useAction({ id: 'agent.stop', title: `Stop ${name}`, group: 'Agent', run: stop, enabled: running })
//
// The latest registration of an id wins; when it goes, the one before it is back.
import { useEffect, useLayoutEffect, useRef } from 'react'
import { create } from 'zustand'
import { appCommand } from '../../../shared/app-commands'
import { setMenuCommandHandler } from '../state/store'
import { matchesCombo, needsModifier } from './keys'

/** The palette's sections, in this order. */
export const ACTION_GROUPS = ['Go', 'Agent', 'Overview', 'Session', 'App'] as const
export type ActionGroup = (typeof ACTION_GROUPS)[number]

export interface ActionSpec {
  id: string
  /** What the palette says; defaults to the APP_COMMANDS label of the id. */
  title?: string
  group?: ActionGroup
  /** Shortcut in keys.ts notation; defaults to the APP_COMMANDS keys of the id. */
  keys?: string
  /** More words the palette finds it by. */
  keywords?: string
  /** False: neither listed nor run (its key does nothing, the palette does not offer it). Default true. */
  enabled?: boolean
  /** Run by its key only, not listed in the palette (moving between tiles, say). */
  hidden?: boolean
  /** Keys with Mod or Alt work in text fields too; a bare key (`?`) does not. */
  run(): unknown
}

export interface Action {
  id: string
  title: string
  group: ActionGroup
  keys?: string
  keywords: string
  enabled: boolean
  hidden: boolean
  run(): unknown
}

const stacks = new Map<string, Action[]>()
export const useActions = create<{ actions: ReadonlyMap<string, Action> }>()(() => ({ actions: new Map() }))

function publish(): void {
  const actions = new Map<string, Action>()
  for (const [id, stack] of stacks) if (stack.length) actions.set(id, stack[stack.length - 1])
  useActions.setState({ actions })
}

function complete(spec: ActionSpec): Action {
  const known = appCommand(spec.id)
  return {
    id: spec.id,
    title: spec.title ?? known?.label.replace(/…$/, '') ?? spec.id,
    group: spec.group ?? (known?.menu === 'go' ? 'Go' : known?.id.startsWith('overview.') ? 'Overview' : 'App'),
    keys: spec.keys ?? known?.keys,
    keywords: spec.keywords ?? '',
    enabled: spec.enabled ?? true,
    hidden: spec.hidden ?? false,
    run: spec.run
  }
}

/** Adds an action; returns the function that takes it away again. */
export function registerAction(spec: ActionSpec): () => void {
  const action = complete(spec)
  const stack = stacks.get(action.id) ?? []
  stack.push(action)
  stacks.set(action.id, stack)
  publish()
  return () => {
    const s = stacks.get(action.id)
    const i = s?.indexOf(action) ?? -1
    if (!s || i === -1) return
    s.splice(i, 1)
    if (!s.length) stacks.delete(action.id)
    publish()
  }
}

/**
 * Registers an action for as long as the calling view is shown. `run` may change every render (it is read
 * when the action runs); the action is registered again only when what the palette shows changes.
 */
export function useAction(spec: ActionSpec): void {
  const run = useRef(spec.run)
  useLayoutEffect(() => {
    run.current = spec.run
  })
  const { id, title, group, keys, keywords, enabled, hidden } = spec
  useEffect(
    () => registerAction({ id, title, group, keys, keywords, enabled, hidden, run: () => run.current() }),
    [id, title, group, keys, keywords, enabled, hidden]
  )
}

/** Registers a list of actions that belong together (one per choice of a setting, say); same rules as useAction. */
export function useActionList(specs: ActionSpec[]): void {
  const runs = useRef(specs.map((s) => s.run))
  useLayoutEffect(() => {
    runs.current = specs.map((s) => s.run)
  })
  const key = JSON.stringify(specs.map(({ id, title, group, keys, keywords, enabled, hidden }) => [id, title, group, keys, keywords, enabled, hidden]))
  useEffect(() => {
    const offs = specs.map((spec, i) => registerAction({ ...spec, run: () => runs.current[i]?.() }))
    return () => offs.forEach((off) => off())
    // `key` stands for what the palette shows of `specs`; their `run`s are read when they run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])
}

export function getAction(id: string): Action | undefined {
  return useActions.getState().actions.get(id)
}

/** Runs an action by id (the desktop menu, the palette); false when there is none, or it is disabled. */
export function runAction(id: string): boolean {
  const action = getAction(id)
  if (!action?.enabled) return false
  void Promise.resolve()
    .then(() => action.run())
    .catch((err) => console.error(`The action "${action.title}" failed:`, err))
  return true
}

/** The palette's list: enabled, not hidden, by group then title. */
export function paletteActions(actions: ReadonlyMap<string, Action>): Action[] {
  return [...actions.values()]
    .filter((a) => a.enabled && !a.hidden)
    .sort((a, b) => ACTION_GROUPS.indexOf(a.group) - ACTION_GROUPS.indexOf(b.group) || a.title.localeCompare(b.title))
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  return !!el?.closest?.('input, textarea, select, [contenteditable=""], [contenteditable=true], .cm-editor')
}

/** A modal dialog other than the palette is open: its keys are its own. */
function dialogOpen(): boolean {
  return !!document.querySelector('[role=dialog][aria-modal=true]:not([data-palette])')
}

/** Runs the action a key press names; true when one ran (the press is then used up). */
export function handleShortcut(e: KeyboardEvent): boolean {
  if (e.defaultPrevented || e.repeat || e.isComposing) return false
  for (const action of useActions.getState().actions.values()) {
    if (!action.keys || !action.enabled || !matchesCombo(e, action.keys)) continue
    if (needsModifier(action.keys) && isTyping(e.target)) return false
    // Inside a dialog only the palette's own key works (it closes the palette, or opens it over the dialog).
    if (dialogOpen() && action.id !== 'palette') return false
    e.preventDefault()
    runAction(action.id)
    return true
  }
  return false
}

/** One listener for the whole window, and the desktop menu's commands; returns the function that removes them. */
export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => void handleShortcut(e)
  window.addEventListener('keydown', onKey)
  setMenuCommandHandler((id) => void runAction(id))
  return () => {
    window.removeEventListener('keydown', onKey)
    setMenuCommandHandler(() => {})
  }
}

// The app's own actions, registered while the app is up: the shortcuts of APP_COMMANDS and a few more the
// palette offers (open a folder, the theme).
import { closeAgents, openAgents } from '../agent-editor/editor-library'
import { useAgentEditor } from '../agent-editor/editor-store'
import { THEME_CHOICES, type ThemeChoice } from '../../../shared/settings-fields'
import { newSession, pickFolder, saveSettings, ui, useApp } from '../state/store'
import { openSearch } from '../state/search-store'
import { goToNextAttention } from './attention-jump'
import { useAction, useActionList } from './registry'

const THEME_TITLE: Record<ThemeChoice, string> = { system: 'Theme: follow the system', light: 'Theme: light', dark: 'Theme: dark' }

/** Focuses the first element `selector` finds, once it is on the page. */
function focusSoon(selector: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus())
}

export function AppActions() {
  const agentsOpen = useAgentEditor((s) => s.open)
  const mode = useApp((s) => s.mode)
  const theme = useApp((s) => s.settings?.theme)
  const connected = useApp((s) => s.connection === 'open')
  useAction({ id: 'palette', run: () => ui.setDialog(useApp.getState().dialog === 'palette' ? null : 'palette') })
  useAction({
    id: 'new-session',
    keywords: 'start prompt task',
    run: () => {
      closeAgents()
      ui.setDialog(null)
      newSession()
      focusSoon('[data-testid=new-prompt]')
    }
  })
  useAction({ id: 'settings', keywords: 'preferences api key model base url limits', run: () => ui.setDialog('settings') })
  useAction({
    id: 'agents-editor',
    title: agentsOpen ? 'Close the agents editor' : 'Agents editor',
    keywords: 'definitions files edit',
    run: () => (useAgentEditor.getState().open ? closeAgents() : openAgents())
  })
  useAction({ id: 'search', title: 'Search every session', keywords: 'find titles prompts reports', run: () => openSearch('all') })
  useAction({ id: 'next-attention', keywords: 'attention permission failed question waiting', run: goToNextAttention })
  useAction({ id: 'permissions', keywords: 'approve allow deny queue requests', run: () => ui.setDialog('permissions') })
  useAction({ id: 'shortcuts', keywords: 'help keys keyboard', run: () => ui.setDialog('shortcuts') })
  useAction({
    id: 'open-folder',
    title: 'Open a folder',
    group: 'App',
    keywords: 'workspace project directory',
    enabled: connected,
    run: () => (mode === 'browser' ? ui.setDialog('open-folder') : pickFolder())
  })
  useActionList(
    THEME_CHOICES.map((t) => ({
      id: `theme.${t}`,
      title: THEME_TITLE[t],
      group: 'App' as const,
      keywords: 'appearance dark light color',
      enabled: !!theme && theme !== t,
      run: () => saveSettings({ theme: t })
    }))
  )
  return null
}

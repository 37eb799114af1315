// The app shell: sidebar, session header, conversation and agents, status bar, dialogs.
import { useEffect, useRef } from 'react'
import { AgentsView } from './agent-editor/agents-view'
import { AppActions } from './commands/app-actions'
import { CommandPalette } from './commands/palette'
import { installShortcuts } from './commands/registry'
import { ShortcutsSheet } from './commands/shortcuts-sheet'
import { useAgentEditor } from './agent-editor/editor-store'
import { useReplaying } from './state/replay-store'
import { useSearch } from './state/search-store'
import { useApp } from './state/store'
import { Conversation } from './views/conversation'
import { ConnectionGate } from './views/connection-gate'
import { ConnectionLost } from './views/connection-lost'
import { FirstRun } from './views/first-run'
import { NewSession } from './views/new-session'
import { watchForNotifications } from './views/notifications'
import { OpenFolderDialog } from './views/open-folder'
import { PermissionQueue } from './views/permission-queue'
import { ChangesDialog } from './review/changes-dialog'
import { OpenWorktreeDialogs } from './views/open-worktree'
import { ReplayBar } from './views/replay-bar'
import { SearchView } from './views/search-view'
import { RightPane } from './views/right-pane'
import { SessionHeader } from './views/session-header'
import { SettingsDialog } from './views/settings-dialog'
import { Splitter, useConversationWidth } from './views/splitter'
import { Sidebar } from './views/sidebar'
import { StatusBar } from './views/status-bar'
import { TrustDialog } from './views/trust-dialog'

function SessionArea() {
  const sessionId = useApp((s) => s.currentSessionId)
  const hasSubagents = useApp((s) => (sessionId ? (s.events.sessions[sessionId]?.agentOrder.length ?? 0) > 1 : false))
  const body = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useConversationWidth()
  const replaying = useReplaying(sessionId)
  if (!sessionId) return <NewSession />
  return (
    <>
      {replaying && <ReplayBar />}
      <div
        className={`session-body${hasSubagents ? ' split' : ''}${replaying ? ' replaying' : ''}`}
        ref={body}
        style={hasSubagents && width !== null ? { ['--conversation-width' as string]: `${width}px` } : undefined}
        // An answered permission request's focus goes to the next request in the session, else to the prompt box.
        data-permission-scope
        data-permission-fallback="[data-testid=followup]"
      >
        <Conversation sessionId={sessionId} />
        {hasSubagents && <Splitter container={body} width={width} onChange={setWidth} />}
        {hasSubagents && <RightPane sessionId={sessionId} />}
      </div>
    </>
  )
}

export function App() {
  const dialog = useApp((s) => s.dialog)
  const currentSessionId = useApp((s) => s.currentSessionId)
  // A key saved on the first-run page keeps it up (saying so, offering a test) until Continue.
  const firstRun = useApp(
    (s) =>
      !s.firstRunDismissed &&
      s.currentSessionId === null &&
      (s.firstRunKeySaved || (!!s.settings && !s.settings.hasApiKey && !s.settings.firstRunSkipped && s.sessions.length === 0))
  )
  const connection = useApp((s) => s.connection)
  const lost = useApp((s) => s.connectionLostAt !== null)
  const trustOpen = useApp((s) => s.trustOpen)
  const agentsOpen = useAgentEditor((s) => s.open)
  const searchOpen = useSearch((s) => s.open)
  useEffect(() => watchForNotifications(), [])
  useEffect(() => installShortcuts(), [])

  if (connection === 'unauthorized' || connection === 'gone') return <ConnectionGate />
  return (
    <div className={`app${lost ? ' app-lost' : ''}`}>
      {lost && <ConnectionLost />}
      {/* Lost: nothing on the page can act (Allow, Send, Stop…) until the host answers again. inert takes every
          control, row and link out of pointer, focus and keys; aria-disabled says so of every control in it. Not a
          disabled fieldset: Chromium left the main area unlaid (a blank pane) after a dialog inside one closed. */}
      <div className="app-frame" inert={lost} aria-disabled={lost || undefined} aria-hidden={lost || undefined}>
        <AppActions />
        <Sidebar />
        <main className="main">
          {agentsOpen ? (
            <AgentsView />
          ) : firstRun ? (
            <FirstRun />
          ) : (
            <>
              {currentSessionId && <SessionHeader sessionId={currentSessionId} />}
              <SessionArea />
            </>
          )}
        </main>
        <StatusBar />
        {dialog === 'settings' && <SettingsDialog />}
        {dialog === 'permissions' && <PermissionQueue />}
        {dialog === 'open-folder' && <OpenFolderDialog />}
        <ChangesDialog />
        <OpenWorktreeDialogs />
        {trustOpen && <TrustDialog />}
        {searchOpen && <SearchView />}
        {dialog === 'shortcuts' && <ShortcutsSheet />}
        {dialog === 'palette' && <CommandPalette />}
      </div>
    </div>
  )
}

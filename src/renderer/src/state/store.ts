// The app store, as views import it: the state (app-state.ts), its connection to the transport
// (transport-wiring.ts), the sessions it loads (session-loading.ts), what it asks of the host
// (host-actions.ts) and the UI slice (ui-slice.ts). Each concept lives in its own file; this one gathers them.
import { initial, set } from './app-state'
import { forgetTrustWaiter } from './folder-trust'
import { resetLiveEvents } from './live-events'
import { resetSessionLoading } from './session-loading'

export { DENSITY_CHOICES, call, useApp, type AppState, type DensityChoice, type Dialog, type Reveal, type RightPane } from './app-state'
export { applyReplayed, flushEvents, receiveEvents, setReplaying } from './live-events'
export { openSession, refreshAgentDefs, refreshSessions, showFrame, unloadSession } from './session-loading'
export { boot, receiveNotice, setMenuCommandHandler, subscribeNotices } from './transport-wiring'
export * from './host-actions'
export { newSession, ui } from './ui-slice'

/** For tests and the e2e harness. */
export function resetStore(): void {
  resetLiveEvents()
  resetSessionLoading()
  forgetTrustWaiter()
  set({ ...initial })
}

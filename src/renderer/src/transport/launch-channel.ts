// Browser mode across a restart of Fanout. Each launch has its own token, so a page from before a restart
// can never connect again. What it can do: hear from a page of the new launch at the same address (a
// BroadcastChannel: same origin only, so nothing leaves this browser's own pages of Fanout) and offer to
// continue there; take a new address pasted into it; and carry its unsent prompts and open session to the
// new address in the URL fragment (never sent to a server). `fanout web` reuses its last port when it is
// free, so a restart usually keeps the address and only the token changes.
import { adoptCarried, carriedState } from '../lib/tab-memory'

const CHANNEL = 'fanout-launch'
const TOKEN_KEY = 'fanout-token'

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL)
}

/** A page that connected says so: stale pages of this address hear the launch's token. */
export function announceLaunch(token: string): void {
  const c = channel()
  if (!c) return
  c.postMessage({ type: 'launch', token })
  // Asked later by a page that went stale after this one connected.
  c.onmessage = (e) => {
    if ((e.data as { type?: string })?.type === 'who') c.postMessage({ type: 'launch', token })
  }
}

/** Calls `found` when a page of a newer launch at this address is open (now or later). Returns a stop function. */
export function listenForLaunch(current: string | null, found: (token: string) => void): () => void {
  const c = channel()
  if (!c) return () => {}
  c.onmessage = (e) => {
    const m = e.data as { type?: string; token?: string }
    if (m?.type === 'launch' && typeof m.token === 'string' && m.token !== current && /^[A-Za-z0-9_-]{16,200}$/.test(m.token)) found(m.token)
  }
  c.postMessage({ type: 'who' })
  return () => c.close()
}

/** Continues in this tab with a new launch's token at this address: a reload keeps drafts and the open session. */
export function continueWithToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token)
  location.reload()
}

/**
 * Where to go for a pasted address: a Fanout browser-mode URL with its token; what this tab has open and
 * unsent goes along in the fragment. null, with why, when it is not one.
 */
export function addressWithState(pasted: string): { url: string } | { error: string } {
  let u: URL
  try {
    u = new URL(pasted.trim())
  } catch {
    return { error: 'That is not an address. Paste the whole line “fanout web” printed, starting with http://.' }
  }
  const token = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(u.hash)?.[1]
  if (u.protocol !== 'http:' || !/^(127\.0\.0\.1|localhost|\[::1\])$/.test(u.hostname))
    return { error: 'Fanout serves browser mode on this computer only: the address starts with http://127.0.0.1.' }
  if (!token) return { error: 'That address has no token (#token=…): paste the whole address “fanout web” printed.' }
  return { url: `${u.origin}${u.pathname}#token=${token}&carry=${carriedState()}` }
}

/** Takes over what a stale page carried in the fragment (before the token is read and the fragment cleared). */
export function takeCarried(location: Location): void {
  const m = /(?:^#|&)carry=([A-Za-z0-9+/=%]+)/.exec(location.hash)
  if (m) adoptCarried(decodeURIComponent(m[1]))
}

/** A new address pasted into this tab's address bar (only the fragment changed: no reload): take its token. */
export function followNewToken(): () => void {
  const onHash = () => {
    const token = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash)?.[1]
    if (!token) return
    takeCarried(location)
    continueWithToken(token)
  }
  window.addEventListener('hashchange', onHash)
  return () => window.removeEventListener('hashchange', onHash)
}

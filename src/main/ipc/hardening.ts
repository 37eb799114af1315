// Everything that keeps the window a closed box: the web preferences, the CSP header, no navigation,
// no new windows, no webviews, and no web permission except desktop notifications (which the issue
// asks for: a waiting permission request or a finished background agent raises one).
import { shell, type Session, type WebContents, type WebPreferences } from 'electron'
import { buildCsp } from '../web/csp'
import { isAppUrl } from './app-protocol'

export function hardenedWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false
  }
}

const ALLOWED_PERMISSIONS = new Set(['notifications'])

/** Session-wide rules: the CSP header on every response and the permission policy. */
export function installSessionPolicies(ses: Session): void {
  const csp = buildCsp()
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
  ses.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(ALLOWED_PERMISSIONS.has(permission) && isAppUrl(details.requestingUrl ?? contents?.getURL() ?? ''))
  })
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => ALLOWED_PERMISSIONS.has(permission) && isAppUrl(requestingOrigin))
}

/** Opens http(s) links from assistant markdown in the user's browser; everything else goes nowhere. */
function openExternally(url: string): void {
  try {
    const u = new URL(url)
    if (u.protocol === 'https:' || u.protocol === 'http:') void shell.openExternal(u.toString())
  } catch {}
}

/** Per-webContents rules, applied to every webContents the app creates. */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault()
    openExternally(url)
  })
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url)
    return { action: 'deny' }
  })
}

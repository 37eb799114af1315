// The renderer is served from a private `fanout://app/` scheme instead of file://, so it has a real
// origin the IPC layer can check, and every response carries our CSP header. Files come only from the
// built renderer folder.
import { protocol } from 'electron'
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { buildCsp } from '../web/csp'
import { resolveStaticPath } from '../web/static-files'

export const APP_SCHEME = 'fanout'
export const APP_HOST = 'app'
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json'
}

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])
}

/** True for a URL of our own renderer (the only page allowed to call the runtime). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url)
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST
  } catch {
    return false
  }
}

export async function serveAppRequest(rendererDir: string, url: string): Promise<Response> {
  const u = new URL(url)
  const file = u.host === APP_HOST ? resolveStaticPath(rendererDir, u.pathname) : null
  const body = file ? await readFile(file).catch(() => null) : null
  if (!file || !body) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } })
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': buildCsp(),
      'X-Content-Type-Options': 'nosniff'
    }
  })
}

/** Must run after the app is ready. */
export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(rendererDir, request.url))
}

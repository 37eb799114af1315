// The Content-Security-Policy of the UI, shared by Electron (as a response header on every load) and
// browser mode (on every HTTP response). Nothing remote: scripts, styles, images and fonts come from the
// app itself; the only connection allowed is browser mode's own WebSocket.

export interface CspOptions {
  /** Browser mode: the exact `ws://127.0.0.1:PORT` origin the page may connect to. */
  websocketOrigins?: string[]
}

export function buildCsp(options: CspOptions = {}): string {
  const connect = ["'self'", ...(options.websocketOrigins ?? [])].join(' ')
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'"
  ].join('; ')
}

/**
 * Headers every browser-mode response carries, besides the CSP. With the opener and embedder policies the page is
 * cross-origin isolated (`crossOriginIsolated`): a process of its own, and clocks at the browser's full precision
 * (5 µs, not 100 µs with jitter), which the UI's frame figures are read with (bench/ui.ts).
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()'
}

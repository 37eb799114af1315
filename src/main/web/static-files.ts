// Serves the built renderer (out/renderer) read-only. Paths are resolved inside the folder and never
// leave it; unknown paths are 404, so nothing else on disk is reachable.
import { readFile, stat } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8'
}

/** Maps a request path to a file inside `root`, or null when it would escape it. */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0].split('#')[0])
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const rel = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '')
  const full = normalize(join(root, rel))
  const base = normalize(root.endsWith(sep) ? root : root + sep)
  return full.startsWith(base) ? full : null
}

export async function serveStatic(root: string, urlPath: string, res: ServerResponse, headers: Record<string, string>, headOnly: boolean): Promise<void> {
  const file = resolveStaticPath(root, urlPath)
  const info = file ? await stat(file).catch(() => null) : null
  if (!file || !info?.isFile()) {
    const index = join(root, 'index.html')
    const missingBuild = !(await stat(index).catch(() => null))
    res.writeHead(missingBuild ? 503 : 404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' })
    res.end(missingBuild ? `The Fanout UI is not built (no ${index}); run \`npm run build\` and restart.\n` : 'Not found\n')
    return
  }
  const body = await readFile(file)
  const isHtml = extname(file) === '.html'
  res.writeHead(200, {
    ...headers,
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(body.length),
    // Hashed assets never change; the page itself must always be fresh so a rebuild shows up.
    'Cache-Control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable'
  })
  res.end(headOnly ? undefined : body)
}

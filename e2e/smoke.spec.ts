import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join, extname } from 'node:path'
import type { AddressInfo } from 'node:net'

// The built renderer loads in Chromium and renders the app shell (served statically).
test('the built renderer shows the Fanout shell', async ({ page }) => {
  const dir = join(process.cwd(), 'out/renderer')
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }
  const server = createServer((req, res) => {
    const path = req.url === '/' ? '/index.html' : req.url!.split('?')[0]
    try {
      const body = readFileSync(join(dir, path))
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' })
      res.end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  try {
    await page.goto(`http://127.0.0.1:${port}/`)
    await expect(page.getByRole('heading', { name: 'Fanout' })).toBeVisible()
  } finally {
    server.close()
  }
})

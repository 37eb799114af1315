// The Electron layer against a stand-in for the `electron` module (the binary cannot run here): window
// hardening, CSP, navigation and window.open blocking, permissions, IPC sender and payload checks.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent } from '../../shared/events'
import { CALL_CHANNEL, IpcResultSchema, PUSH_CHANNELS } from '../../shared/ipc-contract'
import { createRecordingHost } from '../../shared/testing/recording-host'

const fake = vi.hoisted(() => {
  class FakeContents {
    listeners = new Map<string, Array<(...a: any[]) => void>>()
    openHandler: ((d: { url: string }) => { action: string }) | null = null
    sent: Array<[string, unknown]> = []
    url = 'fanout://app/index.html'
    on(ev: string, fn: (...a: any[]) => void) {
      this.listeners.set(ev, [...(this.listeners.get(ev) ?? []), fn])
      return this
    }
    once(ev: string, fn: (...a: any[]) => void) {
      return this.on(ev, fn)
    }
    emit(ev: string, ...args: any[]) {
      for (const fn of this.listeners.get(ev) ?? []) fn(...args)
    }
    setWindowOpenHandler(fn: any) {
      this.openHandler = fn
    }
    send(channel: string, payload: unknown) {
      this.sent.push([channel, payload])
    }
    isDestroyed() {
      return false
    }
    getURL() {
      return this.url
    }
  }
  const windows: any[] = []
  class BrowserWindow {
    webContents = new FakeContents()
    loaded: string[] = []
    maximized = false
    constructor(readonly options: any) {
      windows.push(this)
    }
    loadURL(url: string) {
      this.loaded.push(url)
      return Promise.resolve()
    }
    loadFile(file: string) {
      this.loaded.push(`file://${file}`)
      return Promise.resolve()
    }
    on() {}
    once() {}
    maximize() {
      this.maximized = true
    }
    isDestroyed() {
      return false
    }
  }
  return {
    FakeContents,
    windows,
    BrowserWindow,
    openExternal: [] as string[],
    encryption: { available: true }
  }
})

vi.mock('electron', () => ({
  BrowserWindow: fake.BrowserWindow,
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  shell: { openExternal: async (url: string) => void fake.openExternal.push(url) },
  protocol: { registerSchemesAsPrivileged: () => {}, handle: () => {} },
  safeStorage: {
    isEncryptionAvailable: () => fake.encryption.available,
    encryptString: (s: string) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`),
    decryptString: (b: Buffer) => Buffer.from(b.toString().replace(/^enc:/, ''), 'base64').toString()
  }
}))

const { createMainWindow } = await import('./main-window')
const { hardenWebContents, installSessionPolicies } = await import('./hardening')
const { registerIpc, connectPushes } = await import('./register-ipc')
const { serveAppRequest, APP_URL } = await import('./app-protocol')
const { createSafeStorageKeyStore } = await import('./safe-key-store')
const { buildMenuTemplate } = await import('./menu')
const { APP_COMMANDS, electronAccelerator } = await import('../../shared/app-commands')

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fanout-electron-'))
  fake.windows.length = 0
  fake.openExternal.length = 0
  fake.encryption.available = true
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('main window', () => {
  it('is sandboxed, context-isolated, without Node, and loads only the app scheme', () => {
    createMainWindow({ preload: '/app/out/preload/index.cjs', stateFile: join(dir, 'window-state.json') })
    const [win] = fake.windows
    expect(win.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false
    })
    expect(win.loaded).toEqual([APP_URL])
    expect(APP_URL).toBe('fanout://app/index.html')
  })

  it('reopens with the remembered bounds, and ignores bounds on a display that is gone', () => {
    const stateFile = join(dir, 'window-state.json')
    writeFileSync(stateFile, JSON.stringify({ x: 100, y: 80, width: 1000, height: 700, maximized: true }))
    createMainWindow({ preload: '/p', stateFile })
    expect(fake.windows[0].options).toMatchObject({ x: 100, y: 80, width: 1000, height: 700 })
    expect(fake.windows[0].maximized).toBe(true)
    writeFileSync(stateFile, JSON.stringify({ x: 5000, y: 5000, width: 1000, height: 700 }))
    createMainWindow({ preload: '/p', stateFile })
    expect(fake.windows[1].options.x).toBeUndefined()
    writeFileSync(stateFile, '{broken')
    createMainWindow({ preload: '/p', stateFile })
    expect(fake.windows[2].options.width).toBe(1440)
  })
})

describe('web contents hardening', () => {
  it('blocks every navigation, opening http(s) links in the system browser only', () => {
    const contents = new fake.FakeContents()
    hardenWebContents(contents as any)
    for (const url of ['https://example.com/docs', 'file:///etc/passwd', 'javascript:alert(1)', 'fanout://app/other.html']) {
      const event = { preventDefault: vi.fn() }
      contents.emit('will-navigate', event, url)
      expect(event.preventDefault, url).toHaveBeenCalled()
    }
    expect(fake.openExternal).toEqual(['https://example.com/docs'])
  })

  it('denies window.open and webviews', () => {
    const contents = new fake.FakeContents()
    hardenWebContents(contents as any)
    expect(contents.openHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    expect(contents.openHandler!({ url: 'fanout://app/index.html' })).toEqual({ action: 'deny' })
    const event = { preventDefault: vi.fn() }
    contents.emit('will-attach-webview', event)
    expect(event.preventDefault).toHaveBeenCalled()
  })

  it('adds a strict CSP header to every response and denies web permissions but notifications for the app', () => {
    let headers: any
    let request: any
    let check: any
    installSessionPolicies({
      webRequest: { onHeadersReceived: (fn: any) => (headers = fn) },
      setPermissionRequestHandler: (fn: any) => (request = fn),
      setPermissionCheckHandler: (fn: any) => (check = fn)
    } as any)
    let out: any
    headers({ responseHeaders: { 'X-Other': ['1'] } }, (r: any) => (out = r))
    const csp = out.responseHeaders['Content-Security-Policy'][0]
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/unsafe|https?:|\*/)
    expect(out.responseHeaders['X-Other']).toEqual(['1'])

    const decide = (permission: string, url: string) => {
      let answer: boolean | undefined
      request(new fake.FakeContents(), permission, (a: boolean) => (answer = a), { requestingUrl: url })
      return answer
    }
    for (const p of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen']) expect(decide(p, APP_URL), p).toBe(false)
    expect(decide('notifications', APP_URL)).toBe(true)
    expect(decide('notifications', 'https://evil.example')).toBe(false)
    expect(check(null, 'media', 'fanout://app')).toBe(false)
    expect(check(null, 'notifications', 'fanout://app')).toBe(true)
  })
})

describe('app protocol', () => {
  it('serves renderer files with the CSP header and nothing outside the folder', async () => {
    mkdirSync(join(dir, 'renderer'))
    writeFileSync(join(dir, 'renderer/index.html'), '<title>Fanout</title>')
    writeFileSync(join(dir, 'secret'), 'x')
    const ok = await serveAppRequest(join(dir, 'renderer'), 'fanout://app/index.html')
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect((await serveAppRequest(join(dir, 'renderer'), 'fanout://app/%2e%2e/secret')).status).toBe(404)
    expect((await serveAppRequest(join(dir, 'renderer'), 'fanout://other/index.html')).status).toBe(404)
  })
})

describe('IPC handlers', () => {
  function setup() {
    const handlers = new Map<string, (event: any, name: string, payload?: unknown) => any>()
    const ipcMain = { handle: (ch: string, fn: any) => handlers.set(ch, fn), removeHandler: (ch: string) => handlers.delete(ch) }
    const host = createRecordingHost()
    const contents = new fake.FakeContents()
    const dispose = registerIpc({ ipcMain: ipcMain as any, host, contents: () => contents as any })
    const trusted = { sender: contents, senderFrame: { url: APP_URL, parent: null } }
    return { handlers, host, contents, dispose, trusted }
  }

  it('registers the one call channel and removes it', () => {
    const { handlers, dispose } = setup()
    expect([...handlers.keys()]).toEqual([CALL_CHANNEL])
    dispose()
    expect(handlers.size).toBe(0)
  })

  it('serves a valid call from our window and rejects an invalid payload with a readable error', async () => {
    const { handlers, host, trusted } = setup()
    const ok = await handlers.get(CALL_CHANNEL)!(trusted, 'agent.stop', { sessionId: 's1', agentId: 'a2' })
    expect(ok).toEqual({ ok: true, value: {} })
    const bad = await handlers.get(CALL_CHANNEL)!(trusted, 'agent.stop', { sessionId: 's1' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('agentId') } })
    const wrongType = await handlers.get(CALL_CHANNEL)!(trusted, 'permission.respond', { requestId: 'r', decision: 'always' })
    expect(wrongType).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
    expect(host.calls).toEqual([{ call: 'agent.stop', request: { sessionId: 's1', agentId: 'a2' } }])
  })

  it('checks review calls against the contract like every other call', async () => {
    const { handlers, host, trusted } = setup()
    const bad = await handlers.get(CALL_CHANNEL)!(trusted, 'review.discard', { cwd: '/tmp/p', agentId: 'a1' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('expectTip') } })
    const ok = await handlers.get(CALL_CHANNEL)!(trusted, 'review.openFolder', { cwd: '/tmp/p', agentId: 'a1' })
    expect(ok).toEqual({ ok: true, value: { path: '/tmp/a1', opened: true } })
    expect(host.calls).toEqual([{ call: 'review.openFolder', request: { cwd: '/tmp/p', agentId: 'a1' } }])
  })

  it('answers a refused settings change with the sentence for each field by its path, and the whole message', async () => {
    const { handlers, trusted } = setup()
    const r = await handlers.get(CALL_CHANNEL)!(trusted, 'settings.update', { limits: { maxDepth: 0 }, defaultModel: 'gpt' })
    expect(IpcResultSchema.parse(r)).toEqual(r) // crosses to the renderer as the contract says
    expect(r.error.fields).toEqual({ 'limits.maxDepth': 'Enter a number from 1 to 32.', defaultModel: expect.stringContaining('is not an alias') })
    expect(r.error.message).toBe(`settings.update: defaultModel: ${r.error.fields.defaultModel}; limits.maxDepth: Enter a number from 1 to 32.`)
  })

  it('refuses unknown senders: another webContents, a subframe, a foreign page', async () => {
    const { handlers, host, contents } = setup()
    const call = (event: unknown, payload: unknown) => handlers.get(CALL_CHANNEL)!(event, 'session.start', payload)
    const payload = { prompt: 'rm -rf', cwd: '/tmp' }
    const senders = [
      { sender: new fake.FakeContents(), senderFrame: { url: APP_URL, parent: null } },
      { sender: contents, senderFrame: { url: APP_URL, parent: {} } },
      { sender: contents, senderFrame: { url: 'https://evil.example/', parent: null } },
      { sender: contents, senderFrame: { url: 'file:///tmp/x.html', parent: null } },
      { sender: contents, senderFrame: null }
    ]
    for (const event of senders) expect(await call(event, payload)).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    expect(host.calls).toEqual([])
  })

  it('pushes events in batches with status changes first-class, and notices', async () => {
    const host = createRecordingHost()
    const contents = new fake.FakeContents()
    connectPushes(host, contents as any)
    const base = { agentId: 'a', parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 1 }
    host.emit([
      { ...base, type: 'text_delta', text: 'a' },
      { ...base, type: 'text_delta', text: 'b' }
    ] as AgentEvent[])
    expect(contents.sent).toEqual([])
    host.emit([{ ...base, type: 'agent_end', status: 'completed' } as any])
    expect(contents.sent).toHaveLength(1)
    expect(contents.sent[0][0]).toBe(PUSH_CHANNELS.events)
    expect((contents.sent[0][1] as any[]).map((e) => e.text ?? e.type)).toEqual(['ab', 'agent_end'])
    host.notify({ type: 'workspace_changed', workspace: { cwd: '/w', name: 'w', isGitRepo: false } })
    expect(contents.sent[1]).toEqual([PUSH_CHANNELS.notice, { type: 'workspace_changed', workspace: { cwd: '/w', name: 'w', isGitRepo: false } }])
  })
})

describe('API key at rest', () => {
  it('is encrypted with safeStorage before it is written, and read back decrypted', async () => {
    const store = createSafeStorageKeyStore(dir)
    expect(await store.get()).toBeNull()
    await store.set('sk-ant-secret')
    expect(readFileSync(join(dir, 'credentials'), 'utf8')).not.toContain('sk-ant-secret')
    expect(JSON.parse(readFileSync(join(dir, 'credentials'), 'utf8')).scheme).toBe('safeStorage')
    expect(await store.get()).toBe('sk-ant-secret')
  })

  it('refuses to store the key in the clear when no keychain is available', async () => {
    fake.encryption.available = false
    const store = createSafeStorageKeyStore(dir)
    await expect(store.set('sk-ant-secret')).rejects.toThrow(/no keychain/)
  })
})

describe('application menu', () => {
  const items = (template: any[]): any[] => template.flatMap((m) => [m, ...(Array.isArray(m.submenu) ? items(m.submenu) : [])])

  it('has the standard edit, view and window roles and an Open Folder shortcut', () => {
    const opened = vi.fn()
    const template = buildMenuTemplate('linux', { openFolder: opened, runCommand: vi.fn() })
    const roles = JSON.stringify(template)
    for (const role of ['editMenu', 'windowMenu', 'togglefullscreen', 'zoomIn', 'quit']) expect(roles).toContain(`"role":"${role}"`)
    const open = items(template).find((i) => i.label === 'Open Folder…')
    expect(open).toMatchObject({ accelerator: 'CmdOrCtrl+O' })
    open.click()
    expect(opened).toHaveBeenCalled()
    expect(JSON.stringify(buildMenuTemplate('darwin', { openFolder: opened, runCommand: vi.fn() }))).toContain('"role":"appMenu"')
  })

  it('lists every app command with its shortcut, shown but left to the page, and a click runs it there', () => {
    const run = vi.fn()
    const all = items(buildMenuTemplate('linux', { openFolder: vi.fn(), runCommand: run }))
    for (const c of APP_COMMANDS) {
      const item = all.find((i) => i.id === c.id)
      expect(item, c.id).toMatchObject({ label: c.label, accelerator: electronAccelerator(c.keys), registerAccelerator: false })
      item.click()
      expect(run).toHaveBeenLastCalledWith(c.id)
    }
    expect(all.find((i) => i.id === 'palette').accelerator).toBe('CmdOrCtrl+K')
    expect(all.find((i) => i.id === 'new-session').accelerator).toBe('Alt+N')
  })
})

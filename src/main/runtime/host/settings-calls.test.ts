// Settings through the contract as the dialog sends them: bad values refused with a sentence about their
// field and nothing written, aliases reset to their defaults, the theme kept; "Test connection"; and
// renaming and deleting sessions from the sidebar.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { folders, host, mainEnded, until } from '../../../../test/support/host'
import { dispatchCall } from '../../../shared/ipc-dispatch'
import { settingsFieldErrors } from '../../../shared/settings-fields'
import { reply, scriptByAgent, startScriptedServer } from '../model/scripted'
import { createSessionRecorder, saveApiKey } from '../store'
import { eventsFor } from '../store/test-fixtures'

const settingsFile = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))

describe('settings through the contract', () => {
  it('refuses a bad number with a sentence for its field, and writes nothing', async () => {
    const { h, dirs } = await host(null)
    await dispatchCall(h, 'settings.update', { limits: { maxTurns: 50 } })
    const r = await dispatchCall(h, 'settings.update', { limits: { maxConcurrentAgents: 0, maxBudgetUsd: -1 }, defaultModel: 'gpt' })
    if (r.ok) throw new Error('accepted')
    // Each field's sentence by its place in the request, and all of them in one line for the CLI and logs.
    expect(r.error.fields).toEqual({
      'limits.maxConcurrentAgents': 'Enter a number from 1 to 256.',
      'limits.maxBudgetUsd': 'Enter an amount from $0.01 to $100,000, or leave it empty for no limit.',
      defaultModel: '“gpt” is not an alias: use haiku, sonnet or opus, or a full model id like claude-sonnet-4-5.'
    })
    expect(r.error.message).toBe(
      `settings.update: ${Object.entries(r.error.fields!)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')}`
    )
    expect(settingsFieldErrors(r.error)).toEqual({
      fields: {
        maxConcurrentAgents: 'Enter a number from 1 to 256.',
        maxBudgetUsd: r.error.fields!['limits.maxBudgetUsd'],
        defaultModel: r.error.fields!.defaultModel
      },
      rest: []
    })
    expect(settingsFile(dirs.dataDir).limits).toEqual({ maxTurns: 50 })
    const bubble = await dispatchCall(h, 'settings.update', { defaultPermissionMode: 'bubble' })
    expect(bubble).toMatchObject({ ok: false, error: { message: expect.stringContaining('no parent') } })
  })

  it("shows Claude Code's worktree.baseRef for the workspace and saves it to the user's Claude Code settings, keeping the rest", async () => {
    const { h, dirs } = await host(null)
    expect((await h.handlers['settings.get']({})).settings).toMatchObject({
      worktreeBaseRef: { value: 'head', file: null, scope: null },
      mergeStrategy: 'merge'
    })
    const userFile = join(dirs.home, '.claude', 'settings.json')
    mkdirSync(join(dirs.home, '.claude'), { recursive: true })
    writeFileSync(userFile, JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] }, worktree: { symlinkDirectories: ['node_modules'] } }))
    const saved = await h.handlers['settings.update']({ worktreeBaseRef: 'fresh', mergeStrategy: 'squash' })
    expect(saved.settings).toMatchObject({ worktreeBaseRef: { value: 'fresh', file: userFile, scope: 'user' }, mergeStrategy: 'squash' })
    expect(JSON.parse(readFileSync(userFile, 'utf8'))).toEqual({
      permissions: { allow: ['Bash(npm test:*)'] },
      worktree: { symlinkDirectories: ['node_modules'], baseRef: 'fresh' }
    })
    // A project's own setting takes precedence, and the dialog is told where it comes from.
    mkdirSync(join(dirs.cwd, '.claude'), { recursive: true })
    writeFileSync(join(dirs.cwd, '.claude', 'settings.local.json'), JSON.stringify({ worktree: { baseRef: 'head' } }))
    expect((await h.handlers['settings.get']({})).settings.worktreeBaseRef).toEqual({
      value: 'head',
      file: join(dirs.cwd, '.claude', 'settings.local.json'),
      scope: 'local'
    })
    // A user file that is not JSON is never overwritten.
    writeFileSync(userFile, '{ "permissions": ')
    const refused = await dispatchCall(h, 'settings.update', { worktreeBaseRef: 'head' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('is not valid JSON') } })
    expect(readFileSync(userFile, 'utf8')).toBe('{ "permissions": ')
  })

  it('offers exactly the three aliases, each reset to its default by null', async () => {
    const { h, dirs } = await host(null)
    const custom = await dispatchCall(h, 'settings.update', { modelAliases: { fast: 'claude-haiku-4-5' } })
    expect(custom).toMatchObject({ ok: false, error: { message: expect.stringContaining('Only the haiku, sonnet, opus aliases exist') } })
    const bare = await dispatchCall(h, 'settings.update', { modelAliases: { sonnet: 'opus' } })
    expect(bare.ok ? '' : settingsFieldErrors(bare.error).fields['alias.sonnet']).toMatch(/full model id/)

    const set = await h.handlers['settings.update']({ modelAliases: { sonnet: 'gateway/sonnet-4' } })
    expect(set.settings.modelAliases.sonnet).toBe('gateway/sonnet-4')
    const reset = await h.handlers['settings.update']({ modelAliases: { sonnet: null } })
    expect(reset.settings.modelAliases.sonnet).toBe(reset.settings.defaultModelAliases.sonnet)
    expect(settingsFile(dirs.dataDir).modelAliases).toEqual({})
  })

  it('shows and saves how agents that start together share the prompt cache, refusing a mode that does not exist', async () => {
    const { h, dirs } = await host(null)
    expect((await h.handlers['settings.get']({})).settings.promptCacheSharing).toBe('first')
    expect(await dispatchCall(h, 'settings.update', { promptCacheSharing: 'off' })).toMatchObject({ ok: true })
    expect(settingsFile(dirs.dataDir).promptCacheSharing).toBe('off')
    expect((await h.handlers['settings.get']({})).settings.promptCacheSharing).toBe('off')
    expect(await dispatchCall(h, 'settings.update', { promptCacheSharing: 'sometimes' })).toMatchObject({ ok: false })
    expect(settingsFile(dirs.dataDir).promptCacheSharing).toBe('off')
  })

  it('keeps the theme', async () => {
    const { h } = await host(null)
    expect((await h.handlers['settings.get']({})).settings.theme).toBe('system')
    await h.handlers['settings.update']({ theme: 'dark' })
    expect((await h.handlers['settings.get']({})).settings.theme).toBe('dark')
  })
})

describe('Test connection', () => {
  it('says OK with the number of models at a working address, using the stored key', async () => {
    const dirs = folders()
    await saveApiKey(dirs.dataDir, 'sk-ant-test-key')
    const server = await startScriptedServer({ respond: () => reply.text('unused') })
    const { h } = await host(null, dirs)
    try {
      const r = await h.handlers['settings.testConnection']({ baseUrl: server.url })
      expect(r).toEqual({ ok: true, url: server.url, message: `Connected: ${server.url} answered and offers 3 models.` })
      expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', headers: { authorization: 'Bearer sk-ant-test-key' } })
    } finally {
      await server.close()
    }
  })

  it('names the refused address at once, and says what to change without naming the place (the window does)', async () => {
    const dirs = folders()
    await saveApiKey(dirs.dataDir, 'sk-ant-test-key')
    const { h } = await host(null, dirs)
    const started = Date.now()
    const r = await h.handlers['settings.testConnection']({ baseUrl: 'http://127.0.0.1:9' })
    expect(Date.now() - started).toBeLessThan(5000)
    // Shown inside Settings (and on the first-run page): "in Settings" would send the person where they are.
    expect(r).toEqual({
      ok: false,
      url: 'http://127.0.0.1:9',
      message: 'Could not connect to http://127.0.0.1:9 (connect ECONNREFUSED 127.0.0.1:9).',
      fix: 'base_url'
    })
  })

  it('tells an address from the environment, and the default endpoint, from one typed in', async () => {
    const dirs = folders()
    await saveApiKey(dirs.dataDir, 'sk-ant-test-key')
    const fromEnv = await host(null, dirs, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' })
    expect(await fromEnv.h.handlers['settings.testConnection']({ baseUrl: null })).toMatchObject({ ok: false, url: 'http://127.0.0.1:9', fix: 'environment' })
    // The saved address (none here, so the environment's) when none is passed.
    expect(await fromEnv.h.handlers['settings.testConnection']({})).toMatchObject({ ok: false, fix: 'environment' })
    await fromEnv.h.handlers['settings.update']({ baseUrl: 'http://127.0.0.1:9' })
    expect(await fromEnv.h.handlers['settings.testConnection']({})).toMatchObject({ ok: false, fix: 'base_url' })
  })

  it('says the key was refused, and that an endpoint without a model list still answered', async () => {
    const dirs = folders()
    await saveApiKey(dirs.dataDir, 'sk-ant-wrong-key')
    const strict = await startScriptedServer({ respond: () => reply.text('unused'), apiKey: 'sk-ant-right-key' })
    const bare = await startScriptedServer({ respond: () => reply.text('unused'), models: null })
    const { h } = await host(null, dirs)
    try {
      expect(await h.handlers['settings.testConnection']({ baseUrl: strict.url })).toEqual({
        ok: false,
        url: strict.url,
        message: `${strict.url} answered but refused the key (401).`,
        fix: 'key'
      })
      expect(await h.handlers['settings.testConnection']({ baseUrl: bare.url })).toEqual({
        ok: true,
        url: bare.url,
        message: `Connected: ${bare.url} answered, though it has no model list (GET /v1/models: 404).`
      })
    } finally {
      await strict.close()
      await bare.close()
    }
  })

  it('asks for a key first when there is none', async () => {
    const { h } = await host(null)
    expect(await h.handlers['settings.testConnection']({})).toEqual({
      ok: false,
      url: 'https://api.anthropic.com',
      message: 'There is no API key to test with.',
      fix: 'no_key'
    })
  })
})

describe('renaming and deleting sessions', () => {
  const script = scriptByAgent([{ name: 'main', match: 'lead agent in Fanout', turns: [reply.text('Done.')] }])

  it('renames a session so the list and a restarted host show the new name', async () => {
    const dirs = folders()
    const first = await host(script, dirs)
    const { sessionId } = await first.h.handlers['session.start']({ prompt: 'Summarize the repo', cwd: dirs.cwd })
    await until(() => mainEnded(first.events, sessionId), 'the run')
    const { session } = await first.h.handlers['sessions.rename']({ sessionId, title: 'Repo tour' })
    expect(session.title).toBe('Repo tour')
    expect(first.notices.some((n) => n.type === 'session_updated' && n.session.title === 'Repo tour')).toBe(true)
    await first.h.close()
    const second = await host(null, dirs)
    expect((await second.h.handlers['sessions.list']({})).sessions[0]).toMatchObject({ sessionId, title: 'Repo tour' })
    expect((await second.h.handlers['sessions.open']({ sessionId })).session.title).toBe('Repo tour')
    await expect(second.h.handlers['sessions.rename']({ sessionId: 'nope', title: 'x' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('checks the session before saving a name: none is left for an unknown one, and one of another folder is renamed', async () => {
    const dirs = folders()
    const { h } = await host(null, dirs)
    // A folder that holds nothing of a session, and ids that no session has or could have.
    mkdirSync(join(dirs.dataDir, 'sessions', 'stray'), { recursive: true })
    for (const sessionId of ['stray', 'missing', 'not:a-folder-name']) {
      const r = await dispatchCall(h, 'sessions.rename', { sessionId, title: 'Kept nowhere' })
      expect(r).toEqual({ ok: false, error: { code: 'not_found', message: `There is no session ${sessionId}.` } })
    }
    expect(readdirSync(join(dirs.dataDir, 'sessions'))).toEqual(['stray'])
    expect(readdirSync(join(dirs.dataDir, 'sessions', 'stray'))).toEqual([])

    // A session recorded in another folder (a list asked for that folder shows it) takes its new name.
    const f = eventsFor({ sessionId: 'elsewhere-1', agentId: 'main', parentAgentId: null, parentToolUseId: null })
    const rec = createSessionRecorder({ dataDir: dirs.dataDir, sessionId: 'elsewhere-1', cwd: dirs.tmp })
    rec.record(f.start({ prompt: 'Old name', cwd: dirs.tmp }))
    rec.record(f.end('completed'))
    await rec.close()
    expect((await h.handlers['sessions.rename']({ sessionId: 'elsewhere-1', title: 'New name' })).session).toMatchObject({
      sessionId: 'elsewhere-1',
      title: 'New name',
      cwd: dirs.tmp,
      status: 'completed'
    })
    expect((await h.handlers['sessions.list']({ cwd: dirs.tmp })).sessions).toMatchObject([{ sessionId: 'elsewhere-1', title: 'New name' }])
  })

  it('moves a finished session to the trash and refuses one that runs', async () => {
    const dirs = folders()
    const slow = scriptByAgent([{ name: 'main', match: 'lead agent in Fanout', turns: [reply.toolUse('Bash', { command: 'sleep 30' }), reply.text('Done.')] }])
    const { h, events, notices } = await host(slow, dirs)
    const { sessionId } = await h.handlers['session.start']({ prompt: 'Wait', cwd: dirs.cwd })
    await until(() => events.some((e) => e.type === 'permission_request'), 'the run to be waiting')
    await expect(h.handlers['sessions.delete']({ sessionId })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/stop it before deleting/)
    })
    await h.handlers['agent.stop']({ sessionId, agentId: events.find((e) => e.type === 'agent_start')!.agentId })
    await until(() => mainEnded(events, sessionId), 'the stop')
    expect(await h.handlers['sessions.delete']({ sessionId })).toEqual({ trashed: true })
    expect(notices.some((n) => n.type === 'session_deleted' && n.sessionId === sessionId)).toBe(true)
    expect((await h.handlers['sessions.list']({})).sessions).toEqual([])
    const trash = join(dirs.home, '.local/share/Trash')
    expect(readdirSync(join(trash, 'files'))).toEqual([sessionId])
    expect(readFileSync(join(trash, 'info', `${sessionId}.trashinfo`), 'utf8')).toContain(`Path=${join(dirs.dataDir, 'sessions', sessionId)}`)
    expect(existsSync(join(dirs.dataDir, 'sessions', sessionId))).toBe(false)
  })
})

// The agent editor through the host the UI drives, over the real runtime and the scripted model server:
// edits saved from the editor and edits made on disk both reach the next spawn of a running session; a
// save never overwrites a change made elsewhere; "Try it" runs the unsaved draft in its own worktree.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeHosts, host as sharedHost, until } from '../../../../test/support/host'
import type { AgentEvent } from '../../../shared/events'
import { stdioServerEntry } from '../mcp/testing/servers'
import { reply, scriptByAgent, type Respond } from '../model/scripted'

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  // The hosts first: a session still writing its transcripts into a folder being removed fails the removal.
  await closeHosts()
  for (const c of cleanup.splice(0).reverse()) await c()
})

function project(git: boolean) {
  const tmp = mkdtempSync(join(tmpdir(), 'fanout-editor-host-'))
  const cwd = join(tmp, 'project')
  mkdirSync(cwd, { recursive: true })
  writeFileSync(join(cwd, 'README.md'), '# Project\n')
  if (git) {
    const g = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], { cwd, stdio: 'ignore' })
    g('init', '-q', '-b', 'main')
    g('add', '-A')
    g('commit', '-q', '-m', 'init')
  }
  cleanup.push(() => rmSync(tmp, { recursive: true, force: true }))
  return { cwd, dataDir: join(tmp, 'data'), home: join(tmp, 'home') }
}

// The shared host helper, with the scripted server these tests always start.
async function host(respond: Respond, dirs: ReturnType<typeof project>) {
  const made = await sharedHost(respond, dirs)
  return { ...made, server: made.server! }
}
const mainEnds = (events: AgentEvent[], sessionId: string) =>
  events.filter((e) => e.type === 'agent_end' && e.sessionId === sessionId && e.parentAgentId === null).length

type Handlers = Awaited<ReturnType<typeof host>>['h']['handlers']

/** The helper agent's prompt as the host's live session last read it (the host keeps its sessions private). */
function liveHelperPrompt(h: Awaited<ReturnType<typeof host>>['h']): string {
  const live = (h as unknown as { live: { all(): Array<{ session: { agents(): Map<string, { definition: { systemPrompt?: string } }> } }> } }).live
  return live.all()[0]?.session.agents().get('helper')?.definition.systemPrompt ?? ''
}

/** A new blank agent file in the project, opened, with the form's `edit` applied to its text (not saved). */
async function createAndEdit(
  handlers: Handlers,
  cwd: string,
  name: string,
  edit: { changes: Parameters<Handlers['agents.edit']>[0]['changes']; body: string }
) {
  const { file } = await handlers['agents.create']({ cwd, scope: 'project', name, template: 'blank' })
  const { document } = await handlers['agents.open']({ cwd, file })
  const edited = await handlers['agents.edit']({ cwd, file, text: document.text, ...edit })
  return { file, document, edited }
}

describe('agent editor through the host', () => {
  it('a definition saved in the editor, then changed on disk, applies to the next spawn of a running session', async () => {
    const dirs = project(false)
    const { h, events, notices, server } = await host(
      scriptByAgent([
        { name: 'helper', match: 'You are helper', turns: [reply.text('first report'), reply.text('second report')] },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [
            reply.toolUse('Agent', { description: 'First task', prompt: 'first task', subagent_type: 'helper' }),
            reply.text('done once'),
            reply.toolUse('Agent', { description: 'Second task', prompt: 'second task', subagent_type: 'helper' }),
            reply.text('done twice')
          ]
        }
      ]),
      dirs
    )
    const { file, document, edited } = await createAndEdit(h.handlers, dirs.cwd, 'helper', {
      changes: [{ key: 'description', value: 'Helps: with anything' }],
      body: 'You are helper, version one.\n'
    })
    expect(edited.analysis.effective!.listingLine).toBe('- helper: Helps: with anything (Tools: All tools)')
    const { result } = await h.handlers['agents.save']({ cwd: dirs.cwd, file, text: edited.text, base: document.version })
    expect(result.saved).toBe(true)
    const { library } = await h.handlers['agents.library']({ cwd: dirs.cwd })
    expect(library.listing).toContain('- helper: Helps: with anything (Tools: All tools)')

    const { sessionId } = await h.handlers['session.start']({ prompt: 'Use the helper', cwd: dirs.cwd })
    await until(() => mainEnds(events, sessionId) === 1, 'the first run')
    const helperSystems = () =>
      server
        .messageRequests()
        .filter((r) => r.system.includes('You are helper'))
        .map((r) => r.system)
    expect(helperSystems()[0]).toContain('version one')

    notices.length = 0
    writeFileSync(file, readFileSync(file, 'utf8').replace('version one', 'version two'))
    await until(() => notices.some((n) => n.type === 'agents_changed'), 'the folder watch to notice the change')
    // A reload the editor's save started can still be under way, reading the old file, and notify after the
    // change on disk (a loaded machine): the prompt goes once the session itself holds the new text.
    await until(() => liveHelperPrompt(h).includes('version two'), 'the running session to re-read the file')
    await h.handlers['session.sendPrompt']({ sessionId, prompt: 'Again' })
    await until(() => mainEnds(events, sessionId) === 2, 'the second run')
    expect(helperSystems()[1]).toContain('version two')
  })

  it("a batch of form changes makes every change it can: one field's bad YAML is named and loses no other field's change", async () => {
    const dirs = project(false)
    const { h } = await host(() => reply.text('unused'), dirs)
    const { edited } = await createAndEdit(h.handlers, dirs.cwd, 'batch', {
      changes: [
        { key: 'mcpServers', value: 'a: [b' },
        { key: 'description', value: 'Kept although mcpServers was refused' }
      ],
      body: 'The new prompt.\n'
    })
    expect(edited.error).toMatchObject({ key: 'mcpServers', message: expect.stringContaining('not valid YAML') })
    expect(edited.text).toContain('description: Kept although mcpServers was refused')
    expect(edited.text).not.toMatch(/^mcpServers:/m)
    expect(edited.text.endsWith('The new prompt.\n')).toBe(true)
  })

  it('never overwrites a change made on disk while the file was open; keeping mine is explicit', async () => {
    const dirs = project(false)
    const { h } = await host(() => reply.text('unused'), dirs)
    const { file } = await h.handlers['agents.create']({ cwd: dirs.cwd, scope: 'user', name: 'writer', template: 'researcher' })
    const { document } = await h.handlers['agents.open']({ cwd: dirs.cwd, file })
    writeFileSync(file, document.text.replace('model: haiku', 'model: opus'))
    const mine = document.text.replace('color: cyan', 'color: pink')
    const first = await h.handlers['agents.save']({ cwd: dirs.cwd, file, text: mine, base: document.version })
    expect(first.result).toMatchObject({ saved: false, conflict: { text: expect.stringContaining('model: opus') } })
    expect(readFileSync(file, 'utf8')).toContain('model: opus')
    const forced = await h.handlers['agents.save']({ cwd: dirs.cwd, file, text: mine, base: document.version, force: true })
    expect(forced.result.saved).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe(mine)
    await expect(h.handlers['agents.save']({ cwd: dirs.cwd, file: join(dirs.cwd, 'README.md'), text: 'x', base: null })).rejects.toMatchObject({
      code: 'forbidden'
    })
  })

  it('Try it runs the unsaved draft in its own worktree, commits what it changed on a branch, and removes an unchanged one', async () => {
    const dirs = project(true)
    const { h, events, notices, server } = await host(
      scriptByAgent([
        {
          name: 'draft',
          match: 'You are the tried draft',
          turns: [reply.toolUse('Write', { file_path: 'notes.txt', content: 'tried\n' }), reply.text('Wrote notes.txt.')]
        },
        { name: 'quiet', match: 'You are the quiet draft', turns: [reply.text('Nothing to change.')] }
      ]),
      dirs
    )
    const { file } = await h.handlers['agents.create']({ cwd: dirs.cwd, scope: 'project', name: 'trier', template: 'blank' })
    const saved = readFileSync(file, 'utf8')
    const draft = (
      await h.handlers['agents.edit']({
        cwd: dirs.cwd,
        file,
        text: saved,
        changes: [
          { key: 'tools', value: ['Read', 'Write'] },
          { key: 'permissionMode', value: 'acceptEdits' },
          { key: 'model', value: 'claude-haiku-4-5' }
        ],
        body: 'You are the tried draft.\n'
      })
    ).text

    const { run } = await h.handlers['agents.try']({ cwd: dirs.cwd, file, text: draft, prompt: 'Write some notes' })
    expect(run.worktree).toBeDefined()
    expect(existsSync(run.worktree!.path)).toBe(true)
    await until(() => notices.some((n) => n.type === 'agent_try_finished' && n.sessionId === run.sessionId), 'the try to finish')
    const finished = notices.find((n) => n.type === 'agent_try_finished' && n.sessionId === run.sessionId)
    expect(finished).toMatchObject({ worktree: { branch: run.worktree!.branch, changed: true, kept: true, commit: expect.any(String) } })
    const request = server.messageRequests().find((r) => r.system.includes('You are the tried draft'))!
    expect(request.toolNames.sort()).toEqual(['Read', 'Write'])
    expect(request.model).toBe('claude-haiku-4-5') // the draft's own model, not the default
    expect(events.find((e) => e.type === 'agent_start' && e.sessionId === run.sessionId)).toMatchObject({ agentType: 'trier', agentId: run.agentId })
    // The person's checkout is untouched; the branch holds the work; the saved file is unchanged.
    expect(existsSync(join(dirs.cwd, 'notes.txt'))).toBe(false)
    expect(execFileSync('git', ['show', `${run.worktree!.branch}:notes.txt`], { cwd: dirs.cwd, encoding: 'utf8' })).toBe('tried\n')
    expect(readFileSync(file, 'utf8')).toBe(saved)

    const quiet = saved.replace(/\n\nYou are trier[\s\S]*$/, '\n\nYou are the quiet draft.\n')
    const second = await h.handlers['agents.try']({ cwd: dirs.cwd, file, text: quiet, prompt: 'Look around' })
    await until(() => notices.some((n) => n.type === 'agent_try_finished' && n.sessionId === second.run.sessionId), 'the second try to finish')
    expect(notices.find((n) => n.type === 'agent_try_finished' && n.sessionId === second.run.sessionId)).toMatchObject({
      worktree: { changed: false, kept: false }
    })
    expect(existsSync(second.run.worktree!.path)).toBe(false)
  })

  it("offers the folder's MCP servers' tools once they are known, and resolves `mcp__server__*` to them", async () => {
    const dirs = project(false)
    writeFileSync(join(dirs.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { notes: stdioServerEntry() } }))
    const { h } = await host(() => reply.text('unused'), dirs)
    const { trust } = await h.handlers['trust.get']({ cwd: dirs.cwd })
    await h.handlers['trust.answer']({ cwd: dirs.cwd, decision: 'trust', hash: trust.hash })
    const { file } = await h.handlers['agents.create']({ cwd: dirs.cwd, scope: 'project', name: 'noter', template: 'blank' })
    const text = readFileSync(file, 'utf8').replace('---\n\n', 'tools: Read, mcp__notes__*\n---\n\n')
    const before = await h.handlers['agents.analyze']({ cwd: dirs.cwd, file, text })
    expect(before.analysis.effective!.tools.invalidTools).toEqual(['mcp__notes__*'])
    await h.handlers['mcp.list']({ cwd: dirs.cwd })
    const { library } = await h.handlers['agents.library']({ cwd: dirs.cwd })
    expect(library.availableTools).toContain('mcp__notes__echo')
    const after = await h.handlers['agents.analyze']({ cwd: dirs.cwd, file, text })
    expect(after.analysis.effective!.tools.resolvedTools).toEqual(expect.arrayContaining(['Read', 'mcp__notes__echo']))
    expect(after.analysis.effective!.tools.invalidTools).toEqual([])
  })

  it('refuses to try a draft that does not load, saying why', async () => {
    const dirs = project(false)
    const { h } = await host(() => reply.text('unused'), dirs)
    const { file } = await h.handlers['agents.create']({ cwd: dirs.cwd, scope: 'project', name: 'broken', template: 'blank' })
    await expect(h.handlers['agents.try']({ cwd: dirs.cwd, file, text: '---\nname: broken\n---\n', prompt: 'hi' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('does not load')
    })
  })
})

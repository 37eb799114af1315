import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseAgentMarkdown } from '../definitions/parse'
import { editableScope, readableSource, type AgentPathContext } from './agent-paths'
import { createAgentFile, deleteAgentFile, duplicateAgentFile, moveAgentFile, renameAgentFile } from './file-ops'
import { readVersioned } from './file-store'
import { agentTemplates } from './templates'

let root: string
let ctx: AgentPathContext
const projectDir = () => join(ctx.cwd, '.claude', 'agents')
const userDir = () => join(ctx.home, '.claude', 'agents')

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fanout-file-ops-'))
  ctx = { cwd: join(root, 'project'), home: join(root, 'home'), sources: { builtinDir: join(root, 'builtin') } }
  mkdirSync(ctx.cwd, { recursive: true })
  mkdirSync(ctx.home, { recursive: true })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const load = (file: string) => parseAgentMarkdown(readFileSync(file, 'utf8'), file, 'project')

describe('agent file operations', () => {
  it('creates an agent from every template, each loading cleanly, and never overwrites', async () => {
    for (const t of agentTemplates()) {
      const file = await createAgentFile(ctx, 'project', `agent-${t.id}`, t.id)
      expect(file).toBe(join(projectDir(), `agent-${t.id}.md`))
      const parsed = load(file)
      expect(parsed.definition?.agentType, t.id).toBe(`agent-${t.id}`)
      expect(parsed.diagnostics, t.id).toEqual([])
    }
    await expect(createAgentFile(ctx, 'project', 'agent-blank', 'blank')).rejects.toMatchObject({ code: 'conflict' })
    await expect(createAgentFile(ctx, 'user', 'bad name', 'blank')).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('cannot be an agent name')
    })
    await expect(createAgentFile(ctx, 'user', '../escape', 'blank')).rejects.toMatchObject({ code: 'invalid_request' })
  })

  it('duplicates under a free name, with the name field changed to match', async () => {
    const file = await createAgentFile(ctx, 'project', 'reviewer', 'reviewer')
    const text = readFileSync(file, 'utf8')
    const copy = await duplicateAgentFile(ctx, file, text, 'project')
    const copy2 = await duplicateAgentFile(ctx, file, text, 'user')
    const copy3 = await duplicateAgentFile(ctx, file, text)
    expect(copy).toBe(join(projectDir(), 'reviewer-copy.md'))
    expect(copy2).toBe(join(userDir(), 'reviewer-copy.md'))
    expect(copy3).toBe(join(projectDir(), 'reviewer-copy-2.md'))
    expect(load(copy3).definition?.agentType).toBe('reviewer-copy-2')
    expect(readFileSync(copy, 'utf8')).toBe(text.replace('name: reviewer', 'name: reviewer-copy'))
    // Named after the agent, not the file (built-in files are numbered).
    const builtin = join(ctx.sources.builtinDir!, '2-Explore.md')
    const explore = '---\nname: Explore\ndescription: Finds things.\n---\nLook around.\n'
    expect(await duplicateAgentFile(ctx, builtin, explore, 'project')).toBe(join(projectDir(), 'Explore-copy.md'))
  })

  it('renames the file and the name together, saving the draft, and refuses when the file changed meanwhile', async () => {
    const file = await createAgentFile(ctx, 'project', 'helper', 'blank')
    const { version } = (await readVersioned(file))!
    const draft = readFileSync(file, 'utf8').replace('You are helper.', 'You are helpful.')
    const renamed = await renameAgentFile(ctx, file, 'assistant', draft, version)
    expect(renamed.file).toBe(join(projectDir(), 'assistant.md'))
    expect(existsSync(file)).toBe(false)
    expect(load(renamed.file).definition).toMatchObject({ agentType: 'assistant', systemPrompt: expect.stringContaining('You are helpful.') })

    writeFileSync(renamed.file, readFileSync(renamed.file, 'utf8') + '\nedited elsewhere\n')
    await expect(renameAgentFile(ctx, renamed.file, 'other', draft, renamed.version)).rejects.toMatchObject({ code: 'conflict' })
    expect(existsSync(join(projectDir(), 'other.md'))).toBe(false)
  })

  it('moves between the user and the project folders, keeping the bytes', async () => {
    const file = await createAgentFile(ctx, 'user', 'mover', 'researcher')
    const bytes = readFileSync(file)
    const moved = await moveAgentFile(ctx, file, 'project', (await readVersioned(file))!.version)
    expect(moved).toBe(join(projectDir(), 'mover.md'))
    expect(readFileSync(moved).equals(bytes)).toBe(true)
    expect(existsSync(file)).toBe(false)
    await expect(moveAgentFile(ctx, moved, 'project', null)).rejects.toMatchObject({ message: expect.stringContaining('already a project agent') })
  })

  it('deletes only an unchanged file, and only in an editable folder', async () => {
    const file = await createAgentFile(ctx, 'project', 'gone', 'blank')
    const { version } = (await readVersioned(file))!
    writeFileSync(file, 'changed')
    await expect(deleteAgentFile(ctx, file, version)).rejects.toMatchObject({ code: 'conflict' })
    await deleteAgentFile(ctx, file, (await readVersioned(file))!.version)
    expect(existsSync(file)).toBe(false)
    const builtin = join(ctx.sources.builtinDir!, 'Explore.md')
    await expect(deleteAgentFile(ctx, builtin, null)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('read-only') })
  })

  it('knows which folders are editable and which are only readable', () => {
    expect(editableScope(join(userDir(), 'a.md'), ctx)).toBe('user')
    expect(editableScope(join(projectDir(), 'sub', 'a.md'), ctx)).toBe('project')
    expect(editableScope(join(ctx.cwd, 'a.md'), ctx)).toBeUndefined()
    expect(editableScope(join(projectDir(), '..', '..', 'secret.md'), ctx)).toBeUndefined()
    expect(readableSource(join(ctx.sources.builtinDir!, 'Plan.md'), ctx)).toEqual({ source: 'built-in' })
    expect(readableSource('/etc/passwd', ctx)).toBeUndefined()
  })
})

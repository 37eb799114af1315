import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBuiltinTools } from '../tools/index'
import { toolContext, useTempDirs, writeTree } from '../tools/test-kit'
import { createPermissionGate, type PermissionRequest } from './gate'
import { headlessPermissions } from './headless'
import { effectiveMode } from '../permissions/mode'
import { emptyRules, rulesFrom } from '../permissions/rules'
import { runTool } from './execute'

let cwd: string
let home: string
useTempDirs('each', ['fanout-gate-', 'fanout-gate-home-'], (a, b) => {
  cwd = a
  home = b
})

const Bash = { name: 'Bash', readOnly: false }
const Edit = { name: 'Edit', readOnly: false }

describe('effectiveMode', () => {
  it.each([
    ['default', undefined, 'default'],
    ['default', 'acceptEdits', 'acceptEdits'],
    ['dontAsk', 'bubble', 'bubble'],
    ['acceptEdits', 'default', 'acceptEdits'],
    ['bypassPermissions', 'plan', 'bypassPermissions'],
    ['plan', 'acceptEdits', 'plan'],
    ['bubble', undefined, 'bubble']
  ] as const)('parent %s, definition %s → %s', (parent, own, expected) => {
    expect(effectiveMode(parent, own)).toBe(expected)
  })
})

describe('createPermissionGate', () => {
  it('headless: a call that needs approval is denied with how to allow it', async () => {
    const gate = createPermissionGate({ mode: 'default', rules: emptyRules(), cwd, headless: true })
    const d = await gate.canUseTool(Bash, { command: 'npm test' }, 'toolu_1')
    expect(d).toEqual({
      behavior: 'deny',
      message: expect.stringContaining('Bash needs approval and this run is headless')
    })
    expect((d as { message: string }).message).toContain('--permission-mode')
    expect((d as { message: string }).message).toContain('Bash(npm test:*)')
    expect(await gate.canUseTool({ name: 'Read', readOnly: true }, { file_path: 'x' }, 't')).toMatchObject({ behavior: 'allow' })
  })

  it("askHook (PermissionRequest hooks) answers in the person's place: allow, deny, or nothing; never for a protected path, nor where no ask is needed", async () => {
    const asked: PermissionRequest[] = []
    const answers: Array<Awaited<ReturnType<NonNullable<Parameters<typeof createPermissionGate>[0]['askHook']>>>> = []
    const gate = createPermissionGate({
      mode: 'default',
      rules: rulesFrom({ allow: ['Bash(ls:*)'] }, 'project', cwd),
      cwd,
      headless: true,
      askHook: async (req) => {
        asked.push(req)
        return answers.shift() ?? null
      }
    })
    answers.push({ behavior: 'allow' })
    expect(await gate.canUseTool(Bash, { command: 'npm test' }, 't1')).toMatchObject({ behavior: 'allow', sandbox: expect.any(String) })
    expect(asked[0]).toMatchObject({ toolName: 'Bash', input: { command: 'npm test' }, toolUseId: 't1', suggestedRules: expect.any(Array) })
    answers.push({ behavior: 'deny', message: 'not today' })
    expect(await gate.canUseTool(Bash, { command: 'npm test' }, 't2')).toEqual({
      behavior: 'deny',
      message: 'A PermissionRequest hook denied this Bash call: not today'
    })
    // No answer: headless denies as before.
    expect(await gate.canUseTool(Bash, { command: 'npm test' }, 't3')).toMatchObject({ behavior: 'deny', message: expect.stringContaining('headless') })
    // Allowed by a rule: nothing to ask, the hook is not consulted.
    const before = asked.length
    expect(await gate.canUseTool(Bash, { command: 'ls' }, 't4')).toMatchObject({ behavior: 'allow' })
    // A protected path is a person's decision alone: a hook's allow is never asked for it.
    answers.push({ behavior: 'allow' })
    const protectedWrite = await gate.canUseTool(Edit, { file_path: join(cwd, '.git/hooks/pre-commit'), old_string: 'a', new_string: 'b' }, 't5')
    expect(protectedWrite.behavior).toBe('deny')
    expect(asked.length).toBe(before)
  })

  it('headless hints name only what would work: no acceptEdits already on or for an edit outside, no repeated mode, no rule already allowed', async () => {
    const message = async (mode: 'default' | 'acceptEdits' | 'plan', tool: typeof Bash, input: unknown, rules = emptyRules()) => {
      const d = await createPermissionGate({ mode, rules, cwd, headless: true, home }).canUseTool(tool, input, 't')
      return (d as { message: string }).message
    }
    const editDefault = await message('default', Edit, { file_path: 'a.txt' })
    expect(editDefault).toContain(
      'Allow it with --permission-mode acceptEdits, --permission-mode bypassPermissions or a permissions.allow rule like Edit(./**)'
    )
    // Already in acceptEdits, outside the working directory: acceptEdits would not help.
    const outside = await message('acceptEdits', Edit, { file_path: join(home, 'elsewhere.txt') })
    expect(outside).not.toContain('acceptEdits')
    expect(outside).toContain('additionalDirectories')
    // bypassPermissions is named once.
    const bash = await message('default', Bash, { command: 'npm install' })
    expect(bash.match(/bypassPermissions/g)).toHaveLength(1)
    expect(bash).not.toContain('(or bypassPermissions)')
    // A rule the allow list already holds is not suggested again; the message says why it did not apply.
    const held = await message('default', Bash, { command: 'npm test && rm -rf build' }, rulesFrom({ allow: ['Bash(npm test:*)'] }, 'project', cwd))
    expect(held).not.toContain('rule like Bash(npm test:*)')
    expect(held).toContain('rule like Bash(rm -rf build)')
  })

  it('asks with the reason and suggested rule; honours allow and deny answers', async () => {
    const asked: PermissionRequest[] = []
    let answer: 'allow' | 'deny' = 'allow'
    const gate = createPermissionGate({ mode: 'default', rules: emptyRules(), cwd, ask: async (req) => (asked.push(req), { decision: answer }) })
    expect(await gate.canUseTool(Edit, { file_path: 'a.txt' }, 'toolu_a')).toMatchObject({ behavior: 'allow' })
    expect(asked[0]).toMatchObject({
      toolName: 'Edit',
      toolUseId: 'toolu_a',
      reason: 'Edit wants to change a.txt',
      suggestedRules: ['Edit(./**)'],
      mode: 'default'
    })
    answer = 'deny'
    const denied = await gate.canUseTool(Edit, { file_path: 'a.txt' }, 'toolu_b')
    expect(denied).toMatchObject({ behavior: 'deny', message: expect.stringContaining('The user denied permission to use Edit') })
    expect(asked).toHaveLength(2)
  })

  it('"allow always" adds a session rule that this agent and its subagents then use', async () => {
    let asks = 0
    const gate = createPermissionGate({ mode: 'default', rules: emptyRules(), cwd, ask: async () => (asks++, { decision: 'allow_always' }) })
    await gate.canUseTool(Bash, { command: 'npm run lint -- --fix' }, 't1')
    expect(gate.rules().allow.map((r) => `${r.source}:${r.raw}`)).toEqual(['session:Bash(npm run lint:*)'])
    expect(await gate.canUseTool(Bash, { command: 'npm run lint' }, 't2')).toMatchObject({ behavior: 'allow' })
    const child = gate.forSubagent({ cwd, ask: async () => (asks++, { decision: 'deny' }) })
    expect(await child.canUseTool(Bash, { command: 'npm run lint src' }, 't3')).toMatchObject({ behavior: 'allow' })
    expect(asks).toBe(1)
  })

  it('a failing asker denies rather than running the tool', async () => {
    const gate = createPermissionGate({ mode: 'default', rules: emptyRules(), cwd, ask: () => Promise.reject(new Error('window closed')) })
    expect(await gate.canUseTool(Bash, { command: 'make' }, 't')).toMatchObject({ behavior: 'deny', message: expect.stringContaining('window closed') })
  })

  it('subagents inherit deny rules and get their effective mode', async () => {
    const rules = rulesFrom({ deny: ['Bash(git push:*)'] }, 'project')
    const parent = createPermissionGate({ mode: 'default', rules, cwd, headless: true })
    const child = parent.forSubagent({ cwd, definitionMode: 'bypassPermissions' })
    expect(child.mode).toBe('bypassPermissions')
    expect(await child.canUseTool(Bash, { command: 'npm install' }, 't')).toMatchObject({ behavior: 'allow' })
    expect((await child.canUseTool(Bash, { command: 'git push --force' }, 't')).behavior).toBe('deny')
    const planned = createPermissionGate({ mode: 'plan', rules, cwd, headless: true }).forSubagent({ cwd, definitionMode: 'acceptEdits' })
    expect((await planned.canUseTool(Edit, { file_path: 'a.txt' }, 't')).behavior).toBe('deny')
  })
})

describe('headlessPermissions (what `fanout run` uses) in a real repository', () => {
  it('applies the project settings to real tool calls and reports denials', async () => {
    execFileSync('git', ['init', '-q', cwd])
    writeTree(cwd, {
      'a.txt': 'hello\n',
      'secrets/key.pem': 'PRIVATE',
      '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(git add:*)'], deny: ['Read(./secrets/**)'] } })
    })
    const denials: string[] = []
    const forAgent = await headlessPermissions({ cwd, home, managedFile: null, onDenied: (m) => denials.push(m) })
    const canUseTool = forAgent({ id: 'main', cwd, permissionMode: 'default' })
    const tools = Object.fromEntries(createBuiltinTools({ cwd }).map((t) => [t.name, t]))
    const call = async (name: string, input: Record<string, unknown>) => {
      const d = await canUseTool(tools[name], input, 'toolu')
      return d.behavior === 'allow' ? runTool(tools[name], input, toolContext()) : d
    }
    await call('Bash', { command: 'git add a.txt' })
    expect(execFileSync('git', ['status', '--porcelain'], { cwd, encoding: 'utf8' })).toContain('A  a.txt')
    expect(await call('Bash', { command: 'git commit -m "x"' })).toMatchObject({ behavior: 'deny', message: expect.stringContaining('Bash(git commit:*)') })
    expect(await call('Read', { file_path: 'secrets/key.pem' })).toMatchObject({ behavior: 'deny', message: expect.stringContaining('Read(./secrets/**)') })
    expect(await call('Read', { file_path: 'a.txt' })).toMatchObject({ content: '     1\thello' })
    expect(denials).toHaveLength(2)
    expect(forAgent({ id: 'main', cwd, permissionMode: 'default' })).toBe(canUseTool)
    const acceptEdits = forAgent({ id: 'child', cwd, permissionMode: 'acceptEdits' })
    expect(await acceptEdits(tools.Write, { file_path: 'b.txt', content: 'x' }, 't')).toMatchObject({ behavior: 'allow' })
  })

  it('surfaces broken settings instead of ignoring them', async () => {
    writeTree(cwd, { '.claude/settings.json': '{ "permissions": ' })
    const messages: string[] = []
    await headlessPermissions({ cwd, home, managedFile: null, onDenied: (m) => messages.push(m) })
    expect(messages[0]).toMatch(/^settings: .*settings\.json:1:\d+: This settings file is not valid JSON/)
  })
})

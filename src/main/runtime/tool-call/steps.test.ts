// Each step of the tool-call pipeline, alone, and the verdict it answers (verdict.ts's CallVerdict).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { EventPayload } from '../../../shared/events'
import { registerSecret } from '../../../shared/redact'
import type { HookRunner } from '../hooks/runner'
import { emptyRules, rulesFrom } from '../permissions/rules'
import { defineTool, type Tool } from '../tools/define-tool'
import { listFiles } from '../tools/list-files'
import { useTempDirs } from '../tools/test-kit'
import { createPermissionGate, type PermissionRequest } from './gate'
import { runToolCall, type ToolRunContext } from './pipeline'
import { postToolHooks } from './post-hooks'
import { beforeToolCall, preToolUse } from './pre-hooks'
import { recordResult } from './record'
import { validate } from './validate'
import { personDenied } from './verdict'

let cwd: string
useTempDirs('each', ['fanout-steps-'], (a) => {
  cwd = a
})

const echo = defineTool({
  name: 'Echo',
  description: 'echo',
  schema: z.object({ text: z.string() }),
  readOnly: true,
  async execute(input) {
    return { content: `echo:${input.text}` }
  }
})
const Bash = { name: 'Bash', readOnly: false } as Tool
const agent = { id: 'a1', agentType: 'general-purpose', parentId: null, cwd: '/tmp' } as never

/** A HookRunner that answers PreToolUse / PostToolUse as given (only what the steps call). */
function hooks(answer: { pre?: Record<string, unknown>; post?: { notes: string[]; replaceOutput?: string }; failure?: string[] }): HookRunner {
  return {
    has: (event: string) => (event === 'PreToolUse' ? !!answer.pre : event === 'PostToolUse' ? !!answer.post : !!answer.failure),
    preToolUse: async () => answer.pre ?? {},
    postToolUse: async () => answer.post ?? { notes: [] },
    postToolUseFailure: async () => answer.failure ?? []
  } as unknown as HookRunner
}

describe('1 validate', () => {
  const tools = new Map([['Echo', echo]])
  it.each([
    [{ id: 't', name: 'Nope', input: {} }, /No tool named "Nope" is available to this agent. The tools available to you are: Echo./],
    [{ id: 't', name: 'Echo', input: {}, refused: 'Not now.' }, /^Not now.$/],
    [{ id: 't', name: 'Echo', input: {}, inputError: 'bad json' }, /was not valid JSON \(bad json\)/],
    [{ id: 't', name: 'Echo', input: { text: 3 } }, /Echo/]
  ])('denies %o', (call, message) => {
    const v = validate(call, tools)
    expect(v.behavior).toBe('deny')
    expect(v.behavior === 'deny' && v.message).toMatch(message)
  })
  it('passes a call the tool accepts, with its parsed input', () => {
    expect(validate({ id: 't', name: 'Echo', input: { text: 'hi' } }, tools)).toMatchObject({ behavior: 'pass', tool: echo, input: { text: 'hi' } })
  })
})

describe('2 hooks (PreToolUse)', () => {
  it('answers pass without hooks, and deny, allow, ask or pass (with a changed input) as the hook said', async () => {
    expect(await preToolUse(hooks({}), agent, echo, {}, 't')).toEqual({ behavior: 'pass' })
    expect(await preToolUse(hooks({ pre: { decision: 'deny', reason: 'no' } }), agent, echo, {}, 't')).toEqual({
      behavior: 'deny',
      message: 'A PreToolUse hook blocked this Echo call: no'
    })
    expect(await preToolUse(hooks({ pre: { decision: 'allow', updatedInput: { text: 'x' } } }), agent, echo, {}, 't')).toEqual({
      behavior: 'allow',
      updatedInput: { text: 'x' }
    })
    expect(await preToolUse(hooks({ pre: { decision: 'ask', reason: 'why' } }), agent, echo, {}, 't')).toMatchObject({
      behavior: 'ask',
      reason: 'why',
      byHook: true
    })
    expect(await preToolUse(hooks({ pre: { updatedInput: { text: 'y' } } }), agent, echo, {}, 't')).toEqual({ behavior: 'pass', updatedInput: { text: 'y' } })
  })

  it("a hook's allow still meets the deny rules; its ask goes to the person whatever the rules say", async () => {
    const rules = rulesFrom({ deny: ['Bash(rm:*)'], allow: ['Bash(ls:*)'] }, 'project', cwd)
    const asked: PermissionRequest[] = []
    const gate = createPermissionGate({ mode: 'default', rules, cwd, ask: async (req) => (asked.push(req), { decision: 'deny', feedback: 'not today' }) })
    const allowHook = beforeToolCall(hooks({ pre: { decision: 'allow' } }), agent, { gate })!
    expect(await allowHook(Bash, { command: 'rm -rf x' }, 't1')).toMatchObject({ behavior: 'deny', message: expect.stringContaining('Bash(rm:*)') })
    expect(await allowHook(Bash, { command: 'touch x' }, 't2')).toEqual({ behavior: 'allow' })
    const askHook = beforeToolCall(hooks({ pre: { decision: 'ask', reason: 'hook wants a look' } }), agent, { gate })!
    expect(await askHook(Bash, { command: 'ls' }, 't3')).toEqual({ behavior: 'deny', message: personDenied('Bash', 'not today') })
    expect(asked).toEqual([expect.objectContaining({ reason: 'hook wants a look', suggestedRules: [], byHook: true })])
  })
})

describe('3 rules, 4 mode, 5 ask, 6 sandbox (the gate)', () => {
  it('3: a deny rule denies, naming it; an allow rule allows without asking', async () => {
    const rules = rulesFrom({ deny: ['Bash(curl:*)'], allow: ['Bash(make:*)'] }, 'project', cwd)
    const gate = createPermissionGate({ mode: 'default', rules, cwd, ask: async () => ({ decision: 'allow' }) })
    expect(await gate.canUseTool(Bash, { command: 'curl x' }, 't')).toMatchObject({ behavior: 'deny', message: expect.stringContaining('"Bash(curl:*)"') })
    expect(await gate.canUseTool(Bash, { command: 'make' }, 't')).toEqual({ behavior: 'allow', sandbox: 'workspace' })
  })

  it('4: plan mode denies a change without asking anyone', async () => {
    let asks = 0
    const gate = createPermissionGate({ mode: 'plan', rules: emptyRules(), cwd, ask: async () => (asks++, { decision: 'allow' }) })
    expect(await gate.canUseTool({ name: 'Write', readOnly: false }, { file_path: 'a.txt', content: '' }, 't')).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('plan mode')
    })
    expect(asks).toBe(0)
  })

  it("5: the person's answer and words: allow carries them on, deny is the one sentence with them, allow always adds the rule", async () => {
    const answers = [
      { decision: 'allow' as const, feedback: '  only here  ' },
      { decision: 'deny' as const, feedback: 'use make' },
      { decision: 'allow_always' as const }
    ]
    const gate = createPermissionGate({ mode: 'default', rules: emptyRules(), cwd, ask: async () => answers.shift()! })
    expect(await gate.canUseTool(Bash, { command: 'touch a' }, 't1')).toEqual({ behavior: 'allow', sandbox: 'workspace', feedback: 'only here' })
    expect(await gate.canUseTool(Bash, { command: 'touch b' }, 't2')).toEqual({ behavior: 'deny', message: personDenied('Bash', 'use make') })
    await gate.canUseTool(Bash, { command: 'npm run build' }, 't3')
    expect(gate.rules().allow.map((r) => r.raw)).toEqual(['Bash(npm run build:*)'])
  })

  it('5 headless: nobody to ask, so a denial that says how to allow it', async () => {
    const gate = createPermissionGate({ mode: 'default', rules: emptyRules(), cwd, headless: true })
    expect(await gate.canUseTool(Bash, { command: 'touch a' }, 't')).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('this run is headless')
    })
  })

  it('6: an approved Bash call runs in the sandbox the agent may have: read-only for a read-only agent, off only when asked to leave it', async () => {
    const ask = async () => ({ decision: 'allow' as const })
    const readOnly = createPermissionGate({ mode: 'default', rules: emptyRules(), cwd, ask, readOnlyAgent: true })
    expect(await readOnly.canUseTool(Bash, { command: 'touch a' }, 't')).toEqual({ behavior: 'allow', sandbox: 'read-only' })
    const plain = createPermissionGate({ mode: 'default', rules: emptyRules(), cwd, ask })
    expect(await plain.canUseTool(Bash, { command: 'touch a', dangerouslyDisableSandbox: true }, 't')).toEqual({ behavior: 'allow', sandbox: 'off' })
  })
})

describe('8 post-hooks, 9 record', () => {
  const call = { rawInput: {}, toolUseId: 't', signal: new AbortController().signal, durationMs: 1 }
  it('PostToolUse appends its notes or replaces the output; PostToolUseFailure appends to a failure', async () => {
    expect(await postToolHooks(hooks({ post: { notes: ['note'] } }), agent)(echo, call, { content: 'out' })).toEqual({ content: 'out\n\nnote' })
    expect(await postToolHooks(hooks({ post: { notes: [], replaceOutput: 'new' } }), agent)(echo, call, { content: 'out' })).toEqual({ content: 'new' })
    expect(await postToolHooks(hooks({ failure: ['why'] }), agent)(echo, call, { content: 'boom', isError: true })).toEqual({
      content: 'boom\n\nwhy',
      isError: true
    })
  })

  it('records one tool_end with the output redacted, and says so when there was none', async () => {
    registerSecret('Kq9zR2vX8mB4nL7pT3')
    const events: EventPayload[] = []
    const emit = (e: EventPayload) => events.push(e)
    const out = await recordResult({ id: 't', name: 'Echo' }, { content: 'key Kq9zR2vX8mB4nL7pT3' }, { cap: 1000, startedAt: 0, emit })
    expect(out.content).toBe('key [REDACTED]')
    expect((await recordResult({ id: 'u', name: 'Echo' }, { content: '' }, { cap: 1000, startedAt: 0, emit })).content).toBe('(Echo completed with no output)')
    expect(events.map((e) => e.type)).toEqual(['tool_end', 'tool_end'])
  })
})

describe('the pipeline', () => {
  const ctx = (over: Partial<ToolRunContext>): ToolRunContext => ({
    tools: new Map([['Echo', echo]]),
    agentId: 'a1',
    signal: new AbortController().signal,
    emit: () => {},
    maxConcurrency: 1,
    ...over
  })
  const call = { id: 't', name: 'Echo', input: { text: 'hi' } }

  it("runs an allowed call and adds the person's words after its result", async () => {
    const out = await runToolCall(call, ctx({ beforeToolCall: async () => ({ behavior: 'allow', feedback: 'go ahead' }) }), new Promise(() => {}), [call])
    expect(out).toMatchObject({ content: 'echo:hi\n\nThe user allowed this call and said: go ahead', isError: false })
  })

  it('validates a changed input like the model’s, and a denial is the result without running the tool', async () => {
    const changed = await runToolCall(call, ctx({ beforeToolCall: async () => ({ behavior: 'allow', updatedInput: { text: 7 } }) }), new Promise(() => {}), [
      call
    ])
    expect(changed.isError).toBe(true)
    const denied = await runToolCall(call, ctx({ beforeToolCall: async () => ({ behavior: 'deny', message: 'No.' }) }), new Promise(() => {}), [call])
    expect(denied).toMatchObject({ content: 'No.', isError: true })
  })

  it("records the tool's own run apart from the steps before it (a slow hook, the sandbox starting, the person)", async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
    const slow = defineTool({
      name: 'Slow',
      description: 'slow',
      schema: z.object({}),
      readOnly: true,
      async execute() {
        await sleep(100)
        return { content: 'done' }
      }
    })
    const events: EventPayload[] = []
    const tools = new Map([['Slow', slow]])
    const before = async () => (await sleep(400), { behavior: 'allow' as const })
    await runToolCall({ id: 's', name: 'Slow', input: {} }, ctx({ tools, emit: (e) => events.push(e), beforeToolCall: before }), new Promise(() => {}), [])
    const end = events.find((e) => e.type === 'tool_end')
    if (end?.type !== 'tool_end') throw new Error('no tool_end')
    expect(end.durationMs).toBeGreaterThanOrEqual(490)
    expect(end.runMs).toBeGreaterThanOrEqual(95)
    expect(end.runMs).toBeLessThan(end.durationMs - 300)
    // A call never let run has no run time.
    events.length = 0
    const deny = async () => ({ behavior: 'deny' as const, message: 'No.' })
    await runToolCall({ id: 'd', name: 'Slow', input: {} }, ctx({ tools, emit: (e) => events.push(e), beforeToolCall: deny }), new Promise(() => {}), [])
    expect(events.find((e) => e.type === 'tool_end')).not.toHaveProperty('runMs')
  })
})

describe('searches beside a call', () => {
  const ctxWith = (tool: Tool): ToolRunContext => ({
    tools: new Map([[tool.name, tool]]),
    agentId: 'a1',
    signal: new AbortController().signal,
    emit: () => {},
    maxConcurrency: 1
  })
  const held = (name: string, changesFiles?: boolean) => {
    let release = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const tool = defineTool({
      name,
      description: name,
      schema: z.object({}),
      readOnly: false,
      ...(changesFiles !== undefined ? { changesFiles } : {}),
      async execute() {
        await gate
        return { content: 'done' }
      }
    })
    return { tool, release }
  }

  it('a call that changes no file itself (a spawn) leaves sibling searches the listing under way; one that may change files does not', async () => {
    for (let i = 0; i < 5; i++) writeFileSync(join(cwd, `f${i}.ts`), '')
    // A fan-out: a sibling's search lists the folder while the next Agent call starts.
    const spawn = held('Spawn', false)
    const listing = listFiles(cwd, null)
    const spawned = runToolCall({ id: 's', name: 'Spawn', input: {} }, ctxWith(spawn.tool), new Promise(() => {}), [])
    const sibling = listFiles(cwd, null)
    expect((await sibling).files).toBe((await listing).files)
    spawn.release()
    expect(await spawned).toMatchObject({ content: 'done', isError: false })

    // A tool that may write: searches from here list afresh.
    const write = held('Write')
    const before = listFiles(cwd, null)
    const wrote = runToolCall({ id: 'w', name: 'Write', input: {} }, ctxWith(write.tool), new Promise(() => {}), [])
    const after = listFiles(cwd, null)
    expect((await after).files).not.toBe((await before).files)
    write.release()
    await wrote
  })
})

// Differential: what hooks answer, acceptEdits' Bash and the run flags (--fallback-model, multi-turn
// --input-format stream-json), run through `claude` and `fanout` against the same scripted model. Per case it
// compares what a user, a script or the model notices: the exit status, each result's subtype, terminal
// reason and text, which hooks fired, which of the case's markers reached the model, whether the Bash call
// ran and the file it makes exists. The tally is printed; every aspect that differs must be one
// docs/claude-code-differences.md lists (KNOWN below), and ≥ 95% must be the same.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reply, type ParsedRequest } from '../../src/main/runtime/model/scripted'
import { claudeCode, jsonLines } from './claude-code'
import { cleanupRuns, conversation, runSide, twoAtATime, type Scenario, type SideResult } from './harness'

const cc = claudeCode()
const json = (v: unknown) => JSON.stringify(v)

function respond(req: ParsedRequest) {
  const text = conversation(req)
  const cmd = text.match(/CMD64:([A-Za-z0-9+/=]+)/)
  if (cmd && req.turn === 0) return reply.toolUse('Bash', { command: Buffer.from(cmd[1], 'base64').toString(), description: 'run it' })
  if (text.includes('BASH TASK') && req.turn === 0) return reply.toolUse('Bash', { command: 'echo hi', description: 'say hi' })
  if (text.includes('FALLBACK TASK') && String(req.body.model).includes('opus')) return reply.overloaded({ retryAfterSeconds: 0 })
  if (text.includes('FALLBACK TASK')) return reply.text(`answered by ${req.body.model}`)
  for (const n of ['THREE', 'TWO', 'ONE']) if (text.includes(`TURN ${n}`)) return reply.text(`answer ${n.toLowerCase()}`)
  return reply.text('ok')
}

type Hook = NonNullable<Scenario['hooks']>[number]
const out = (o: unknown) => json(o)
const ctx = (event: string, text: string) => out({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })
const decision = (d: string, reason: string) =>
  out({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d, permissionDecisionReason: reason } })

interface Case {
  scenario: Scenario
  /** Texts whose arrival at the model is compared. */
  markers?: string[]
  /** A file (relative to the project) whose existence after the run is compared. */
  makes?: string
}

const STREAM = ['--output-format', 'stream-json', '--verbose']
const hooksCase = (hooks: Hook[], more: Partial<Scenario> & { markers?: string[] } = {}): Case => {
  const { markers, ...rest } = more
  return { scenario: { respond, prompt: 'BASH TASK', args: ['--output-format', 'json'], hooks, ...rest }, ...(markers ? { markers } : {}) }
}
const bash = (command: string, makes?: string, mode = 'acceptEdits'): Case => ({
  scenario: {
    respond,
    prompt: `CMD64:${Buffer.from(command).toString('base64')}`,
    args: ['--output-format', 'json', '--permission-mode', mode],
    files: { 'README.md': 'hello\n' }
  },
  ...(makes ? { makes } : {})
})
const permission = (behavior: string, message?: string) =>
  out({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior, ...(message ? { message } : {}) } } })
/** `touch made.txt` in default mode: it needs approval, so PermissionRequest hooks are asked. */
const permissionCase = (hooks: Hook[], markers?: string[]): Case => {
  const c = bash('touch made.txt', 'made.txt', 'default')
  return { ...c, scenario: { ...c.scenario, hooks }, ...(markers ? { markers } : {}) }
}
const userLine = (text: string) => `${json({ type: 'user', message: { role: 'user', content: text } })}\n`

const CASES: Record<string, Case> = {
  // SessionStart
  'SessionStart additionalContext reaches the model': hooksCase([{ event: 'SessionStart', stdout: ctx('SessionStart', 'MK-SS-CTX') }], {
    prompt: 'PLAIN',
    markers: ['MK-SS-CTX']
  }),
  'SessionStart plain stdout reaches the model': hooksCase([{ event: 'SessionStart', matcher: 'startup', stdout: 'MK-SS-PLAIN' }], {
    prompt: 'PLAIN',
    markers: ['MK-SS-PLAIN']
  }),
  'SessionStart matchers: startup fires, resume and clear do not': hooksCase(
    [
      { event: 'SessionStart', matcher: 'startup', label: 'ss-startup' },
      { event: 'SessionStart', matcher: 'resume', label: 'ss-resume' },
      { event: 'SessionStart', matcher: 'clear|compact', label: 'ss-clear' }
    ],
    { prompt: 'PLAIN' }
  ),
  // UserPromptSubmit
  'UserPromptSubmit plain stdout is context': hooksCase([{ event: 'UserPromptSubmit', stdout: 'MK-UPS-PLAIN' }], {
    prompt: 'PLAIN',
    markers: ['MK-UPS-PLAIN']
  }),
  'UserPromptSubmit additionalContext': hooksCase([{ event: 'UserPromptSubmit', stdout: ctx('UserPromptSubmit', 'MK-UPS-JSON') }], {
    prompt: 'PLAIN',
    markers: ['MK-UPS-JSON']
  }),
  'UserPromptSubmit exit 2 blocks the prompt': hooksCase([{ event: 'UserPromptSubmit', stderr: 'MK-UPS-NO', code: 2 }], {
    prompt: 'PLAIN MK-PROMPT',
    markers: ['MK-PROMPT']
  }),
  'UserPromptSubmit decision block': hooksCase([{ event: 'UserPromptSubmit', stdout: out({ decision: 'block', reason: 'MK-UPS-R' }) }], {
    prompt: 'PLAIN MK-PROMPT',
    markers: ['MK-PROMPT']
  }),
  'UserPromptSubmit continue false': hooksCase([{ event: 'UserPromptSubmit', stdout: out({ continue: false, stopReason: 'MK-UPS-STOP' }) }], {
    prompt: 'PLAIN'
  }),
  'UserPromptSubmit exit 1 is not a block': hooksCase([{ event: 'UserPromptSubmit', stderr: 'oops', code: 1 }], { prompt: 'PLAIN' }),
  // continue: false and the common fields
  'PreToolUse continue false stops after the tool': hooksCase([
    { event: 'PreToolUse', matcher: 'Bash', stdout: out({ continue: false, stopReason: 'MK-STOP' }) },
    { event: 'Stop' },
    { event: 'SessionEnd' }
  ]),
  'PostToolUse continue false with systemMessage': hooksCase([
    { event: 'PostToolUse', matcher: 'Bash', stdout: out({ continue: false, stopReason: 'MK-STOP', systemMessage: 'MK-SYS' }) }
  ]),
  'PreToolUse continue false, text output': hooksCase([{ event: 'PreToolUse', matcher: 'Bash', stdout: out({ continue: false, stopReason: 'MK-STOP' }) }], {
    args: []
  }),
  'Stop continue false': hooksCase([{ event: 'Stop', stdout: out({ continue: false, stopReason: 'MK-STOP' }) }, { event: 'SessionEnd' }], { prompt: 'PLAIN' }),
  'Stop decision block until the turn limit': hooksCase([{ event: 'Stop', stdout: out({ decision: 'block', reason: 'MK-STOP-BLOCK' }) }], {
    prompt: 'PLAIN',
    args: ['--output-format', 'json', '--max-turns', '3'],
    markers: ['MK-STOP-BLOCK']
  }),
  'Stop exit 2 feeds stderr back': hooksCase([{ event: 'Stop', stderr: 'MK-STOP-2', code: 2 }], {
    prompt: 'PLAIN',
    args: ['--output-format', 'json', '--max-turns', '2'],
    markers: ['MK-STOP-2']
  }),
  // PostToolUse
  'PostToolUse additionalContext and suppressOutput': hooksCase(
    [
      {
        event: 'PostToolUse',
        matcher: 'Bash',
        stdout: out({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'MK-POST-CTX' }, suppressOutput: true })
      }
    ],
    { markers: ['MK-POST-CTX'] }
  ),
  'PostToolUse decision block reason reaches the model': hooksCase(
    [{ event: 'PostToolUse', matcher: 'Bash', stdout: out({ decision: 'block', reason: 'MK-POST-B' }) }],
    {
      markers: ['MK-POST-B']
    }
  ),
  'PostToolUse exit 2 stderr reaches the model': hooksCase([{ event: 'PostToolUse', matcher: 'Bash', stderr: 'MK-POST-2', code: 2 }], {
    markers: ['MK-POST-2']
  }),
  // PreToolUse decisions
  'PreToolUse deny with reason': hooksCase([{ event: 'PreToolUse', matcher: 'Bash', stdout: decision('deny', 'MK-DENY') }], { markers: ['MK-DENY'] }),
  'PreToolUse ask, headless': hooksCase([{ event: 'PreToolUse', matcher: 'Bash', stdout: decision('ask', 'MK-ASK') }], { markers: ['MK-ASK'] }),
  'PreToolUse allow with updatedInput': hooksCase(
    [
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        stdout: out({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo MK-UPDATED' } } })
      }
    ],
    { markers: ['MK-UPDATED'] }
  ),
  'PreToolUse exit 2': hooksCase([{ event: 'PreToolUse', matcher: 'Bash', stderr: 'MK-PRE-2', code: 2 }], { markers: ['MK-PRE-2'] }),
  'PreToolUse exit 1 does not block': hooksCase([{ event: 'PreToolUse', matcher: 'Bash', stderr: 'MK-PRE-1', code: 1 }], { markers: ['MK-PRE-1'] }),
  'PreToolUse legacy decision block': hooksCase([{ event: 'PreToolUse', matcher: 'Bash', stdout: out({ decision: 'block', reason: 'MK-LEGACY' }) }], {
    markers: ['MK-LEGACY']
  }),
  'matchers: regex, alternatives, case, star': hooksCase([
    { event: 'PreToolUse', matcher: 'Ba.*', label: 'regex' },
    { event: 'PreToolUse', matcher: 'Read|Bash', label: 'alternatives' },
    { event: 'PreToolUse', matcher: 'bash', label: 'lower case' },
    { event: 'PreToolUse', matcher: '*', label: 'star' },
    { event: 'PreToolUse', matcher: 'Edit', label: 'other tool' },
    { event: 'PostToolUse', label: 'no matcher' }
  ]),
  'SessionEnd fires as the run ends': hooksCase([{ event: 'SessionEnd', matcher: 'other' }, { event: 'UserPromptSubmit' }], { prompt: 'PLAIN' }),
  // PermissionRequest: where a call needs approval (after PreToolUse), in -p too
  'PermissionRequest allow runs the call': permissionCase([
    { event: 'PermissionRequest', matcher: 'Bash', stdout: permission('allow') },
    { event: 'PreToolUse' }
  ]),
  'PermissionRequest deny with a message': permissionCase(
    [{ event: 'PermissionRequest', matcher: 'Bash', stdout: permission('deny', 'MK-PR-DENY') }],
    ['MK-PR-DENY']
  ),
  'PermissionRequest exit 2 denies': permissionCase([{ event: 'PermissionRequest', stderr: 'MK-PR-2', code: 2 }]),
  'PermissionRequest saying nothing: denied headless': permissionCase([{ event: 'PermissionRequest', matcher: 'Bash' }]),
  'PermissionRequest matcher for another tool': permissionCase([{ event: 'PermissionRequest', matcher: 'Edit' }]),
  'PermissionRequest not fired for an allowed call': {
    ...permissionCase([{ event: 'PermissionRequest' }]),
    scenario: { ...permissionCase([{ event: 'PermissionRequest' }]).scenario, args: ['--output-format', 'json', '--permission-mode', 'acceptEdits'] }
  },
  // stream-json of a refused prompt: the system/informational line before the result
  'UserPromptSubmit exit 2 (stream-json)': hooksCase([{ event: 'UserPromptSubmit', stderr: 'MK-UPS-NO', code: 2 }], { prompt: 'PLAIN', args: STREAM }),
  'UserPromptSubmit continue false (stream-json)': hooksCase([{ event: 'UserPromptSubmit', stdout: out({ continue: false, stopReason: 'MK-UPS-STOP' }) }], {
    prompt: 'PLAIN',
    args: STREAM
  }),
  // --settings
  'hooks in --settings JSON': {
    scenario: {
      respond,
      prompt: 'BASH TASK',
      args: [
        '--output-format',
        'json',
        '--settings',
        json({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${decision('deny', 'MK-FLAG-DENY')}'` }] }] } })
      ]
    },
    markers: ['MK-FLAG-DENY']
  },
  'hooks in a --settings file': {
    scenario: {
      respond,
      prompt: 'PLAIN',
      args: ['--output-format', 'json', '--settings', 'kit-settings.json'],
      files: { 'kit-settings.json': json({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo MK-FLAG-FILE' }] }] } }) }
    },
    markers: ['MK-FLAG-FILE']
  },
  // acceptEdits: file-writing Bash
  'acceptEdits: touch': bash('touch made.txt', 'made.txt'),
  'acceptEdits: mkdir -p': bash('mkdir -p d/e', 'd/e'),
  'acceptEdits: echo > file': bash('echo x > f.txt', 'f.txt'),
  'acceptEdits: echo >> file': bash('echo y >> f2.txt', 'f2.txt'),
  'acceptEdits: cp': bash('cp README.md r2.md', 'r2.md'),
  'acceptEdits: mv': bash('touch a.txt && mv a.txt b.txt', 'b.txt'),
  'acceptEdits: rm': bash('touch z.txt && rm z.txt'),
  'acceptEdits: mkdir then rmdir': bash('mkdir q && rmdir q'),
  'acceptEdits: touch outside asks': bash('touch ../outside.txt', '../outside.txt'),
  'acceptEdits: touch in .git asks': bash('touch .git/hooks/kit-pre-commit', '.git/hooks/kit-pre-commit'),
  'acceptEdits: .claude/settings.json asks': bash('echo {} > .claude/settings.json', '.claude/settings.json'),
  'acceptEdits: chmod asks': bash('touch c.sh && chmod +x c.sh', 'c.sh'),
  'acceptEdits: tee asks': bash('echo z | tee t.txt', 't.txt'),
  'default mode: touch asks': bash('touch made.txt', 'made.txt', 'default'),
  // Flags
  '--fallback-model (stream-json)': { scenario: { respond, prompt: 'FALLBACK TASK', args: [...STREAM, '--fallback-model', 'sonnet'] } },
  '--fallback-model (json)': { scenario: { respond, prompt: 'FALLBACK TASK', args: ['--output-format', 'json', '--fallback-model', 'sonnet'] } },
  'multi-turn --input-format stream-json': {
    scenario: {
      respond,
      prompt: '',
      argv: ['-p', '--input-format', 'stream-json', ...STREAM],
      input: userLine('TURN ONE') + userLine('TURN TWO') + userLine('TURN THREE')
    },
    markers: ['answer one', 'answer two']
  }
}

/**
 * Aspects that differ for a reason docs/claude-code-differences.md gives ("case: aspect"). A difference not
 * listed fails the test; a listed one that has gone is reported so the list can shrink.
 */
const TURN_LIMIT = "Fanout's result at the turn limit keeps the last answer and says the limit was reached; Claude Code's is empty"
const KNOWN: Record<string, string> = {
  'Stop decision block until the turn limit: results': TURN_LIMIT,
  'Stop exit 2 feeds stderr back: results': TURN_LIMIT
}

interface Seen {
  code: number | null
  results: string[]
  hooks: string[]
  reached: string[]
  requests: number
  toolRan?: boolean
  made?: boolean
}

/** Per-run paths (the kit's folders) as one word, so texts that name a hook's command compare. */
const unroot = (text: string, r: SideResult) => text.split(dirname(r.project)).join('ROOT')

function seen(c: Case, r: SideResult): Seen {
  const lines = r.stdout.trim().startsWith('{') ? jsonLines(r.stdout, `${r.side} stdout`) : []
  const results = lines.length
    ? lines.flatMap((l) =>
        l.type === 'result'
          ? [`${l.subtype}/${l.terminal_reason ?? '-'}: ${unroot(String(l.result ?? ''), r)}`]
          : l.type === 'system' && l.subtype === 'informational'
            ? [`informational ${json(l.prompt_submit_outcome)}: ${unroot(String(l.content), r)}`]
            : []
      )
    : [unroot(r.stdout.trim(), r)]
  const everything = r.requests.map((q) => `${q.system}\n${conversation(q)}`).join('\n')
  const toolResult = r.requests
    .flatMap((q) => q.messages as Array<{ content: unknown }>)
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as any[]) : []))
    .find((b) => b?.type === 'tool_result')
  return {
    code: r.code,
    results,
    hooks: r.hooks.map((h) => h.label).sort(),
    reached: (c.markers ?? []).filter((m) => everything.includes(m)),
    requests: r.requests.length,
    ...(toolResult ? { toolRan: toolResult.is_error !== true } : {}),
    ...(c.makes ? { made: existsSync(join(r.project, c.makes)) } : {})
  }
}

const results: Record<string, [Seen, Seen]> = {}

describe.skipIf(!cc.path)(`hooks, acceptEdits and run flags under Claude Code and Fanout${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  beforeAll(async () => {
    await twoAtATime(Object.keys(CASES), async (name) => {
      const c = CASES[name]
      const claude = await runSide('claude-code', c.scenario)
      const fanout = await runSide('fanout', c.scenario)
      results[name] = [seen(c, claude), seen(c, fanout)]
    })
  }, 1_200_000)
  afterAll(cleanupRuns)

  it(`has at least 30 cases (${Object.keys(CASES).length})`, () => {
    expect(Object.keys(CASES).length).toBeGreaterThanOrEqual(30)
  })

  it('behaves the same in ≥ 95% of the aspects compared, and every difference is a documented one', () => {
    let same = 0
    let total = 0
    let sameCases = 0
    const unexplained: string[] = []
    const explained: string[] = []
    for (const [name, [a, b]] of Object.entries(results)) {
      let caseSame = true
      for (const aspect of new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof Seen>) {
        total++
        if (json(a[aspect]) === json(b[aspect])) {
          same++
          continue
        }
        caseSame = false
        const key = `${name}: ${aspect}`
        const line = `${key}: claude ${json(a[aspect])} vs fanout ${json(b[aspect])}`
        if (KNOWN[key]) explained.push(`${line} (${KNOWN[key]})`)
        else unexplained.push(line)
      }
      if (caseSame) sameCases++
    }
    const stale = Object.keys(KNOWN).filter((k) => !explained.some((l) => l.startsWith(`${k}:`)))
    const rate = same / total
    console.log(
      `hooks, acceptEdits and run flags: ${sameCases}/${Object.keys(results).length} cases the same, ${same}/${total} aspects (${(rate * 100).toFixed(1)}%)\n` +
        [
          ...explained.map((l) => `  documented: ${l}`),
          ...unexplained.map((l) => `  UNEXPLAINED: ${l}`),
          ...stale.map((k) => `  no longer differs: ${k}`)
        ].join('\n')
    )
    expect(unexplained).toEqual([])
    expect(rate).toBeGreaterThanOrEqual(0.95)
  })
})

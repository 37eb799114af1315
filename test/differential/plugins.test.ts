// Differential: Claude Code plugins and MCP servers' resources and transports, each scenario run through Claude
// Code and through Fanout on the same scripted model. A plugin comes from `--plugin-dir`, from `enabledPlugins`
// with an installed plugin (`~/.claude/plugins/installed_plugins.json`), or from a marketplace folder; what is
// compared is what the model sees (the agent and skill listings, tool results) and what ran (a plugin hook's
// `${CLAUDE_PLUGIN_ROOT}` and environment). Each remaining difference is in docs/claude-code-differences.md.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reply, type ParsedRequest } from '../../src/main/runtime/model/scripted'
import { startHttpTestServer, stdioServerEntry, stopHttpTestServers, type HttpTestServer } from '../../src/main/runtime/mcp/testing/servers'
import { claudeCode } from './claude-code'
import { cleanupRuns, conversation, requestText, runSide, type Scenario, type SideResult } from './harness'

const cc = claudeCode()
const skipped = cc.skip ? ` (skipped: ${cc.skip})` : ''

const HOOK_SCRIPT = `import { appendFileSync } from 'node:fs'
let text = ''
process.stdin.on('data', (c) => (text += c))
process.stdin.on('end', () => {
  const input = JSON.parse(text)
  appendFileSync(process.env.CLAUDE_PROJECT_DIR + '/plugin-hook.jsonl', JSON.stringify({ arg: process.argv[2], env: process.env.CLAUDE_PLUGIN_ROOT ?? null, data: process.env.CLAUDE_PLUGIN_DATA ?? null, tool: input.tool_name, event: input.hook_event_name }) + '\\n')
})
`

/** A plugin's files under `at`: an agent, a skill, a command, a PreToolUse hook on Bash and a stdio MCP server with resources. */
function pluginFiles(at: string, name: string, manifest: Record<string, unknown> | null = { name, version: '1.0.0', description: `The ${name} plugin` }) {
  return {
    ...(manifest ? { [`${at}/.claude-plugin/plugin.json`]: JSON.stringify(manifest, null, 2) } : {}),
    [`${at}/agents/helper.md`]: `---\nname: helper\ndescription: The ${name} helper agent\n---\nYou help with ${name}.\n`,
    [`${at}/skills/tidy/SKILL.md`]: `---\nname: tidy\ndescription: Tidy things up (${name})\n---\nTIDY-BODY of ${name}: put each thing in its place.\n`,
    [`${at}/hooks/hooks.json`]: JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/hook.mjs" "${CLAUDE_PLUGIN_ROOT}"' }] }] }
    }),
    [`${at}/hook.mjs`]: HOOK_SCRIPT,
    [`${at}/.mcp.json`]: JSON.stringify({ mcpServers: { docs: stdioServerEntry(['--label', `${name}-docs`, '--resources']) } })
  }
}

/** The scripted model: on the marker, one tool call a turn from `calls`, then the text "done". */
function calls(list: Array<[string, Record<string, unknown>]>) {
  return (req: ParsedRequest) => {
    if (!conversation(req).includes('PLUGIN TASK')) return reply.text('ok')
    const call = list[req.turn]
    return call ? reply.toolUse(call[0], call[1]) : reply.text('done')
  }
}

/** The request that carries the task's first turn. */
const firstTaskRequest = (r: SideResult) => r.requests.find((q) => conversation(q).includes('PLUGIN TASK'))!

/** Tool results of the task, in order, as the model read them. */
const results = (r: SideResult): string[] =>
  r.requests.filter((q) => conversation(q).includes('PLUGIN TASK') && q.toolResults.length).map((q) => q.toolResults.map((t) => t.content).join('\n'))

const hookLog = (r: SideResult): any[] => {
  try {
    return readFileSync(join(r.project, 'plugin-hook.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
  } catch {
    return []
  }
}

function both(scenario: Scenario): { claude: () => SideResult; fanout: () => SideResult } {
  let claude: SideResult
  let fanout: SideResult
  beforeAll(async () => {
    ;[claude, fanout] = await Promise.all([runSide('claude-code', scenario), runSide('fanout', scenario)])
    expect(claude.code, claude.stderr).toBe(0)
    expect(fanout.code, fanout.stderr).toBe(0)
  }, 240_000)
  afterAll(cleanupRuns)
  return { claude: () => claude, fanout: () => fanout }
}

const ALLOWED = ['--allowedTools', 'Bash', 'Skill', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'mcp__plugin_kit_docs__echo']

describe.skipIf(!cc.path)(`a plugin from --plugin-dir${skipped}`, () => {
  const sides = both({
    files: pluginFiles('plug', 'kit'),
    respond: calls([
      ['Bash', { command: 'echo from-bash' }],
      ['mcp__plugin_kit_docs__echo', { text: 'hi' }],
      ['ListMcpResourcesTool', {}],
      ['ReadMcpResourceTool', { server: 'plugin:kit:docs', uri: 'memo://readme' }],
      ['ListMcpResourcesTool', { server: 'nope' }],
      ['Skill', { skill: 'kit:tidy' }]
    ]),
    prompt: 'PLUGIN TASK',
    args: ['--output-format', 'json', '--plugin-dir', 'plug', ...ALLOWED]
  })

  it('lists the plugin agent as plugin:name with its description', () => {
    // The listing's lines are read from the text: the kit's block parser takes `name: ` to end at the first colon.
    const line = (r: SideResult) => /^- kit:helper: .*$/m.exec(requestText(firstTaskRequest(r)))?.[0]
    expect(line(sides.fanout())).toBe(line(sides.claude()))
    expect(line(sides.claude())).toBe('- kit:helper: The kit helper agent (Tools: All tools)')
  })

  it('lists the plugin skill as plugin:name', () => {
    for (const r of [sides.claude(), sides.fanout()]) expect(requestText(firstTaskRequest(r))).toContain('- kit:tidy: Tidy things up (kit)')
  })

  it("runs the plugin's hook with ${CLAUDE_PLUGIN_ROOT} expanded and in its environment", () => {
    const norm = (r: SideResult) => hookLog(r).map((h) => ({ ...h, arg: h.arg.replace(r.project, '<project>'), env: h.env?.replace(r.project, '<project>') }))
    expect(norm(sides.claude())).toEqual([
      { arg: '<project>/plug', env: '<project>/plug', data: expect.stringMatching(/kit-inline$/), tool: 'Bash', event: 'PreToolUse' }
    ])
    expect(norm(sides.fanout())).toEqual(norm(sides.claude()).map((h) => ({ ...h, data: expect.stringMatching(/kit-inline$/) })))
  })

  it("serves the plugin's MCP server as plugin:kit:docs (tools mcp__plugin_kit_docs__*)", () => {
    expect(results(sides.fanout())[1]).toBe(results(sides.claude())[1])
    expect(results(sides.claude())[1]).toBe('kit-docs echo: hi')
  })

  it('ListMcpResourcesTool answers the same resource list, each with its server', () => {
    expect(JSON.parse(results(sides.fanout())[2])).toEqual(JSON.parse(results(sides.claude())[2]))
  })

  it('ReadMcpResourceTool answers the same contents', () => {
    expect(JSON.parse(results(sides.fanout())[3])).toEqual(JSON.parse(results(sides.claude())[3]))
  })

  it('an unknown server is named with the servers there are', () => {
    expect(results(sides.fanout())[4]).toContain('Server "nope" not found. Available servers: plugin:kit:docs')
    expect(results(sides.claude())[4]).toContain('Server "nope" not found. Available servers: plugin:kit:docs')
  })

  it('the Skill tool loads the plugin skill', () => {
    const text = (r: SideResult) => JSON.stringify(r.requests.at(-1)!.messages)
    for (const r of [sides.claude(), sides.fanout()]) expect(text(r)).toContain('TIDY-BODY of kit')
  })
})

/** The plugin folder both sides share, outside either run's HOME (installed_plugins.json names it by its absolute path). */
const shared = mkdtempSync(join(tmpdir(), 'fanout-diff-plugin-'))
{
  for (const [rel, text] of Object.entries(pluginFiles('market/plugins/lint', 'lint'))) {
    mkdirSync(dirname(join(shared, rel)), { recursive: true })
    writeFileSync(join(shared, rel), text)
  }
  mkdirSync(join(shared, 'market/.claude-plugin'), { recursive: true })
  writeFileSync(
    join(shared, 'market/.claude-plugin/marketplace.json'),
    JSON.stringify({ name: 'acme', owner: { name: 'kit' }, plugins: [{ name: 'lint', source: './plugins/lint', description: 'Lints' }] })
  )
}
afterAll(() => rmSync(shared, { recursive: true, force: true }))

const MARKET = { acme: { source: { source: 'directory', path: join(shared, 'market') } } }

/** The person's settings enable lint@acme (or switch it off); the marketplace is one they know (known_marketplaces.json). */
const userHome = (enabled: boolean): Record<string, string> => ({
  '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'lint@acme': enabled } }),
  '.claude/plugins/known_marketplaces.json': JSON.stringify({
    acme: { ...MARKET.acme, installLocation: join(shared, 'market'), lastUpdated: '2026-01-01T00:00:00.000Z' }
  })
})

const LINT_ROOT = join(shared, 'market/plugins/lint')
const LINT_ALLOWED = ['--allowedTools', 'Bash', 'mcp__plugin_lint_docs__echo']
const lintCalls = calls([
  ['Bash', { command: 'echo from-bash' }],
  ['mcp__plugin_lint_docs__echo', { text: 'from the marketplace' }]
])

for (const [title, scenario] of [
  ["enabled in the user's settings from a marketplace folder they know", { homeFiles: userHome(true) }],
  [
    "enabled in the project's settings from a marketplace folder the project declares",
    { settings: { enabledPlugins: { 'lint@acme': true }, extraKnownMarketplaces: MARKET } }
  ]
] as const) {
  describe.skipIf(!cc.path)(`a plugin ${title}${skipped}`, () => {
    const sides = both({ ...scenario, respond: lintCalls, prompt: 'PLUGIN TASK', args: ['--output-format', 'json', ...LINT_ALLOWED] })

    it('lists its agent', () => {
      for (const r of [sides.claude(), sides.fanout()])
        expect(requestText(firstTaskRequest(r))).toContain('- lint:helper: The lint helper agent (Tools: All tools)')
    })

    it("runs its hook from the plugin's folder in the marketplace", () => {
      for (const r of [sides.claude(), sides.fanout()]) expect(hookLog(r).map((h) => [h.arg, h.env, h.tool])).toEqual([[LINT_ROOT, LINT_ROOT, 'Bash']])
    })

    it('serves its MCP server', () => {
      expect(results(sides.fanout())[1]).toBe(results(sides.claude())[1])
      expect(results(sides.claude())[1]).toBe('lint-docs echo: from the marketplace')
    })
  })
}

describe.skipIf(!cc.path)(`a plugin switched off in the user's settings${skipped}`, () => {
  const sides = both({ homeFiles: userHome(false), respond: calls([]), prompt: 'PLUGIN TASK', args: ['--output-format', 'json'] })

  it('brings nothing: no agent, no skill, no server tools', () => {
    for (const r of [sides.claude(), sides.fanout()]) {
      const text = requestText(firstTaskRequest(r))
      expect(text).not.toContain('lint:helper')
      expect(text).not.toContain('lint:tidy')
      expect(firstTaskRequest(r).toolNames.some((n) => n.startsWith('mcp__plugin_lint'))).toBe(false)
    }
  })
})

describe.skipIf(!cc.path)(`a folder of plugins given to --plugin-dir, one without a manifest${skipped}`, () => {
  const sides = both({
    files: { ...pluginFiles('plugins/alpha', 'alpha'), ...pluginFiles('plugins/beta', 'beta'), ...pluginFiles('bare', 'bare', null) },
    respond: calls([]),
    prompt: 'PLUGIN TASK',
    args: ['--output-format', 'json', '--plugin-dir', 'plugins', '--plugin-dir', 'bare']
  })

  it("loads each child plugin's agent", () => {
    for (const r of [sides.claude(), sides.fanout()]) {
      const text = requestText(firstTaskRequest(r))
      expect(text).toContain('- alpha:helper: The alpha helper agent')
      expect(text).toContain('- beta:helper: The beta helper agent')
    }
  })

  it('names a plugin without a manifest after its folder', () => {
    for (const r of [sides.claude(), sides.fanout()]) expect(requestText(firstTaskRequest(r))).toContain('- bare:helper: The bare helper agent')
  })

  it("lists each plugin's skill", () => {
    for (const r of [sides.claude(), sides.fanout()]) {
      const text = requestText(firstTaskRequest(r))
      for (const p of ['alpha', 'beta', 'bare']) expect(text).toContain(`- ${p}:tidy: Tidy things up (${p})`)
    }
  })
})

describe.skipIf(!cc.path)(`a plugin agent run through the Agent tool${skipped}`, () => {
  const sides = both({
    files: pluginFiles('plug', 'kit'),
    respond: (req: ParsedRequest) => {
      if (req.system.includes('You help with kit.')) return reply.text('HELPER-REPORT: tidy')
      if (!conversation(req).includes('PLUGIN TASK')) return reply.text('ok')
      if (req.turn === 0) return reply.toolUse('Agent', { subagent_type: 'kit:helper', description: 'help', prompt: 'Help me.' })
      return reply.text('done')
    },
    prompt: 'PLUGIN TASK',
    args: ['--output-format', 'json', '--plugin-dir', 'plug']
  })

  it("runs a subagent on the plugin agent's prompt", () => {
    // Claude Code 2.1.328 may start it in the background (its result then comes in a later turn): what is
    // compared is that the subagent ran, on the plugin's prompt.
    for (const r of [sides.claude(), sides.fanout()]) expect(r.requests.some((q) => q.system.includes('You help with kit.'))).toBe(true)
  })
})

describe.skipIf(!cc.path)(`MCP servers over HTTP+SSE and streamable HTTP, with and without resources${skipped}`, () => {
  let sse: HttpTestServer
  let http: HttpTestServer
  let claude: SideResult
  let fanout: SideResult
  beforeAll(async () => {
    sse = await startHttpTestServer(['--sse', '--label', 'events', '--resources'])
    http = await startHttpTestServer(['--label', 'plain'])
    const scenario: Scenario = {
      files: { '.mcp.json': JSON.stringify({ mcpServers: { events: { type: 'sse', url: sse.url }, plain: { type: 'http', url: http.url } } }) },
      settings: { enabledMcpjsonServers: ['events', 'plain'] },
      respond: calls([
        ['mcp__events__echo', { text: 'over sse' }],
        ['mcp__plain__echo', { text: 'over http' }],
        ['ListMcpResourcesTool', { server: 'events' }],
        ['ListMcpResourcesTool', { server: 'plain' }],
        ['ReadMcpResourceTool', { server: 'events', uri: 'memo://config.json' }],
        ['ReadMcpResourceTool', { server: 'plain', uri: 'memo://readme' }]
      ]),
      prompt: 'PLUGIN TASK',
      args: ['--output-format', 'json', '--allowedTools', 'mcp__events__echo', 'mcp__plain__echo', 'ListMcpResourcesTool', 'ReadMcpResourceTool']
    }
    ;[claude, fanout] = await Promise.all([runSide('claude-code', scenario), runSide('fanout', scenario)])
    expect(claude.code, claude.stderr).toBe(0)
    expect(fanout.code, fanout.stderr).toBe(0)
  }, 240_000)
  afterAll(async () => {
    await stopHttpTestServers()
    cleanupRuns()
  })

  it('calls a tool of an sse server', () => {
    expect(results(fanout)[0]).toBe(results(claude)[0])
    expect(results(claude)[0]).toBe('events echo: over sse')
  })

  it('calls a tool of a streamable HTTP server', () => {
    expect(results(fanout)[1]).toBe(results(claude)[1])
  })

  it("lists one server's resources", () => {
    expect(JSON.parse(results(fanout)[2])).toEqual(JSON.parse(results(claude)[2]))
  })

  it('says there are none for a server without resources', () => {
    expect(results(fanout)[3]).toBe(results(claude)[3])
  })

  it('reads a JSON resource', () => {
    expect(JSON.parse(results(fanout)[4])).toEqual(JSON.parse(results(claude)[4]))
  })

  it('refuses to read from a server without resources, saying so', () => {
    expect(results(fanout)[5]).toContain('Server "plain" does not support resources')
    expect(results(claude)[5]).toContain('Server "plain" does not support resources')
  })
})

describe.skipIf(!cc.path)(`resource tools without a rule that allows them, in default mode${skipped}`, () => {
  const sides = both({
    files: { '.mcp.json': JSON.stringify({ mcpServers: { docs: stdioServerEntry(['--label', 'docs', '--resources']) } }) },
    settings: { enabledMcpjsonServers: ['docs'] },
    respond: calls([
      ['ListMcpResourcesTool', {}],
      ['ReadMcpResourceTool', { server: 'docs', uri: 'memo://readme' }]
    ]),
    prompt: 'PLUGIN TASK',
    args: ['--output-format', 'json']
  })

  it('ListMcpResourcesTool runs without asking (it only reads), with the same list', () => {
    // Claude Code 2.1.328 deferred it behind ToolSearch ("No such tool available"); 2.1.330 runs it as Fanout does.
    const expected = [
      { name: 'readme', uri: 'memo://readme', description: 'The docs readme.', mimeType: 'text/plain', server: 'docs' },
      { name: 'config', uri: 'memo://config.json', description: 'A JSON document.', mimeType: 'application/json', server: 'docs' }
    ]
    expect(JSON.parse(results(sides.claude())[0])).toEqual(expected)
    expect(JSON.parse(results(sides.fanout())[0])).toEqual(expected)
  })

  it('ReadMcpResourceTool runs without asking (it only reads)', () => {
    expect(results(sides.fanout())[1]).toBe(results(sides.claude())[1])
    expect(results(sides.claude())[1]).toContain('docs readme: hello from the resource')
  })
})

describe.skipIf(!cc.path)(`--strict-mcp-config with a --plugin-dir plugin${skipped}`, () => {
  const sides = both({
    files: pluginFiles('plug', 'kit'),
    respond: calls([]),
    prompt: 'PLUGIN TASK',
    args: ['--output-format', 'json', '--plugin-dir', 'plug', '--strict-mcp-config', '--mcp-config', '{"mcpServers":{}}']
  })

  it("offers the plugin's server tools or not, alike", () => {
    const plugged = (r: SideResult) => firstTaskRequest(r).toolNames.some((n) => n.startsWith('mcp__plugin_kit_docs__'))
    expect(plugged(sides.fanout())).toBe(plugged(sides.claude()))
  })

  it('still lists the plugin agent', () => {
    for (const r of [sides.claude(), sides.fanout()]) expect(requestText(firstTaskRequest(r))).toContain('- kit:helper:')
  })
})

describe.skipIf(!cc.path)(`a plugin whose manifest names its hooks file and holds its MCP servers inline${skipped}`, () => {
  const files = pluginFiles('plug', 'kit', {
    name: 'kit',
    hooks: './config/hooks.json',
    mcpServers: { inline: stdioServerEntry(['--label', 'inline']) }
  })
  files['plug/config/hooks.json'] = files['plug/hooks/hooks.json'].replace('"matcher":"Bash"', '"matcher":"Read"')
  delete files['plug/hooks/hooks.json']
  delete files['plug/.mcp.json']
  const sides = both({
    files: { ...files, 'README.md': 'read me\n' },
    respond: calls([
      ['Read', { file_path: 'README.md' }],
      ['mcp__plugin_kit_inline__echo', { text: 'inline' }],
      ['Bash', { command: 'echo bash' }]
    ]),
    prompt: 'PLUGIN TASK',
    args: ['--output-format', 'json', '--plugin-dir', 'plug', '--allowedTools', 'Bash', 'Read', 'mcp__plugin_kit_inline__echo']
  })

  it('runs the hooks of the file the manifest names (on Read, not on Bash)', () => {
    for (const r of [sides.claude(), sides.fanout()]) expect(hookLog(r).map((h) => h.tool)).toEqual(['Read'])
  })

  it("serves the manifest's inline server", () => {
    expect(results(sides.fanout())[1]).toBe(results(sides.claude())[1])
    expect(results(sides.claude())[1]).toBe('inline echo: inline')
  })

  it("creates the plugin's data folder for its hooks and servers", () => {
    for (const r of [sides.claude(), sides.fanout()]) {
      const data = hookLog(r)[0]?.data as string
      expect(existsSync(data), `${r.side}: ${data}`).toBe(true)
    }
  })
})

// What `fanout run` does before its first model request is what a person waits through at every start
// (#28: process start to first request). The built CLI, a project with default settings: by the first
// request it has not loaded Node's fetch (the SDK's requests go over node:http) nor touched ICU's locale
// data (a number formatted for a message nobody sees yet), each ~10-15 ms of one thread, nor loaded TLS for an
// http:// base URL or web streams for a JSON body (~5-8 ms each), nor made stdout or stderr, nor built the zod
// schemas it does not need for that request (~35k instructions a schema node; 627 were built, now ~16), nor
// loaded node:crypto (~3-4.5 ms; ids and the few digests made by then do without it), nor
// read the bundle's part holding the MCP SDK, ajv and ws (bundle-parts.ts), which a run without MCP servers never uses.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cliProject, repoRoot, runCli, useCliServers } from '../../../test/support/cli'
import { stdioServerEntry } from '../runtime/mcp/testing/servers'
import { reply, scriptByAgent, scriptLead } from '../runtime/model/scripted'
import { FILE_TIME_SLACK_MS } from './code-cache'
import { toolInputTable } from './tool-input-table'

const serve = useCliServers()

const probeEnv = () => {
  const probe = join(mkdtempSync(join(tmpdir(), 'fanout-start-probe-')), 'probe.json')
  return { probe, env: { FANOUT_START_PROBE: probe, NODE_OPTIONS: `--import ${pathToFileURL(join(repoRoot, 'test/support/start-probe.mjs')).href}` } }
}

/** The packages whose code is in a built file, from its source map (a nested copy by its own name). */
const packagesIn = (file: string): Set<string> =>
  new Set(
    (JSON.parse(readFileSync(join(repoRoot, 'out/cli', `${file}.map`), 'utf8')) as { sources: string[] }).sources.flatMap(
      (source) => /.*[\\/]node_modules[\\/]((@[^\\/]+[\\/])?[^\\/]+)/.exec(source)?.[1] ?? []
    )
  )
const LEFT_TO_THE_PART = ['@modelcontextprotocol/sdk', 'ajv', 'ajv-formats', 'ws']

describe('fanout run before its first request', () => {
  it('has not loaded Node’s fetch, made a locale-aware call nor built a zod object schema, and the run still answers', async () => {
    const { project, env } = cliProject('fanout-run-start-', { 'readme.txt': 'Project readme.\n' })
    const server = await serve({ respond: scriptLead(reply.text('Hi.')) })
    // The first start after a build matches the bundle to its cache by hashing it (sha256, node:crypto); every later
    // one takes the size and time its cache recorded, once the bundle is older than the slack (code-cache.ts). As
    // a person's starts after their first: wait for that age, and let one unprobed start record it.
    const age = Date.now() - statSync(join(repoRoot, 'out/cli/fanout.cjs')).mtimeMs
    if (age < FILE_TIME_SLACK_MS + 100) await new Promise((r) => setTimeout(r, FILE_TIME_SLACK_MS + 100 - age))
    expect((await runCli(['run', '-p', 'Say hi.', '--cwd', project, '--output-format', 'json'], { env: env(server.url) })).code).toBe(0)
    const { probe, env: probing } = probeEnv()
    const r = await runCli(['run', '-p', 'Say hi.', '--cwd', project, '--output-format', 'json'], { env: { ...env(server.url), ...probing } })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'Hi.', is_error: false })
    // The request went out with the SDK's headers, built without the built-in Headers.
    expect(server.messageRequests().at(-1)?.headers).toMatchObject({ 'anthropic-version': expect.any(String), 'content-type': 'application/json' })
    // The tools' input schemas came from the build's table, byte for byte what converting their zod schemas gives.
    const table = toolInputTable()
    const sent = server.messageRequests().at(-1)!.body.tools as Array<{ name: string; input_schema: unknown }>
    expect(sent.map((t) => t.name)).toEqual(expect.arrayContaining(['Bash', 'Read', 'Edit', 'Agent', 'SendMessage', 'TaskOutput', 'RequestMerge']))
    for (const tool of sent) expect(JSON.stringify(tool.input_schema)).toBe(JSON.stringify(table[tool.name]))
    // The built-in agents, taken from the build's parse of agents/, are offered as ever.
    const agentTool = JSON.stringify(sent.find((t) => t.name === 'Agent'))
    for (const name of ['general-purpose', 'Explore', 'Plan', 'fanout-guide', 'verifier']) expect(agentTool).toContain(name)
    const seen = JSON.parse(readFileSync(probe, 'utf8'))
    expect(seen).toMatchObject({ undici: false, builtins: [], localeCalls: [], streamsMade: [] })
    // No zod schema is built for what a plain run does not read before its first request (shared/lazy.ts): the
    // settings when there is no settings file, the tools' inputs (the build converted them to JSON, so the
    // request carries them without zod: tools/input-json.ts), team tools, agent state, the session index, agent
    // history, transcripts, plugin manifests, worktree metadata, the trust store, MCP entries; nor for the
    // built-in agents' frontmatter fields: the build parsed those files (definitions/builtin-table.ts), and the
    // run takes that parse for a file whose text is what the build read.
    expect(seen.zodObjectKeys).toEqual([])
    expect(seen.zodSchemas).toBe(0)
    expect(seen.zodSchemasByExit).toBeGreaterThan(0) // the probe does see the ones built later in the run
    // Nor is the yaml library evaluated (its 72 modules): the built-in agents come parsed, and the CLI's
    // runtime/yaml-lib.ts requires yaml at its first use. Seen through the bundle's source map: the packages
    // whose code required one of Node's modules before the first request (yaml's do, 'process', as they load).
    const map = new SourceMap(JSON.parse(readFileSync(join(repoRoot, 'out/cli/fanout.cjs.map'), 'utf8')))
    const requiredBy = (seen.requiredFrom as Array<{ line: number; column: number }>).map(
      ({ line, column }) => (map.findEntry(line - 1, column - 1) as { originalSource?: string }).originalSource ?? '?'
    )
    expect(requiredBy.some((source) => source.includes('/node_modules/commander/'))).toBe(true) // the probe sees packages load
    expect(requiredBy.filter((source) => source.includes('/node_modules/yaml/'))).toEqual([])
    // Nor is the MCP SDK (with ajv) or ws read or compiled: the bundle holds none of their code, and the part that
    // does (fanout-deps.cjs) is not read by a run without MCP servers, before its first request or after.
    expect(seen.cjsRead).toContain('fanout.cjs')
    expect(seen.cjsReadByExit).not.toContain('fanout-deps.cjs')
    const inBundle = packagesIn('fanout.cjs')
    expect(inBundle.has('commander')).toBe(true) // the source map does name packages
    expect(LEFT_TO_THE_PART.filter((name) => inBundle.has(name))).toEqual([])
  })

  // The launcher loads the part through a code cache of its own; with --enable-source-maps Node's loader requires it.
  it.each([
    ['through its code cache', ''],
    ['by Node’s loader (--enable-source-maps)', ' --enable-source-maps']
  ])('reads the MCP part when the project has an MCP server, %s, and its tool answers', async (_how, nodeOptions) => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-run-start-mcp-')))
    const project = join(tmp, 'project')
    mkdirSync(join(tmp, '.claude'), { recursive: true })
    mkdirSync(project)
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { notes: stdioServerEntry(['--label', 'part']) } }))
    writeFileSync(join(tmp, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['mcp__notes__echo'] } }))
    const server = await serve({
      respond: scriptByAgent([
        {
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('mcp__notes__echo', { text: 'through the part' }), (req) => reply.text(req.toolResults[0].content)]
        }
      ])
    })
    const { probe, env: probing } = probeEnv()
    const r = await runCli(['run', '-p', 'Echo something.', '--cwd', project, '--output-format', 'json', '--trust-project'], {
      env: {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_AUTH_TOKEN: '',
        ANTHROPIC_BASE_URL: server.url,
        FANOUT_DATA_DIR: join(tmp, 'data'),
        HOME: tmp,
        ...probing,
        NODE_OPTIONS: probing.NODE_OPTIONS + nodeOptions
      }
    })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'part echo: through the part', is_error: false })
    expect(JSON.parse(readFileSync(probe, 'utf8')).cjsReadByExit).toContain('fanout-deps.cjs')
    const inPart = packagesIn('fanout-deps.cjs')
    expect(LEFT_TO_THE_PART.filter((name) => !inPart.has(name))).toEqual([])
  })
})

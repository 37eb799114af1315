// What `fanout run` does before its first model request is what a person waits through at every start
// (#28: process start to first request). The built CLI, a project with default settings: by the first
// request it has not loaded Node's fetch (the SDK's requests go over node:http) nor touched ICU's locale
// data (a number formatted for a message nobody sees yet), each ~10-15 ms of one thread, nor built the zod
// schemas it does not need for that request (~35k instructions a schema node; 627 were built, now ~16).
import { mkdtempSync, readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cliProject, repoRoot, runCli, useCliServers } from '../../../test/support/cli'
import { reply, scriptLead } from '../runtime/model/scripted'
import { toolInputTable } from './tool-input-table'

const serve = useCliServers()

describe('fanout run before its first request', () => {
  it('has not loaded Node’s fetch, made a locale-aware call nor built a zod object schema, and the run still answers', async () => {
    const { project, env } = cliProject('fanout-run-start-', { 'readme.txt': 'Project readme.\n' })
    const server = await serve({ respond: scriptLead(reply.text('Hi.')) })
    const probe = join(mkdtempSync(join(tmpdir(), 'fanout-start-probe-')), 'probe.json')
    const r = await runCli(['run', '-p', 'Say hi.', '--cwd', project, '--output-format', 'json'], {
      env: { ...env(server.url), FANOUT_START_PROBE: probe, NODE_OPTIONS: `--import ${pathToFileURL(join(repoRoot, 'test/support/start-probe.mjs')).href}` }
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'Hi.', is_error: false })
    // The request went out with the SDK's headers, built without the built-in Headers.
    expect(server.messageRequests()[0]?.headers).toMatchObject({ 'anthropic-version': expect.any(String), 'content-type': 'application/json' })
    // The tools' input schemas came from the build's table, byte for byte what converting their zod schemas gives.
    const table = toolInputTable()
    const sent = server.messageRequests()[0]!.body.tools as Array<{ name: string; input_schema: unknown }>
    expect(sent.map((t) => t.name)).toEqual(expect.arrayContaining(['Bash', 'Read', 'Edit', 'Agent', 'SendMessage', 'TaskOutput', 'RequestMerge']))
    for (const tool of sent) expect(JSON.stringify(tool.input_schema)).toBe(JSON.stringify(table[tool.name]))
    // The built-in agents, taken from the build's parse of agents/, are offered as ever.
    const agentTool = JSON.stringify(sent.find((t) => t.name === 'Agent'))
    for (const name of ['general-purpose', 'Explore', 'Plan', 'fanout-guide', 'verifier']) expect(agentTool).toContain(name)
    const seen = JSON.parse(readFileSync(probe, 'utf8'))
    expect(seen).toMatchObject({ undici: false, builtins: [], localeCalls: [] })
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
  })
})

// What `fanout run` does before its first model request is what a person waits through at every start
// (#28: process start to first request). The built CLI, a project with default settings: by the first
// request it has not loaded Node's fetch (the SDK's requests go over node:http) nor touched ICU's locale
// data (a number formatted for a message nobody sees yet), each ~10-15 ms of one thread, nor built the zod
// schemas of features it has not used (~35k instructions a schema node, ~400 of them).
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cliProject, repoRoot, runCli, useCliServers } from '../../../test/support/cli'
import { reply, scriptLead } from '../runtime/model/scripted'

const serve = useCliServers()

describe('fanout run before its first request', () => {
  it('has not loaded Node’s fetch, made a locale-aware call nor built the schemas it does not use, and the run still answers', async () => {
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
    const seen = JSON.parse(readFileSync(probe, 'utf8'))
    expect(seen).toMatchObject({ undici: false, localeCalls: [] })
    // The schemas of what a plain run does not read before its first request are built at their first use
    // (shared/lazy.ts), not at start: team tools, agent state, session index, agent history, plugin manifests,
    // worktree metadata, the trust store, MCP entries. Each is named here by a field only it has.
    expect(seen.zodObjectKeys).toEqual(expect.arrayContaining(['description', 'name'])) // the probe sees the ones that are built
    for (const field of ['team_name', 'stoppedByUser', 'writer', 'verdict', 'keywords', 'baseCommit', 'answeredAt', 'headers'])
      expect(seen.zodObjectKeys).not.toContain(field)
  })
})

// What `fanout run` does before its first model request is what a person waits through at every start
// (#28: process start to first request). The built CLI, a project with default settings: by the first
// request it has not loaded Node's fetch (the SDK's requests go over node:http) nor touched ICU's locale
// data (a number formatted for a message nobody sees yet), each ~10-15 ms of one thread.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cliProject, repoRoot, runCli, useCliServers } from '../../../test/support/cli'
import { reply, scriptLead } from '../runtime/model/scripted'

const serve = useCliServers()

describe('fanout run before its first request', () => {
  it('has not loaded Node’s fetch nor made a locale-aware call, and the run still answers', async () => {
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
    expect(JSON.parse(readFileSync(probe, 'utf8'))).toEqual({ undici: false, localeCalls: [] })
  })
})

// Process start to first model request for `fanout run`: what a person waits before anything happens.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { reply, scriptTurns, startScriptedServer } from '../src/main/runtime/model/scripted'

export async function benchCliStart(root: string): Promise<void> {
  const runs: number[] = []
  const dataDir = mkdtempSync(join(tmpdir(), 'fanout-bench-data-'))
  for (let i = 0; i < 5; i++) {
    const server = await startScriptedServer({ respond: scriptTurns(reply.text('hi')) })
    const started = performance.now()
    const child = spawn(process.execPath, [join(root, 'bin/fanout'), 'run', '-p', 'hello', '--output-format', 'json'], {
      cwd: root,
      env: { ...process.env, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, FANOUT_DATA_DIR: dataDir },
      stdio: 'ignore'
    })
    await new Promise((r) => child.on('exit', r))
    const firstRequest = server.requests[0]?.receivedAt
    if (firstRequest !== undefined) runs.push(firstRequest - started)
    await server.close()
  }
  runs.sort((a, b) => a - b)
  console.log(`\nfanout run: process start to first model request (5 runs): median ${runs[Math.floor(runs.length / 2)]?.toFixed(0)} ms, best ${runs[0]?.toFixed(0)} ms (target < 200 ms)`)
}

#!/usr/bin/env node
// A hook command for the test suite: `node hook.mjs LOG BEHAVIOUR.json`. It appends what it received (the JSON
// on stdin, its working directory and CLAUDE_PROJECT_DIR) as one line to LOG, then behaves as the file says:
//   { "stdout": "text" | {json}, "stderr": "text", "exit": 2, "sleepMs": 5000,
//     "unlessActive": { ...the same keys, used while stop_hook_active is false },
//     "times": 1, "then": { ...the same keys, used from the (times+1)th call on } }
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'

const [log, behaviourFile] = process.argv.slice(2)
let stdin = ''
process.stdin.on('data', (c) => (stdin += c))
process.stdin.on('end', () => {
  const input = JSON.parse(stdin)
  appendFileSync(log, JSON.stringify({ input, cwd: process.cwd(), projectDir: process.env.CLAUDE_PROJECT_DIR }) + '\n')
  const all = behaviourFile ? JSON.parse(readFileSync(behaviourFile, 'utf8')) : {}
  let calls = 0
  if (all.times !== undefined) {
    const counter = `${behaviourFile}.calls`
    calls = existsSync(counter) ? Number(readFileSync(counter, 'utf8')) : 0
    writeFileSync(counter, String(calls + 1))
  }
  const b = all.times !== undefined && calls >= all.times ? (all.then ?? {}) : all.unlessActive && !input.stop_hook_active ? all.unlessActive : all
  const finish = () => {
    if (b.stdout !== undefined) process.stdout.write(typeof b.stdout === 'string' ? b.stdout : JSON.stringify(b.stdout))
    if (b.stderr) process.stderr.write(b.stderr)
    process.exit(b.exit ?? 0)
  }
  if (b.sleepMs) setTimeout(finish, b.sleepMs)
  else finish()
})

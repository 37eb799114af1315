// `npm test`: build, type-check, lint, format check, unit tests (vitest), e2e (Playwright in Debian's Chromium).
// Every stage runs even when an earlier one fails, so one run shows everything; the last line is the
// count CI reads: `N passed, N failed, N skipped`.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const results = join(root, 'out/test-results')
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })
const bin = (name) => join(root, 'node_modules/.bin', name)
const only = process.argv.slice(2) // e.g. `npm test -- unit` runs just that stage

let passed = 0
let failed = 0
let skipped = 0
const failures = []
const failedTests = [] // { where, name, why: error texts }

function stage(name, cmd, args, env = {}) {
  if (only.length && !only.includes(name)) return null
  console.log(`\n━━ ${name}: ${[cmd.replace(root + '/', ''), ...args].join(' ')}`)
  const started = Date.now()
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  const ok = r.status === 0
  console.log(`━━ ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return ok
}

/**
 * A stage whose output is also kept: passed through as it comes, and returned, so what a runner printed outside
 * any test (vitest's "Unhandled Errors", a worker that would not stop) can be said again at the end of the log.
 */
async function stageKept(name, cmd, args, env = {}) {
  if (only.length && !only.includes(name)) return null
  console.log(`\n━━ ${name}: ${[cmd.replace(root + '/', ''), ...args].join(' ')}`)
  const started = Date.now()
  const { code, kept } = await spawnKept(cmd, args, env, true)
  const ok = code === 0
  console.log(`━━ ${name}: ${ok ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return {
    ok,
    output: kept.toString('utf8').replace(/\x1b\[[0-9;]*m/g, '')
  }
}

/** A child's exit code (or signal) and all it wrote, stdout and stderr in order; `echo` passes it through as it comes. */
async function spawnKept(cmd, args, env, echo) {
  const child = spawn(cmd, args, { cwd: root, stdio: [echo ? 'inherit' : 'ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  const kept = []
  child.stdout.on('data', (chunk) => {
    if (echo) process.stdout.write(chunk)
    kept.push(chunk)
  })
  child.stderr.on('data', (chunk) => {
    if (echo) process.stderr.write(chunk)
    kept.push(chunk)
  })
  const code = await new Promise((resolve) => child.on('close', (status, signal) => resolve(status ?? signal)))
  return { code, kept: Buffer.concat(kept) }
}

/** What vitest printed about errors outside tests: its "Unhandled Errors" section, else each "Error" block it printed. */
function runnerErrors(output) {
  const lines = output.split('\n')
  const at = lines.findIndex((l) => /Unhandled (Errors?|Rejection)|Error: \[vitest|Timeout (terminating|starting)|Worker exited/i.test(l))
  if (at >= 0) return lines.slice(Math.max(0, at - 2), at + 40)
  return lines.filter((l) => /error/i.test(l) && !/✓/.test(l)).slice(-20)
}

function check(name, cmd, args) {
  return tally(name, stage(name, cmd, args))
}

/** Counts a check stage's outcome (null: the stage was not run). */
function tally(name, ok) {
  if (ok === null) return null
  if (ok) passed++
  else {
    failed++
    failures.push(name)
  }
  return ok
}

/** Like check, beside other stages: the output is kept and printed as one block when the stage ends. */
async function checkQuiet(name, cmd, args) {
  if (only.length && !only.includes(name)) return null
  const started = Date.now()
  const { code, kept } = await spawnKept(cmd, args, {}, false)
  const ok = code === 0
  console.log(`\n━━ ${name}: ${[cmd.replace(root + '/', ''), ...args].join(' ')}`)
  process.stdout.write(kept)
  console.log(`━━ ${name}: ${ok ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return tally(name, ok)
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

check('build', process.execPath, ['scripts/build.mjs'])
// The type check and the linter each keep one core busy for about a minute; on the 2-core CI machine they run
// side by side (~70 + 45 s one after the other). Each one's output is printed whole when it ends.
await Promise.all([
  checkQuiet('typecheck', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', '--noEmit', 'tsconfig.json']),
  checkQuiet('lint', bin('eslint'), ['.', '--max-warnings=0'])
])
// Formatting (Biome, biome.json): names each file that differs from what the formatter would write.
if (check('format', bin('biome'), ['format', '--reporter=summary', '.']) === false) {
  console.log('━━ format: the files listed above are not formatted; `npm run format` rewrites them in place (biome.json holds the style)')
}

const vitestJson = join(results, 'vitest.json')
const unit = await stageKept('unit', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`])
const unitOk = unit?.ok ?? null
if (unitOk !== null) {
  const v = readJson(vitestJson)
  if (v) {
    passed += v.numPassedTests
    failed += v.numFailedTests
    skipped += v.numPendingTests + (v.numTodoTests ?? 0)
    if (v.numFailedTests) failures.push(`unit (${v.numFailedTests})`)
    for (const file of v.testResults ?? []) {
      const where = file.name.replace(root + '/', '')
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'failed') failedTests.push({ where, name: [...(t.ancestorTitles ?? []), t.title].join(' > '), why: t.failureMessages ?? [] })
      }
      // A file that failed with every test passed: its hooks (afterAll) or its loading.
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
        failedTests.push({ where, name: '(the file, outside its tests)', why: [file.message || 'failed'] })
    }
  }
  if (!v || (!unitOk && !v.numFailedTests)) {
    failed++
    failures.push('unit (runner error)')
    failedTests.push({ where: 'vitest', name: 'what it printed outside the tests', why: runnerErrors(unit.output), lines: 45 })
  }
}

// Playwright's report nests suites (file, describe) over specs over tests over their retries.
function collectPlaywright(suites, titles) {
  for (const suite of suites) {
    const path = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles
    collectPlaywright(suite.suites ?? [], path)
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue
        const why = (test.results ?? []).map((r) => r.error?.message ?? r.status).filter(Boolean)
        failedTests.push({ where: `${spec.file}:${spec.line}`, name: [...path, spec.title].join(' > '), why })
      }
    }
  }
}

const pwJson = join(results, 'playwright.json')
const e2eOk = stage('e2e', bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson })
if (e2eOk !== null) {
  const p = existsSync(pwJson) ? readJson(pwJson) : null
  if (p?.stats) {
    passed += p.stats.expected + (p.stats.flaky ?? 0)
    failed += p.stats.unexpected
    skipped += p.stats.skipped
    if (p.stats.unexpected) failures.push(`e2e (${p.stats.unexpected})`)
    collectPlaywright(p.suites ?? [], [])
  }
  if (!p?.stats || (!e2eOk && !p.stats.unexpected)) {
    failed++
    failures.push('e2e (runner error)')
  }
}

// The failed tests again, last, with the start of each one's error: a CI log that keeps only its tail still
// names what failed and why.
for (const t of failedTests) {
  console.log(`\n✗ ${t.where} › ${t.name}`)
  const lines = t.why
    .join('\n')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => l.trim() && !/node_modules\/|<anonymous>|node:internal/.test(l))
  for (const line of lines.slice(0, t.lines ?? 12)) console.log(`    ${line.slice(0, 300)}`)
}
if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`)
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exitCode = failed ? 1 : 0

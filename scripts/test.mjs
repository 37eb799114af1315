// `npm test`: build, type-check, lint, format check, unit tests (vitest), e2e (Playwright in Debian's Chromium).
// Every stage runs even when an earlier one fails, so one run shows everything; the last line is the
// count CI reads: `N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process'
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

function check(name, cmd, args) {
  const ok = stage(name, cmd, args)
  if (ok === null) return null
  if (ok) passed++
  else {
    failed++
    failures.push(name)
  }
  return ok
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

check('build', process.execPath, ['scripts/build.mjs'])
check('typecheck', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', '--noEmit', 'tsconfig.json'])
check('lint', bin('eslint'), ['.', '--max-warnings=0'])
// Formatting (Biome, biome.json): names each file that differs from what the formatter would write.
if (check('format', bin('biome'), ['format', '--reporter=summary', '.']) === false) {
  console.log('━━ format: the files listed above are not formatted; `npm run format` rewrites them in place (biome.json holds the style)')
}

const vitestJson = join(results, 'vitest.json')
const unitOk = stage('unit', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`])
if (unitOk !== null) {
  const v = readJson(vitestJson)
  if (v) {
    passed += v.numPassedTests
    failed += v.numFailedTests
    skipped += v.numPendingTests + (v.numTodoTests ?? 0)
    if (v.numFailedTests) failures.push(`unit (${v.numFailedTests})`)
    for (const file of v.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'failed')
          failedTests.push({ where: file.name.replace(root + '/', ''), name: [...(t.ancestorTitles ?? []), t.title].join(' > '), why: t.failureMessages ?? [] })
      }
    }
  }
  if (!v || (!unitOk && !v.numFailedTests)) {
    failed++
    failures.push('unit (runner error)')
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
  for (const line of lines.slice(0, 12)) console.log(`    ${line.slice(0, 300)}`)
}
if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`)
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exitCode = failed ? 1 : 0

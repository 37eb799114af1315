// `npm install` and `npm run build` run scripts/build.mjs by path; it must build wherever the checkout lives,
// including a folder whose path has a space (common on macOS and Windows).
import { spawnSync } from 'node:child_process'
import { isAscii } from 'node:buffer'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(__dirname, '..')
const tmp = mkdtempSync(join(tmpdir(), 'fanout build-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('scripts/build.mjs', () => {
  it('builds the CLI in a checkout whose path has a space', () => {
    const checkout = join(tmp, 'my projects', 'fanout')
    for (const part of ['scripts', 'src', 'package.json']) cpSync(join(root, part), join(checkout, part), { recursive: true })
    symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir')
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--cli'], { cwd: checkout, encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(existsSync(join(checkout, 'out/cli/fanout.cjs'))).toBe(true)
    // All ASCII, so the launcher reads it as latin1 (one copy) rather than decoding 2 MB of UTF-8 at every start
    // (code-cache.ts): esbuild escapes what is outside ASCII in strings, not in regular expression literals.
    const bundle = readFileSync(join(checkout, 'out/cli/fanout.cjs'))
    expect(isAscii(bundle)).toBe(true)
    // Already in Node's CommonJS wrapper, so the launcher compiles the text as read instead of copying 1.8 MB
    // into a wrapped string at every start (code-cache.ts); the launcher itself is plain CommonJS.
    expect(bundle.subarray(0, 200).toString('latin1').startsWith('(function (exports, require, module, __filename, __dirname) {')).toBe(true)
    expect(readFileSync(join(checkout, 'out/cli/launch.cjs'), 'latin1').startsWith('(function')).toBe(false)
    // So is the bundle's part (src/main/cli/bundle-parts.ts: the MCP SDK, ajv, ws), read only when used.
    const part = readFileSync(join(checkout, 'out/cli/fanout-deps.cjs'))
    expect(isAscii(part)).toBe(true)
    expect(part.subarray(0, 200).toString('latin1').startsWith('(function (exports, require, module, __filename, __dirname) {')).toBe(true)
    // zod's translations of its messages are left out (260 KB read and evaluated at every start), English kept.
    expect(bundle.includes('Ongeldige invoer')).toBe(false)
    expect(bundle.includes('Invalid input: expected')).toBe(true)
    // The model client is the SDK's base client with its Messages and Models resources (model/sdk-client.ts),
    // not the default export that evaluates every resource the SDK has at every start.
    expect(bundle.includes('/v1/messages')).toBe(true)
    for (const other of ['/v1/files', '/v1/skills', '/v1/organizations']) expect(bundle.includes(other)).toBe(false)
  }, 60_000)
})

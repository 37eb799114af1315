// The judge tells the sandbox's placeholders from escapes: a placeholder appearing, or being removed by the
// sandbox once its command ended, is no change; content written into one, one removed by anything else, or an
// empty file the sandbox did not make, is.
import { chmodSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { mountPoints } from '../../src/main/runtime/security/sandbox/mount-points'
import { runInBackground, waitUntil } from '../../src/main/runtime/security/sandbox/testing/background-hold'
import { diff, PLACEHOLDER, snapshot } from './attack-kit'

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-judge-')))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the attack judge and the sandbox placeholders', () => {
  it('sees no change in placeholders coming and going, and every change a command could make of them', async () => {
    writeFileSync(join(dir, 'README.md'), 'x\n')
    const before = snapshot(dir)
    // Tamper only once the command runs inside its sandbox: before, bubblewrap would make a missing mount point itself.
    const bg = await runInBackground(dir, 'echo started; exec sleep 60')
    await waitUntil(() => bg.output().includes('started'), 'the sandboxed command to start')
    const held = snapshot(dir)
    expect(held.get('.bashrc')).toBe(PLACEHOLDER)
    expect(diff(before, held)).toEqual([])

    // What no placeholder is: an empty file the sandbox did not make, content in one, one removed by hand.
    writeFileSync(join(dir, '.bashrc2'), '')
    chmodSync(join(dir, '.mcp.json'), 0o644)
    writeFileSync(join(dir, '.mcp.json'), '{"mcpServers":{}}')
    unlinkSync(join(dir, '.vscode'))
    const tampered = snapshot(dir)
    expect(diff(held, tampered).sort()).toEqual(['changed .mcp.json', 'created .bashrc2', 'deleted .vscode'])

    const removed = new Set<string>()
    const stop = mountPoints.onRemoved((p) => removed.add(p))
    await bg.stop()
    stop()
    expect(removed.has(join(dir, '.bashrc'))).toBe(true)
    const after = snapshot(dir)
    expect(diff(tampered, after, (rel) => removed.has(join(dir, rel)))).toEqual([])
    expect(diff(tampered, after)).toContain('deleted .bashrc')
  })
})

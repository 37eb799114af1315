import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createFileKeyStore } from './file-key-store'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

describe('file key store (browser mode)', () => {
  it('returns null before a key is set, then the key, in a file only the user can read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fanout-key-'))
    dirs.push(dir)
    const file = join(dir, 'nested/api-key')
    const store = createFileKeyStore(file)
    expect(await store.get()).toBeNull()
    await store.set('sk-ant-abc')
    expect(await store.get()).toBe('sk-ant-abc')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'nested')).mode & 0o077).toBe(0)
    await store.set('sk-ant-replaced')
    expect(await createFileKeyStore(file).get()).toBe('sk-ant-replaced')
  })
})

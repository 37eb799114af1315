import { readFile, stat, writeFile, chmod } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CredentialsError, deleteApiKey, loadApiKey, maskApiKey, saveApiKey, type SecretCodec } from './credentials'
import { tempDataDir } from './test-fixtures'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const KEY = 'sk-ant-api03-SECRETSECRETSECRET-abcd'
// A reversible stand-in for Electron's safeStorage: the stored bytes never contain the key.
const xor: SecretCodec = {
  scheme: 'test-xor',
  encrypt: (plain) => Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a),
  decrypt: (data) => Buffer.from(data.map((b) => b ^ 0x5a)).toString('utf8')
}
const posix = process.platform !== 'win32'

describe('credentials', () => {
  it('saves the key readable by the user only, and loads it back', async () => {
    expect(await loadApiKey(dataDir)).toBeNull()
    await saveApiKey(dataDir, `  ${KEY}\n`)
    expect(await loadApiKey(dataDir)).toBe(KEY)
    if (posix) expect((await stat(join(dataDir, 'credentials'))).mode & 0o777).toBe(0o600)
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8').catch(() => '')).not.toContain(KEY)
  })

  it('encrypts through a pluggable codec, and a reader without it says why it cannot use the key', async () => {
    await saveApiKey(dataDir, KEY, xor)
    const onDisk = await readFile(join(dataDir, 'credentials'), 'utf8')
    expect(onDisk).not.toContain(KEY)
    expect(JSON.parse(onDisk).scheme).toBe('test-xor')
    expect(await loadApiKey(dataDir, xor)).toBe(KEY)
    const err = await loadApiKey(dataDir).catch((e: Error) => e)
    expect(err).toBeInstanceOf(CredentialsError)
    expect((err as Error).message).toMatch(/encrypted with "test-xor", which is not available here .*set ANTHROPIC_API_KEY/)
  })

  it('never puts the key in an error, even for a damaged file', async () => {
    await writeFile(join(dataDir, 'credentials'), `{"version":1,"scheme":"plain","data":"${KEY}"`)
    const err = (await loadApiKey(dataDir).catch((e: Error) => e)) as Error
    expect(err.message).toMatch(/is not valid JSON; save the API key again/)
    expect(err.message).not.toContain('SECRET')
    await saveApiKey(dataDir, KEY, xor)
    const bad: SecretCodec = {
      ...xor,
      decrypt: () => {
        throw new Error(`cannot decrypt ${KEY}`)
      }
    }
    const err2 = (await loadApiKey(dataDir, bad).catch((e: Error) => e)) as Error
    expect(err2.message).toMatch(/could not be decrypted/)
    expect(err2.message).not.toContain('SECRET')
  })

  it('refuses an empty or broken key, tightens a loosened file, and deletes', async () => {
    await expect(saveApiKey(dataDir, '   ')).rejects.toThrow('The API key is empty')
    await expect(saveApiKey(dataDir, 'sk-ant abc')).rejects.toThrow('contains whitespace')
    await saveApiKey(dataDir, KEY)
    if (posix) {
      await chmod(join(dataDir, 'credentials'), 0o644)
      await loadApiKey(dataDir)
      expect((await stat(join(dataDir, 'credentials'))).mode & 0o777).toBe(0o600)
    }
    expect(await deleteApiKey(dataDir)).toBe(true)
    expect(await deleteApiKey(dataDir)).toBe(false)
    expect(await loadApiKey(dataDir)).toBeNull()
    expect(maskApiKey(KEY)).toBe('sk-ant-…abcd')
  })
})

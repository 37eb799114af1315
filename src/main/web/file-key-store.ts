// Browser mode keeps the API key in a file only the user can read (0600, in a 0700 folder): there is
// no OS keychain API in plain Node. Electron uses safeStorage instead (src/main/ipc/safe-key-store.ts).
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

export interface KeyStore {
  get(): Promise<string | null>
  set(key: string): Promise<void>
}

export function createFileKeyStore(file: string): KeyStore {
  return {
    async get() {
      try {
        const key = (await readFile(file, 'utf8')).trim()
        return key || null
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw new Error(`Cannot read the stored API key at ${file}: ${(err as Error).message}`, { cause: err })
      }
    },
    async set(key) {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 })
      const tmp = `${file}.${process.pid}.tmp`
      await writeFile(tmp, key, { mode: 0o600 })
      await chmod(tmp, 0o600) // umask cannot widen it, but an existing tmp could have other bits
      await rename(tmp, file)
    }
  }
}

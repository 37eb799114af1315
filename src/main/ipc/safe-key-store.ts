// The API key at rest in the desktop app: encrypted with Electron safeStorage (the OS keychain) before
// it touches the disk, decrypted only in the main process, never sent to the renderer.
import { safeStorage } from 'electron'
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { KeyStore } from '../web/file-key-store'

export function createSafeStorageKeyStore(file: string): KeyStore {
  return {
    async get() {
      let data: Buffer
      try {
        data = await readFile(file)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
      if (!safeStorage.isEncryptionAvailable()) throw new Error('The system keychain is locked or unavailable, so the stored API key cannot be read.')
      return safeStorage.decryptString(data) || null
    },
    async set(key) {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error('This system offers no keychain to encrypt the API key; set ANTHROPIC_API_KEY in the environment instead.')
      }
      const data = safeStorage.encryptString(key)
      await mkdir(dirname(file), { recursive: true, mode: 0o700 })
      const tmp = `${file}.tmp`
      await writeFile(tmp, data, { mode: 0o600 })
      await chmod(tmp, 0o600)
      await rename(tmp, file)
    }
  }
}

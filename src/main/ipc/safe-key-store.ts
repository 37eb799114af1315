// The API key at rest in the desktop app: the store's credentials file, encrypted with Electron
// safeStorage (the OS keychain) before it touches the disk, decrypted only in the main process, never
// sent to the renderer.
import { safeStorage } from 'electron'
import type { SecretCodec } from '../runtime/store'
import { credentialsKeyStore, type KeyStore } from '../runtime/setup'

export const safeStorageCodec: SecretCodec = {
  scheme: 'safeStorage',
  encrypt(plain) {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error('This system offers no keychain to encrypt the API key; set ANTHROPIC_API_KEY in the environment instead.')
    }
    return safeStorage.encryptString(plain)
  },
  decrypt(data) {
    if (!safeStorage.isEncryptionAvailable()) throw new Error('The system keychain is locked or unavailable, so the stored API key cannot be read.')
    return safeStorage.decryptString(Buffer.from(data))
  }
}

export function createSafeStorageKeyStore(dataDir: string): KeyStore {
  return credentialsKeyStore(dataDir, safeStorageCodec)
}

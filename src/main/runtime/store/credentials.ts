// The API key, kept apart from settings in `<dataDir>/credentials`, readable by the user only (0600).
// The desktop app wraps it with Electron's safeStorage through a SecretCodec; the CLI and browser mode
// store it plain (like ~/.netrc or gcloud). The key never appears in an error, a log or a thrown message.
import { chmod, unlink } from 'node:fs/promises'
import { errorCode, readJsonFile, writeJsonAtomic } from './atomic-file'
import { credentialsPath, ensureDataDir } from './data-dir'

/** Encrypts the key at rest, e.g. Electron `safeStorage` (scheme 'safeStorage'). */
export interface SecretCodec {
  /** Recorded in the file so a reader without this codec can say why it cannot decrypt. */
  readonly scheme: string
  encrypt(plain: string): Uint8Array | Promise<Uint8Array>
  decrypt(data: Uint8Array): string | Promise<string>
}

interface CredentialsFile {
  version: 1
  scheme: string
  /** Plain key (scheme 'plain') or base64 of the codec's bytes. */
  data: string
}

export class CredentialsError extends Error {
  override name = 'CredentialsError'
}

export async function saveApiKey(dataDir: string, apiKey: string, codec?: SecretCodec): Promise<void> {
  const key = apiKey.trim()
  if (!key) throw new CredentialsError('The API key is empty; nothing was saved.')
  if (/\s/.test(key)) throw new CredentialsError('The API key contains whitespace inside it; nothing was saved. Paste the key alone.')
  const record: CredentialsFile = codec
    ? { version: 1, scheme: codec.scheme, data: Buffer.from(await codec.encrypt(key)).toString('base64') }
    : { version: 1, scheme: 'plain', data: key }
  await ensureDataDir(dataDir)
  await writeJsonAtomic(credentialsPath(dataDir), record, { mode: 0o600 })
}

/** The saved key; null when none is saved. Throws a CredentialsError (never containing the key) when unusable. */
export async function loadApiKey(dataDir: string, codec?: SecretCodec): Promise<string | null> {
  const file = credentialsPath(dataDir)
  let raw: unknown
  try {
    raw = await readJsonFile(file)
  } catch {
    // The parse error message could quote the file's content; do not pass it on.
    throw new CredentialsError(`${file} is not valid JSON; save the API key again (or delete the file).`)
  }
  if (raw === null) return null
  await tighten(file)
  const rec = raw as Partial<CredentialsFile>
  if (rec.version !== 1 || typeof rec.scheme !== 'string' || typeof rec.data !== 'string') {
    throw new CredentialsError(`${file} is not a Fanout credentials file (version 1); save the API key again.`)
  }
  if (rec.scheme === 'plain') return rec.data
  if (!codec || codec.scheme !== rec.scheme) {
    throw new CredentialsError(
      `The API key in ${file} is encrypted with "${rec.scheme}", which is not available here` +
        ` (${codec ? `this program uses "${codec.scheme}"` : 'no decryption is configured'}); set ANTHROPIC_API_KEY or save the key again.`
    )
  }
  try {
    return await codec.decrypt(Buffer.from(rec.data, 'base64'))
  } catch {
    throw new CredentialsError(`The API key in ${file} could not be decrypted with "${rec.scheme}"; save the key again.`)
  }
}

/** Removes the saved key; false when there was none. */
export async function deleteApiKey(dataDir: string): Promise<boolean> {
  try {
    await unlink(credentialsPath(dataDir))
    return true
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return false
    throw err
  }
}

/** A form of the key safe to show: `sk-ant-…wxyz`. */
export function maskApiKey(key: string): string {
  if (key.length <= 12) return '…'
  return `${key.slice(0, 7)}…${key.slice(-4)}`
}

// A file someone copied or chmod-ed to be readable by others is set back to 0600 (no-op on Windows).
async function tighten(file: string): Promise<void> {
  if (process.platform === 'win32') return
  await chmod(file, 0o600).catch(() => {})
}

// Settings' "Test connection": GET /v1/models at a base URL with the key Fanout would use, answered as a
// sentence (never a thrown error: a failing endpoint is the answer, not a failed call). The key stays here.
// The sentence says what happened; `fix` says what to change, and the window words where (the answer is
// shown in Settings and on the first-run page, so "set it in Settings" would be wrong in one of them).
import type { ConnectionFix } from '../../../shared/ipc-contract'
import { ModelCallError } from '../model/errors'
import { createClientFromConfig, type KeyStore, type RuntimeConfig } from '../setup'
import { errorMessage } from '../../../shared/error-message'

export interface ConnectionResult {
  ok: boolean
  url: string
  message: string
  fix?: ConnectionFix
}

const TIMEOUT_MS = 15_000

/**
 * `baseUrl`: the address as typed (null: the default endpoint), or undefined for the saved one. One attempt,
 * no retries, at most 15 s: the person is waiting for this answer.
 */
export async function testConnection(
  config: RuntimeConfig,
  baseUrl: string | null | undefined,
  opts: { env: Record<string, string | undefined>; keyStore: KeyStore }
): Promise<ConnectionResult> {
  const settings = baseUrl === undefined ? config.settings : { ...config.settings, baseURL: baseUrl ?? undefined }
  const made = await createClientFromConfig(
    { ...config, settings },
    { env: opts.env, keyStore: opts.keyStore, client: { maxRetries: 0, timeoutMs: TIMEOUT_MS } }
  )
  const url = settings.baseURL || opts.env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com'
  // Where the address came from is what to change when nothing answers there.
  const address: ConnectionFix = settings.baseURL ? 'base_url' : opts.env.ANTHROPIC_BASE_URL ? 'environment' : 'network'
  if ('error' in made)
    return made.missingKey ? { ok: false, url, message: 'There is no API key to test with.', fix: 'no_key' } : { ok: false, url, message: made.error }
  try {
    const models = await made.client.listModels(AbortSignal.timeout(TIMEOUT_MS))
    const count = models.length === 1 ? '1 model' : `${models.length} models`
    return { ok: true, url, message: models.length ? `Connected: ${url} answered and offers ${count}.` : `Connected: ${url} answered (it lists no models).` }
  } catch (err) {
    const status = err instanceof ModelCallError ? err.status : undefined
    const message = errorMessage(err)
    // A gateway without a model list still answered: the address and the key are fine for messages.
    if (status === 404) return { ok: true, url, message: `Connected: ${url} answered, though it has no model list (GET /v1/models: 404).` }
    if (status === 401 || status === 403) return { ok: false, url, message: `${url} answered but refused the key (${status}).`, fix: 'key' }
    if (err instanceof ModelCallError && err.unreachable !== undefined)
      return { ok: false, url, message: `Could not connect to ${url} (${err.unreachable}).`, fix: address }
    if (err instanceof Error && (err.name === 'TimeoutError' || /aborted/i.test(message)))
      return { ok: false, url, message: `${url} did not answer within ${TIMEOUT_MS / 1000} s.`, fix: address }
    return { ok: false, url, message }
  }
}

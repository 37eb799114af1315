// GET /v1/models through the SDK, every page; a failure is said as the client says one (where, and why).
import type { MessagesClient } from './sdk-client'
import { ModelCallError } from './errors'
import { describeFailure, unreachableCause, unreachableMessage, type BaseUrlSource } from './retry'
import type { ModelListing } from './types'

export async function listModels(sdk: MessagesClient, baseURL: string, baseUrlSource: BaseUrlSource, signal?: AbortSignal): Promise<ModelListing[]> {
  const out: ModelListing[] = []
  try {
    for await (const m of sdk.models.list({ limit: 1000 }, { signal })) {
      const info = m as any
      out.push({ id: info.id, createdAt: info.created_at, displayName: info.display_name, line: info.line, lifecycle: info.lifecycle })
    }
  } catch (err) {
    const failure = describeFailure(err)
    const message = failure.unreachable
      ? unreachableMessage(baseURL, baseUrlSource, failure.message)
      : `Could not list models at ${baseURL}: ${failure.message}`
    throw new ModelCallError(message, (err as any)?.status, 1, false, failure.unreachable ? unreachableCause(failure.message) : undefined)
  }
  return out
}

// The SDK's client with the two resources Fanout calls, Messages and Models. The SDK's default export builds
// every resource it has (batches, files, skills, organization, beta...): ~220 modules that `fanout run`
// evaluated before its first request, of which these take ~110. The base client is the same one the full
// client extends (same requests, headers, errors and streaming); the resources are the SDK's own classes.
import { BaseAnthropic } from '@anthropic-ai/sdk/client'
import type { APIError } from '@anthropic-ai/sdk/core/error'
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages'
import { Models } from '@anthropic-ai/sdk/resources/models'

export class MessagesClient extends BaseAnthropic {
  messages: Messages = new Messages(this)
  models: Models = new Models(this)

  /** The error the SDK throws for an answer with this status and body (its class per status and error code). */
  statusError(status: number, error: object | undefined, message: string | undefined, headers: Headers): APIError {
    return this.makeStatusError(status, error as object, message, headers)
  }
}

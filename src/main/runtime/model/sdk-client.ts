// The SDK's client with the two resources Fanout calls, Messages and Models. The SDK's default export builds
// every resource it has (batches, files, skills, organization, beta...): ~220 modules that `fanout run`
// evaluated before its first request, of which these take ~110. The base client is the same one the full
// client extends (same requests, headers, errors and streaming); the resources are the SDK's own classes.
import { BaseAnthropic } from '@anthropic-ai/sdk/client'
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages'
import { Models } from '@anthropic-ai/sdk/resources/models'

export class MessagesClient extends BaseAnthropic {
  messages: Messages = new Messages(this)
  models: Models = new Models(this)
}

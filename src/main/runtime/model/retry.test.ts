// Which failures get a quick second try (nothing answers at the address) and which keep the long back-off.
import { APIConnectionError, APIError } from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { describeFailure } from './retry'

const withCode = (code: string, message: string) => Object.assign(new Error(message), { code })

describe('describeFailure', () => {
  it.each([
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND gateway.invalid'],
    ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN gateway.example']
  ])('marks %s as unreachable, naming the cause', (code, message) => {
    const err = new APIConnectionError({ message: 'Connection error.', cause: withCode(code, message) })
    expect(describeFailure(err)).toMatchObject({ retryable: true, unreachable: true, message: `Could not reach the API: ${message}` })
    expect(describeFailure(withCode(code, message))).toMatchObject({ retryable: true, unreachable: true })
  })

  it('keeps the usual retries for a dropped connection and for 429, 500 and 529', () => {
    expect(describeFailure(withCode('ECONNRESET', 'socket hang up'))).toMatchObject({ retryable: true, message: 'The connection dropped: socket hang up' })
    expect(describeFailure(withCode('ECONNRESET', 'x')).unreachable).toBeUndefined()
    for (const status of [429, 500, 529]) {
      const info = describeFailure(APIError.generate(status, { error: { type: 'api_error', message: 'busy' } }, 'busy', new Headers()))
      expect(info).toMatchObject({ retryable: true, status })
      expect(info.unreachable).toBeUndefined()
    }
  })
})

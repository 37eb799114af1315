// The desktop transport over a stand-in preload: what a refused call rejects with.
import { describe, expect, it } from 'vitest'
import { settingsFieldErrors } from '../../../shared/settings-fields'
import { createElectronTransport } from './electron-transport'
import { CallError } from './types'

const preloadAnswering = (result: unknown) => ({
  onEvents: () => () => {},
  onNotice: () => () => {},
  call: async (name: string) => (name === 'settings.update' ? result : { ok: false, error: { code: 'unknown_call', message: name } }) as never
})

describe('electron transport', () => {
  it('rejects a refused call with the sentence for each field, besides its message, ready for the Settings form', async () => {
    const message =
      'settings.update: baseUrl: Enter an address that starts with http:// or https://, like https://gateway.example.com.; modelAliases.opus: Enter a full model id, like claude-sonnet-4-5; a single word is not one.'
    const fields = {
      baseUrl: 'Enter an address that starts with http:// or https://, like https://gateway.example.com.',
      'modelAliases.opus': 'Enter a full model id, like claude-sonnet-4-5; a single word is not one.',
      coordinator: 'Expected a boolean.'
    }
    const api = createElectronTransport(preloadAnswering({ ok: false, error: { code: 'invalid_request', message, fields } }))
    const err = await api.call('settings.update', {}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CallError)
    expect(err).toMatchObject({ code: 'invalid_request', message, fields })
    // Each sentence goes next to its field; one the form has no field for is said for the whole form.
    expect(settingsFieldErrors(err as CallError)).toEqual({
      fields: { baseUrl: fields.baseUrl, 'alias.opus': fields['modelAliases.opus'] },
      rest: ['coordinator: Expected a boolean.']
    })
  })

  it('keeps the message whole for an error about no field, and keeps only sentences as field errors', async () => {
    const api = createElectronTransport(
      preloadAnswering({ ok: false, error: { code: 'internal', message: 'settings.update failed: disk full', fields: { theme: 42 } } })
    )
    const err = (await api.call('settings.update', {}).catch((e: unknown) => e)) as CallError
    expect(err.fields).toEqual({})
    expect(settingsFieldErrors(err)).toEqual({ fields: {}, rest: ['settings.update failed: disk full'] })
  })
})

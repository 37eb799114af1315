// The Settings form's draft: what it refuses and the patch it sends once every field holds.
import { describe, expect, it } from 'vitest'
import { createRecordingHost } from '../../../shared/testing/recording-host'
import { draftErrors, draftPatch, toDraft } from './settings-draft'

const settings = async () => (await createRecordingHost().handlers['settings.get']({})).settings

describe('settings draft', () => {
  it('refuses text in number fields instead of saving it as no limit', async () => {
    const d = { ...toDraft(await settings()), maxBudgetUsd: 'abc', maxDepth: '2.5', maxTurns: '0', maxConcurrentAgents: '-3' }
    expect(draftErrors(d)).toEqual({
      maxBudgetUsd: 'Enter an amount in dollars, like 5 or 2.50.',
      maxDepth: 'Enter a whole number, like 3.',
      maxTurns: 'Enter a number from 1 to 10,000.',
      maxConcurrentAgents: 'Enter a number from 1 to 256.'
    })
  })

  it('sends an empty budget as no limit, and an alias at its default as "the default"', async () => {
    const s = await settings()
    const d = { ...toDraft(s), maxBudgetUsd: ' ', aliases: { ...toDraft(s).aliases, sonnet: 'gateway/sonnet-4' } }
    expect(draftErrors(d)).toEqual({})
    const patch = draftPatch(d, s.defaultModelAliases)
    expect(patch.limits).toMatchObject({ maxBudgetUsd: null, maxConcurrentAgents: 8 })
    expect(patch.modelAliases).toEqual({ haiku: null, sonnet: 'gateway/sonnet-4', opus: null })
    expect(patch.baseUrl).toBeNull()
  })
})

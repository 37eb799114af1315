import { describe, expect, it } from 'vitest'
import { PERMISSION_MODES } from '../../../shared/agent-definition'
import { MODE_LABEL } from './permission-modes'
import { choicesWithDefault } from './default-choice'

describe('a picker with a default entry', () => {
  it('names each permission mode once, the default as the default', () => {
    const modes = PERMISSION_MODES.filter((m) => m !== 'bubble')
    for (const current of modes) {
      const labels = choicesWithDefault(modes, current, (m) => MODE_LABEL[m as keyof typeof MODE_LABEL], 'Default permissions').map((c) => c.label)
      expect(new Set(labels).size, labels.join(' | ')).toBe(labels.length)
      expect(labels[0]).toBe(MODE_LABEL[current])
      expect(labels).toHaveLength(modes.length)
    }
  })

  it('lists a model alias once when it is the default model, and says what the default is before settings load', () => {
    expect(
      choicesWithDefault(
        ['haiku', 'sonnet', 'opus'],
        'sonnet',
        (m) => m,
        'Default model',
        (m) => `Model: ${m}`
      )
    ).toEqual([
      { value: '', label: 'Model: sonnet' },
      { value: 'haiku', label: 'haiku' },
      { value: 'opus', label: 'opus' }
    ])
    expect(choicesWithDefault(['haiku'], undefined, (m) => m, 'Default model')[0]).toEqual({ value: '', label: 'Default model' })
    expect(
      choicesWithDefault(
        ['haiku'],
        'opus',
        (m) => m,
        'Default model',
        (m) => `${m} (default)`
      )[0].label
    ).toBe('opus (default)')
  })
})

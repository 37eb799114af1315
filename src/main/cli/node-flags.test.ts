// A V8 flag the person chose is theirs, however they wrote it and wherever they passed it.
import { describe, expect, it } from 'vitest'
import { chosenOnCommandLine } from './node-flags'

describe('chosenOnCommandLine', () => {
  it('finds the flag on the command line, in either spelling, with or without its value or its negation', () => {
    expect(chosenOnCommandLine('expose-gc', ['--expose-gc'], '')).toBe(true)
    expect(chosenOnCommandLine('expose-gc', ['--expose_gc'], '')).toBe(true)
    expect(chosenOnCommandLine('lazy-feedback-allocation', ['--no-lazy-feedback-allocation'], '')).toBe(true)
    expect(chosenOnCommandLine('lazy-feedback-allocation', ['--max-old-space-size=512', '--lazy_feedback_allocation'], '')).toBe(true)
  })

  it('finds it in NODE_OPTIONS, which the command line does not show', () => {
    expect(chosenOnCommandLine('expose-gc', [], '--max-old-space-size=512  --expose-gc')).toBe(true)
  })

  it('is false when the person chose other flags or none', () => {
    expect(chosenOnCommandLine('expose-gc', [], '')).toBe(false)
    expect(chosenOnCommandLine('expose-gc', ['--enable-source-maps'], '--max-old-space-size=512')).toBe(false)
    // A value that merely holds the name is not the flag.
    expect(chosenOnCommandLine('expose-gc', ['--cpu-prof-dir=/tmp/expose-gc'], '--require ./expose-gc-hook.js')).toBe(false)
  })
})

// The option-file attacks held to the read-only classifier alone, against a project whose ~/.claude.json,
// outside folder and protected files exist: none may pass as read-only. The same commands with a file of
// the project in place of the target are read-only where the option is one the allowlist checks, so the
// refusal comes from the path check, not from refusing the option outright.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bashReadOnlyVerdict } from '../../src/main/runtime/permissions/bash-read-only'
import { rulesFrom } from '../../src/main/runtime/permissions/rules'
import { PathPolicy } from '../../src/main/runtime/security/path-policy'
import { makeWorld, type World } from './attack-kit'
import { HARMLESS, optionFileAttacks } from './bash-option-files'

let world: World
let policy: PathPolicy
beforeAll(async () => {
  world = await makeWorld()
  writeFileSync(join(world.home, '.claude.json'), '{"primaryApiKey": "x"}\n')
  policy = new PathPolicy({
    cwd: world.project,
    home: world.home,
    rules: () => rulesFrom({ deny: ['Read(./secrets/**)', 'Read(./srv/**)', 'Read(.env)'] }, 'project', world.project)
  })
})
afterAll(() => world?.close())

describe('options that take a file, against the read-only classifier', () => {
  it('passes none as read-only', () => {
    const attacks = optionFileAttacks(world)
    const passed = attacks
      .filter((a) => !HARMLESS.test(a.id) && bashReadOnlyVerdict(a.input.command as string, policy).readOnly)
      .map((a) => `${a.id}: ${a.input.command}`)
    console.log(`[attacks] option files (classifier): ${attacks.length} cases, ${passed.length} passed as read-only`)
    expect(passed).toEqual([])
  })

  it.each([
    'git blame --contents src/a.txt src/a.txt',
    'git blame --contents=src/a.txt src/a.txt',
    'git grep -f src/a.txt -- src',
    'grep -f src/a.txt README.md',
    'grep -if src/a.txt README.md',
    'rg -f src/a.txt README.md',
    'find . -newer README.md',
    'jq . -- data.json'
  ])('%s is read-only: the value is a project file', (c) => expect(bashReadOnlyVerdict(c, policy)).toEqual({ readOnly: true }))
})

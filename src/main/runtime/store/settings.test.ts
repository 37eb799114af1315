import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, loadSettings, parseSettings, settingsSchema, updateSettings } from './settings'
import { tempDataDir } from './test-fixtures'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())
const file = () => join(dataDir, 'settings.json')

/** The defaults, written out: a change to any of them shows here (DEFAULT_SETTINGS is checked against this). */
const DEFAULTS = {
  modelAliases: { haiku: 'claude-haiku-5-5', sonnet: 'claude-sonnet-5-5', opus: 'claude-opus-5-5' },
  limits: {
    maxConcurrent: 128,
    maxDepth: 3,
    maxAgentsPerSession: 200,
    budgetUsd: 0,
    budgetTokens: 0,
    maxTurns: 200,
    subagentBudgetUsd: 0,
    subagentBudgetTokens: 0,
    budgetWarnPercent: 80,
    approveFanoutAboveUsd: 0
  },
  context: { autoCompact: true, toolResultClearing: 'auto', keepToolResults: 5, windows: {} },
  defaultModel: 'sonnet',
  defaultPermissionMode: 'default',
  theme: 'system',
  coordinator: false,
  agentTeams: false,
  promptCacheSharing: 'first',
  firstRunSkipped: false,
  mergeStrategy: 'merge'
}

describe('settings', () => {
  it('gives the defaults when there is no file', async () => {
    const s = await loadSettings(dataDir)
    expect(s).toMatchObject({ exists: false, problems: [] })
    expect(s.settings).toEqual(DEFAULTS)
    expect(s.settings).toEqual(DEFAULT_SETTINGS)
  })

  it('writes out the defaults the schema gives (a run without a settings file builds no schema), keys in its order', () => {
    const fromSchema = settingsSchema().parse({})
    for (const settings of [DEFAULT_SETTINGS, parseSettings({}).settings, parseSettings(null).settings]) {
      expect(settings).toStrictEqual(fromSchema)
      expect(JSON.stringify(settings)).toBe(JSON.stringify(fromSchema))
    }
    // Each run gets its own copy.
    expect(parseSettings({}).settings.limits).not.toBe(parseSettings({}).settings.limits)
  })

  it('takes how agents that start together share the prompt cache, and refuses a mode that does not exist', async () => {
    await updateSettings(dataDir, { promptCacheSharing: 'prewarm' })
    expect((await loadSettings(dataDir)).settings.promptCacheSharing).toBe('prewarm')
    await expect(updateSettings(dataDir, { promptCacheSharing: 'sometimes' as never })).rejects.toThrow(/promptCacheSharing/)
    await writeFile(file(), JSON.stringify({ promptCacheSharing: 'always' }))
    const loaded = await loadSettings(dataDir)
    expect(loaded.settings.promptCacheSharing).toBe('first')
    expect(loaded.problems.join('\n')).toMatch(/promptCacheSharing.*using the default \("first"\)/)
  })

  it('keeps every good value and replaces each bad or unknown one by its default, saying where', async () => {
    await writeFile(
      file(),
      JSON.stringify({
        baseURL: 'ftp://nope',
        modelAliases: { sonnet: 'my-gateway/sonnet', opus: '' },
        limits: { maxConcurrent: 4, maxDepth: 'deep', maxConcurent: 9 },
        defaultPermissionMode: 'acceptEdits',
        theme: 'dark',
        colour: 'red',
        coordinator: 'yes',
        agentTeams: true,
        context: { autoCompactPercent: 5, toolResultClearing: 'server', windows: { 'gateway/model': 64_000 } }
      })
    )
    const before = await readFile(file(), 'utf8')
    const { settings, problems } = await loadSettings(dataDir)
    expect(settings).toEqual({
      ...DEFAULTS,
      modelAliases: { ...DEFAULTS.modelAliases, sonnet: 'my-gateway/sonnet' },
      limits: { ...DEFAULTS.limits, maxConcurrent: 4 },
      context: { ...DEFAULTS.context, windows: { 'gateway/model': 64_000 } },
      defaultPermissionMode: 'acceptEdits',
      theme: 'dark',
      agentTeams: true
    })
    expect(problems.sort()).toEqual(
      [
        `${file()}: baseURL: must be an http(s) URL; using the default`,
        `${file()}: modelAliases.opus: must be a model id; using the default ("claude-opus-5-5")`,
        `${file()}: limits.maxDepth: Invalid input: expected number, received string; using the default (3)`,
        `${file()}: unknown setting "limits.maxConcurent" ignored`,
        `${file()}: unknown setting "colour" ignored`,
        `${file()}: coordinator: Invalid input: expected boolean, received string; using the default (false)`,
        `${file()}: context.autoCompactPercent: must be between 10 and 100; using the default`,
        `${file()}: context.toolResultClearing: Invalid option: expected one of "auto"|"api"|"local"|"off"; using the default ("auto")`
      ].sort()
    )
    expect(await readFile(file(), 'utf8')).toBe(before) // loading never rewrites the user's file
  })

  it('sets and clears the compaction threshold; null takes it back to the default', async () => {
    const set = await updateSettings(dataDir, { context: { autoCompactPercent: 70, toolResultClearing: 'local' } })
    expect(set.context).toMatchObject({ autoCompactPercent: 70, toolResultClearing: 'local', autoCompact: true })
    const cleared = await updateSettings(dataDir, { context: { autoCompactPercent: null } })
    expect(cleared.context.autoCompactPercent).toBeUndefined()
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({ context: { toolResultClearing: 'local' } })
    await expect(updateSettings(dataDir, { context: { autoCompactPercent: 101 } })).rejects.toThrow(
      'Invalid setting context.autoCompactPercent: must be between 10 and 100; nothing was saved'
    )
  })

  it('falls back to defaults for a file that is not JSON, naming the file', async () => {
    await writeFile(file(), '{ "theme": "dark", ')
    const s = await loadSettings(dataDir)
    expect(s.settings).toEqual(DEFAULT_SETTINGS)
    expect(s.problems[0]).toMatch(new RegExp(`^${file()} is not valid JSON: .*; using defaults \\(the file is left untouched\\)$`))
  })

  it('updates only what the patch names, keeping keys this version does not know', async () => {
    await writeFile(file(), JSON.stringify({ theme: 'light', futureKey: { a: 1 }, limits: { maxDepth: 2 } }))
    const s = await updateSettings(dataDir, { limits: { budgetUsd: 5 }, baseURL: 'http://127.0.0.1:8080' })
    expect(s.limits).toEqual({ ...DEFAULTS.limits, maxDepth: 2, budgetUsd: 5 })
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({
      theme: 'light',
      futureKey: { a: 1 },
      limits: { maxDepth: 2, budgetUsd: 5 },
      baseURL: 'http://127.0.0.1:8080'
    })
    await updateSettings(dataDir, { baseURL: null })
    expect((await loadSettings(dataDir)).settings.baseURL).toBeUndefined()
    await updateSettings(dataDir, { coordinator: true })
    expect((await loadSettings(dataDir)).settings).toMatchObject({ coordinator: true, agentTeams: false, theme: 'light' })
  })

  it('refuses an invalid patch or a file being edited, changing nothing', async () => {
    await expect(updateSettings(dataDir, { limits: { maxConcurrent: 0 } })).rejects.toThrow(/^Invalid setting limits\.maxConcurrent: .*nothing was saved$/)
    await expect(updateSettings(dataDir, { limits: { maxConcurent: 3 } as never })).rejects.toThrow(/Invalid setting limits\.maxConcurent/)
    await writeFile(file(), '{ broken')
    await expect(updateSettings(dataDir, { theme: 'dark' })).rejects.toThrow(`${file()} is not valid JSON`)
    expect(await readFile(file(), 'utf8')).toBe('{ broken')
  })
})

// A session's effort and thinking, from where Claude Code users set them, highest first:
//   the session's own choice (`--effort`, CLAUDE_CODE_EFFORT_LEVEL, the new-session form),
//   `effortLevel` in the Claude Code settings files (local over project over user; managed last wins as in Claude Code),
//   Fanout's own default (the `defaultEffort` setting),
//   else each model's default (effort.ts).
// `alwaysThinkingEnabled: false` in those files turns thinking off where the model allows it.
import type { Effort } from './types'
import { readEffort, type EffortSetting } from './effort'

export interface EffortSettings {
  effort?: EffortSetting
  thinking?: boolean
  /** Values that could not be read, as sentences naming the file. */
  problems: string[]
}

/** `effortLevel` and `alwaysThinkingEnabled` of the settings files (lowest precedence first: the last one set wins). */
export function effortFromSettingsFiles(files: ReadonlyArray<{ file: string; json: Record<string, unknown> }>): EffortSettings {
  const out: EffortSettings = { problems: [] }
  for (const f of files) {
    const level = f.json.effortLevel
    if (level !== undefined) {
      const read = readEffort(level)
      if (typeof read === 'string') out.effort = read as Effort
      else out.problems.push(`${f.file}: effortLevel must be low, medium, high, xhigh or max, not ${JSON.stringify(level)}; it was ignored`)
    }
    const thinking = f.json.alwaysThinkingEnabled
    if (thinking !== undefined) {
      if (typeof thinking === 'boolean') out.thinking = thinking
      else out.problems.push(`${f.file}: alwaysThinkingEnabled must be true or false, not ${JSON.stringify(thinking)}; it was ignored`)
    }
  }
  return out
}

/** CLAUDE_CODE_EFFORT_LEVEL, or why it cannot be used. */
export function effortFromEnv(env: Record<string, string | undefined>): { effort?: EffortSetting; problem?: string } {
  const raw = env.CLAUDE_CODE_EFFORT_LEVEL
  if (raw === undefined || raw.trim() === '') return {}
  const read = readEffort(raw)
  return read === undefined ? { problem: `CLAUDE_CODE_EFFORT_LEVEL must be low, medium, high, xhigh or max, not '${raw}'; it was ignored` } : { effort: read }
}

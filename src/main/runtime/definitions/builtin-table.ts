// The built-in agents as the CLI's build parsed them (scripts/build.mjs puts the table in the bundle as
// __FANOUT_BUILTIN_AGENTS_JSON__): every `fanout run` reads agents/ before its first model request, and
// parsing those files there (frontmatter, then each field's zod schema, the first ones built paying for
// warming zod up) was ~5 ms of it. The files are still read: a file whose text is what the build parsed
// takes the build's result, any other (an edited checkout) is parsed as before. Elsewhere (tests, the app)
// there is no table. The build makes it with parseAgentMarkdown itself, and a test compares the two.
import type { ParsedAgent } from './parse'
import { parseAgentMarkdown } from './parse'

/** One built-in agent file: its text, and what parsing it gave, with `file` the path relative to agents/. */
export interface BuiltinAgentRecord {
  text: string
  parsed: ParsedAgent
}

/** By path relative to the built-in folder, with `/` separators. */
export type BuiltinAgentTable = Record<string, BuiltinAgentRecord>

declare const __FANOUT_BUILTIN_AGENTS_JSON__: BuiltinAgentTable | undefined

const builtTable: BuiltinAgentTable | undefined = typeof __FANOUT_BUILTIN_AGENTS_JSON__ === 'undefined' ? undefined : __FANOUT_BUILTIN_AGENTS_JSON__

const relativeKey = (rel: string): string => rel.split(/[\\/]/).join('/')

/** Parses one built-in file as the loader does, but with its path relative to the folder: the table's entry. */
export function builtinAgentRecord(rel: string, text: string): BuiltinAgentRecord {
  return { text, parsed: parseAgentMarkdown(text, relativeKey(rel), 'built-in') }
}

/**
 * The build's parse of the built-in file at `file` (`rel` below the folder), when the table has that file
 * with this exact text: the same result parseAgentMarkdown gives, its paths made absolute and the prompt's
 * placeholders filled in. Undefined otherwise: the caller parses the file.
 */
export function builtParse(
  rel: string,
  file: string,
  text: string,
  placeholders: Record<string, string> | undefined,
  fill: (prompt: string, placeholders: Record<string, string> | undefined) => string,
  table: BuiltinAgentTable | undefined = builtTable
): ParsedAgent | undefined {
  const record = table?.[relativeKey(rel)]
  if (!record || record.text !== text) return undefined
  // A copy: callers may change what they are given. (JSON, the table's own form: structuredClone would load
  // Node's MessageChannel.)
  const { definition, diagnostics } = JSON.parse(JSON.stringify(record.parsed)) as ParsedAgent
  for (const d of diagnostics) d.file = file
  if (!definition) return { diagnostics }
  return { definition: { ...definition, systemPrompt: fill(definition.systemPrompt, placeholders), file }, diagnostics }
}

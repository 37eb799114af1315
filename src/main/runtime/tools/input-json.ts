// The JSON schemas of the tools' inputs as the CLI's build computed them (scripts/build.mjs): `fanout run`
// sends every tool's schema in its first request, and making them from zod there (building each schema, then
// z.toJSONSchema) was ~10% of its start. Elsewhere (tests, the app) there is no table and define-tool.ts makes
// each from its zod schema with the function that made the table, so both send the same bytes.
declare const __FANOUT_TOOL_INPUT_JSON__: Record<string, Record<string, unknown>> | undefined

const table: Record<string, Record<string, unknown>> | undefined = typeof __FANOUT_TOOL_INPUT_JSON__ === 'undefined' ? undefined : __FANOUT_TOOL_INPUT_JSON__

/**
 * The build's JSON schema for a ToolInput's key, if it made one: one object per key, shared by every agent's
 * tool as the schema converted from zod is (model/tools-json.ts keeps each one's text by it).
 */
export function builtInputJson(key: string): Record<string, unknown> | undefined {
  return table?.[key]
}

// jq programs are read-only except for what they can reach beyond their input: the environment (`env`,
// `$ENV`), other files (`import`, `include`, `input_filename`'s siblings through modules) and the module
// search path. A filter naming any of those is not read-only; the check is on the whole text, string
// interpolations included, because `"\(env.KEY)"` reads the environment as well.
const OUTSIDE_INPUT = /\$?\b(env|ENV|import|include|modulemeta|get_search_list|get_prog_origin|get_jq_origin|input_filename|\$__prog_args)\b/

export function checkJqFilter(filter: string): string | null {
  const m = OUTSIDE_INPUT.exec(filter)
  return m ? `the jq filter uses ${m[0]}, which reaches beyond its input` : null
}

// The yaml library, reached through a call. In the CLI's bundle (scripts/build.mjs) this module is replaced by
// one that requires yaml at the first call: its 72 modules were evaluated at every `fanout run` start, though a
// plain run parses no YAML before its first request (the built-in agents come parsed by the build,
// definitions/builtin-table.ts, and flat frontmatter is read without yaml, definitions/flat-yaml.ts). Here,
// for the app and tests, it is the one copy every module imports.
import * as yaml from 'yaml'

export const yamlLib = (): typeof yaml => yaml

// Run by the CLI's build only (scripts/build.mjs): the built-in agents parsed (definitions/builtin-table.ts),
// which the build puts in the bundle so that `fanout run` does not parse them before its first request.
// Read as the loader reads them (definitions/sources.ts): the same scan of the folder, the same bounded read.
import { basename } from 'node:path'
import { defaultBuiltinDir } from '../runtime/definitions/builtins'
import { builtinAgentRecord, type BuiltinAgentTable } from '../runtime/definitions/builtin-table'
import { MAX_AGENT_FILE_CHARS } from '../runtime/definitions/parse'
import { scanAgentDir } from '../runtime/definitions/scan'
import { readConfigFile } from '../runtime/store/read-config'

export async function builtinAgentTable(dir: string = defaultBuiltinDir()): Promise<BuiltinAgentTable> {
  const table: BuiltinAgentTable = {}
  for (const file of (await scanAgentDir(dir)).files) {
    const read = readConfigFile(file.path, MAX_AGENT_FILE_CHARS * 4)
    if (!('text' in read) || read.text.length > MAX_AGENT_FILE_CHARS) continue
    const rel = [...file.namespace, basename(file.path)].join('/')
    table[rel] = builtinAgentRecord(rel, read.text)
  }
  return table
}

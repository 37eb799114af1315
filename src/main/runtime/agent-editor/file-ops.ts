// Creating, duplicating, renaming, moving and deleting agent files. None of them ever overwrites another
// file, and those that replace a file the editor had open check it is still the version the editor read.
import { access } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { AgentScope, FileVersion } from '../../../shared/agent-editor'
import { checkAgentName, requireEditable, scopeDirs, type AgentPathContext } from './agent-paths'
import { applyFieldChanges } from './edit-fields'
import { AgentFileError, readVersioned, removeChecked, saveChecked, writeAtomic } from './file-store'
import { readFrontmatterDoc } from './frontmatter-doc'
import { templateText } from './templates'

const exists = (p: string): Promise<boolean> =>
  access(p).then(
    () => true,
    () => false
  )
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,90}$/

async function refuseExisting(file: string): Promise<void> {
  if (await exists(file)) throw new AgentFileError('conflict', `${file} already exists; choose another name.`)
}

function withName(text: string, name: string): string {
  const edited = applyFieldChanges(text, [{ key: 'name', value: name }])
  if (!edited.ok) throw new AgentFileError('invalid_request', `Cannot set the name: ${edited.message}`)
  return edited.text
}

export async function createAgentFile(ctx: AgentPathContext, scope: AgentScope, name: string, template: string): Promise<string> {
  const clean = checkAgentName(name)
  const text = templateText(template, clean)
  if (!text) throw new AgentFileError('invalid_request', `There is no template "${template}".`)
  const file = join(scopeDirs(ctx)[scope], `${clean}.md`)
  await refuseExisting(file)
  const saved = await saveChecked(file, text, null)
  if ('conflict' in saved) throw new AgentFileError('conflict', `${file} appeared while it was being created; nothing was overwritten.`)
  return file
}

/** A copy named `<name>-copy` (then `-copy-2`, ...) in the given scope, or next to the original. */
export async function duplicateAgentFile(ctx: AgentPathContext, file: string, text: string, scope?: AgentScope): Promise<string> {
  const dir = scope ? scopeDirs(ctx)[scope] : dirname(file)
  requireEditable(join(dir, 'x.md'), ctx)
  // Named after the agent (built-ins' files are numbered: 2-Explore.md holds Explore), else after the file.
  const doc = readFrontmatterDoc(text)
  const own = doc.ok && typeof doc.data.name === 'string' && PLAIN.test(doc.data.name) ? doc.data.name : undefined
  const stem = own ?? basename(file).replace(/\.md$/i, '')
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? `${stem}-copy` : `${stem}-copy-${n}`
    const target = join(dir, `${name}.md`)
    if (await exists(target)) continue
    const saved = await saveChecked(target, withName(text, name), null)
    if ('version' in saved) return target
  }
  throw new AgentFileError('conflict', `Could not find a free name for a copy of ${stem}.`)
}

/**
 * Renames the file and the `name` field together, writing `text` (the editor's draft) under the new name.
 * The old file must still be at `base`; it is removed only once the new one is written.
 */
export async function renameAgentFile(
  ctx: AgentPathContext,
  file: string,
  name: string,
  text: string,
  base: FileVersion | null
): Promise<{ file: string; version: FileVersion }> {
  requireEditable(file, ctx)
  const clean = checkAgentName(name)
  const target = join(dirname(file), `${clean}.md`)
  const renamed = withName(text, clean)
  if (target === file) {
    const saved = await saveChecked(file, renamed, base)
    if ('conflict' in saved)
      throw new AgentFileError('conflict', `${basename(file)} changed on disk since it was opened; reload it or keep your version first.`)
    return { file, version: saved.version }
  }
  await refuseExisting(target)
  const current = await readVersioned(file)
  if (current && base && current.version.hash !== base.hash)
    throw new AgentFileError('conflict', `${basename(file)} changed on disk since it was opened; reload it or keep your version first.`)
  const saved = await saveChecked(target, renamed, null)
  if ('conflict' in saved) throw new AgentFileError('conflict', `${target} appeared meanwhile; nothing was overwritten.`)
  await removeChecked(file, current?.version ?? null)
  return { file: target, version: saved.version }
}

/** Moves a file between the user and project folders (same file name), keeping its bytes. */
export async function moveAgentFile(ctx: AgentPathContext, file: string, scope: AgentScope, base: FileVersion | null): Promise<string> {
  const from = requireEditable(file, ctx)
  if (from === scope) throw new AgentFileError('invalid_request', `${basename(file)} is already a ${scope} agent.`)
  const target = join(scopeDirs(ctx)[scope], basename(file))
  await refuseExisting(target)
  const current = await readVersioned(file)
  if (!current) throw new AgentFileError('not_found', `${file} no longer exists.`)
  if (base && current.version.hash !== base.hash)
    throw new AgentFileError('conflict', `${basename(file)} changed on disk since it was opened; reload it first.`)
  await writeAtomic(target, current.text)
  const removed = await removeChecked(file, current.version)
  if ('conflict' in removed) throw new AgentFileError('conflict', `${basename(file)} changed while it was being moved; both copies were kept.`)
  return target
}

export async function deleteAgentFile(ctx: AgentPathContext, file: string, base: FileVersion | null): Promise<void> {
  requireEditable(file, ctx)
  const removed = await removeChecked(file, base)
  if ('conflict' in removed)
    throw new AgentFileError('conflict', `${basename(file)} changed on disk since it was opened; it was not deleted. Reload it and try again.`)
}

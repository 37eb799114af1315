// The part Read, Write, Edit and NotebookEdit share: the agent's file state, and the file a call names resolved
// through the one path check (the agent's cwd, `~`, symlinks, deny rules) before the tool sees it. The tool
// then touches only `real`, the target that check approved, through security/open-beneath.ts, which refuses
// the call if a swapped link would send it anywhere else.
import type { z } from 'zod'
import { FileRefusal, plannedTarget } from '../security/open-beneath'
import type { Access, PathPolicy } from '../security/path-policy'
import { heldMessage, placeholderAt, placeholderOnTheWay, type PlaceholderInfo } from '../security/placeholders'
import { realTarget } from '../security/real-target'
import type { BuiltinTool, BuiltinToolMeta } from './builtin-tool'
import { defineTool, type Tool, type ToolContext, type ToolMeta, type ToolResult, type ToolSpec } from './define-tool'
import { FileState } from './file-state'
import { displayPath, isInside } from './paths'
import { pathPolicyOf, type ToolOptions } from './tool-options'

/** The file a call names, as the tool works on it. */
export interface FileTarget {
  /** As written (absolute): the key of the agent's file state, and what hooks and the model are told. */
  abs: string
  /** Where it really leads, as the path check judged it: the only place the tool opens. */
  real: string
  /** As the model is shown it (relative to cwd when inside). */
  shown: string
  fileState: FileState
  paths: PathPolicy
}

export interface FileToolSpec<S extends z.ZodType> extends Omit<ToolSpec<S>, 'execute' | keyof ToolMeta> {
  meta: ToolMeta
  /** The input field that names the file. */
  pathField: 'file_path' | 'notebook_path'
  /** What the call does to the file: each access is checked against the deny rules, in this order. */
  access: readonly Access[]
  execute(input: z.infer<S>, file: FileTarget, ctx: ToolContext): Promise<ToolResult>
}

/** A built-in tool on one file: `build` returns its definition, and `execute` gets the file resolved and checked. */
export function fileTool<S extends z.ZodType>(meta: BuiltinToolMeta, build: (opts: ToolOptions) => Omit<FileToolSpec<S>, 'meta'>): BuiltinTool {
  return { meta, create: (opts) => defineFileTool(opts, { ...build(opts), meta }) }
}

function defineFileTool<S extends z.ZodType>(opts: ToolOptions, spec: FileToolSpec<S>): Tool {
  const fileState = opts.fileState ?? new FileState()
  const paths = pathPolicyOf(opts)
  const { meta, pathField, access, execute, ...rest } = spec
  return defineTool({
    ...meta,
    ...rest,
    async execute(input, ctx) {
      const abs = paths.absolute((input as Record<string, string>)[pathField])
      for (const a of access) {
        const refused = paths.check(meta.name, abs, a)
        if (refused) return { content: refused, isError: true }
      }
      const shown = displayPath(paths.cwd, abs)
      try {
        // Where the path leads is judged once, here, and that one answer is what gets checked and opened:
        // asking again later could get another answer from a link swapped in between.
        const real = plannedTarget(abs, shown)
        for (const a of access) {
          const refused = paths.check(meta.name, real, a)
          if (refused) return { content: refused, isError: true }
        }
        // A path written inside the working directories never leads out of them: a link to outside there is
        // either planted or being swapped in while the call runs (the permission layer judged it a moment ago).
        // Naming the outside file itself is asked for like any other outside path.
        if (leadsOut(paths, abs, real))
          return {
            content: `${meta.name} refused ${shown}: it is inside the working directories as written, but a symbolic link on the way leads outside them. Use the real path if you mean the file there.`,
            isError: true
          }
        return await execute(input, { abs, real, shown, fileState, paths }, ctx)
      } catch (err) {
        if (err instanceof FileRefusal) return { content: err.message, isError: true }
        throw err
      }
    }
  })
}

/** True when `abs` lies inside a working directory as written but `real`, where it leads, lies outside them all. */
export function leadsOut(paths: PathPolicy, abs: string, real: string): boolean {
  return paths.roots().some((r) => isInside(r, abs)) && !paths.inBounds(real)
}

/**
 * Where a search's root really leads, judged once (Glob, Grep): the folder the search then reads beneath (a link
 * swapped in later cannot move it), or the refusal. A root written inside the working directories must lead inside them.
 */
export function searchRoot(tool: 'Glob' | 'Grep', paths: PathPolicy, cwd: string, root: string): { rootReal: string } | ToolResult {
  const refused = paths.check(tool, root, 'read')
  if (refused) return { content: refused, isError: true }
  const rootReal = realTarget(root)
  if (rootReal === null) return { content: `${displayPath(cwd, root)} cannot be resolved (a symbolic link loop).`, isError: true }
  const refusedReal = paths.check(tool, rootReal, 'read')
  if (refusedReal) return { content: refusedReal, isError: true }
  if (leadsOut(paths, root, rootReal))
    return {
      content: `${tool} refused ${displayPath(cwd, root)}: it is inside the working directories as written, but a symbolic link on the way leads outside them. Use the real path if you mean the folder there.`,
      isError: true
    }
  return { rootReal }
}

/**
 * A placeholder of the Bash sandbox is no file: writing over an empty-file placeholder creates the file, but a
 * placeholder folder at or above the path holds it while its command runs. The refusal then, else null.
 */
export function heldByPlaceholder(file: FileTarget): { placeholder: PlaceholderInfo | null; refusal: ToolResult | null } {
  const placeholder = placeholderAt(file.abs)
  const held = placeholder?.kind === 'dir' ? placeholder : placeholderOnTheWay(file.abs)
  return { placeholder, refusal: held ? { content: heldMessage(held, displayPath(file.paths.cwd, held.path)), isError: true } : null }
}

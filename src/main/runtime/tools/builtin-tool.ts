// A built-in tool as its file declares it: its metadata (read from here by the registry and the permission
// layer, never restated) and how to build it for one agent. Registering it is one line in registry.ts.
import type { z } from 'zod'
import type { PathPolicy } from '../security/path-policy'
import { defineTool, type PermissionKind, type Tool, type ToolMeta, type ToolSpec } from './define-tool'
import { pathPolicyOf, type BuiltinToolOptions } from './tool-options'

export type BuiltinToolMeta = ToolMeta & { permission: PermissionKind }

export interface BuiltinTool {
  meta: BuiltinToolMeta
  create(opts: BuiltinToolOptions): Tool
}

/** `build` gets the agent's options and its one path check, and returns the rest of the tool's definition. */
export function builtinTool<S extends z.ZodType>(
  meta: BuiltinToolMeta,
  build: (opts: BuiltinToolOptions, paths: PathPolicy) => Omit<ToolSpec<S>, keyof ToolMeta>
): BuiltinTool {
  return { meta, create: (opts) => defineTool({ ...build(opts, pathPolicyOf(opts)), ...meta }) }
}

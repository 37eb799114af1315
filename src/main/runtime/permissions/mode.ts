// Which permission mode a subagent runs in.
import type { PermissionMode } from '../../../shared/agent-definition'

/**
 * A subagent inherits its parent's mode unless its definition sets one. A parent in bypassPermissions or
 * acceptEdits wins (the user already granted that much), and so does a parent in plan mode: a user who asked
 * for a read-only plan must not get edits from a subagent whose file says `permissionMode: acceptEdits`.
 */
export function effectiveMode(parentMode: PermissionMode, definitionMode?: PermissionMode): PermissionMode {
  if (parentMode === 'bypassPermissions' || parentMode === 'acceptEdits' || parentMode === 'plan') return parentMode
  return definitionMode ?? parentMode
}

// Permission modes in the words the pickers use.
import type { PermissionMode } from '../../../shared/agent-definition'

export const MODE_LABEL: Record<PermissionMode, string> = {
  default: 'Ask before changes',
  acceptEdits: 'Accept edits',
  plan: 'Plan only (read-only)',
  dontAsk: 'Don’t ask (deny unlisted)',
  bypassPermissions: 'Bypass permissions',
  bubble: 'Bubble to parent'
}

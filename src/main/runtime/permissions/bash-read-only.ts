// Commands that only look: auto-allowed like the read-only tools (and the only Bash allowed in plan mode),
// so an agent can `ls`, `git status` or `git log` without a prompt. The classification is an allowlist
// (shell/classify.ts: commands, options, shell syntax), and every file such a command reads goes through the
// same path check as the Read tool (security/path-policy.ts): inside the working directories, and not
// protected by a Read deny rule.
import type { PathPolicy } from '../security/path-policy'
import { classifyReadOnly, type ReadOnlyVerdict } from './shell/classify'

export type { ReadOnlyVerdict }

export function bashReadOnlyVerdict(command: string, policy: PathPolicy): ReadOnlyVerdict {
  return classifyReadOnly(command, {
    cwd: policy.cwd,
    home: policy.home,
    checkRead: (abs) => policy.bashReadRefusal(abs),
    protectedUnder: (dir) => policy.bashRecursiveRefusal(dir)
  })
}

/** The whole command only reads what it may. */
export function isReadOnlyBashCommand(command: string, policy: PathPolicy): boolean {
  return bashReadOnlyVerdict(command, policy).readOnly
}

/**
 * acceptEdits: the command only reads what it may and changes files inside the working directories that are
 * neither protected nor denied (shell/file-edit-commands.ts), as Claude Code lets it run without asking.
 */
export function bashFileEditVerdict(command: string, policy: PathPolicy): ReadOnlyVerdict {
  return classifyReadOnly(command, {
    cwd: policy.cwd,
    home: policy.home,
    checkRead: (abs) => policy.bashReadRefusal(abs),
    protectedUnder: (dir) => policy.bashRecursiveRefusal(dir),
    checkWrite: (abs, how) => policy.bashWriteRefusal(abs, how)
  })
}

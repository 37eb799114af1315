// The commands acceptEdits lets Bash run without asking, as Claude Code 2.1.328 does (seen side by side in
// test/differential/accept-edits.test.ts): touch, mkdir, cp, mv, rm and rmdir, and output redirected into a
// file (`echo x > f`, `>> f`), besides every read-only command. Like the read-only list it is an allowlist of
// options, and every path such a command writes goes through the one write check (inside the working
// directories, no Edit deny rule, no protected path: path-policy.ts bashWriteRefusal); what it reads, through
// the read check. chmod, ln, tee, sed -i and the rest still ask, as in Claude Code. The command still runs in
// the workspace sandbox, which refuses protected paths whatever this list says.
import type { Arg, CommandEnv } from './command-check'
import { parseOptions, type OptionSpec } from './options'

export interface EditEnv extends CommandEnv {
  /** A file or folder the command changes (created, written, moved, removed): null when it may, else why not. */
  writePath(arg: Arg, how?: { tree?: boolean }): string | null
}

type EditCheck = (args: Arg[], env: EditEnv) => string | null

/** `tree`: the command may change everything below a folder it names (rm -r, mv, cp -r into). */
function edits(spec: OptionSpec, roles: (operands: Arg[], options: string[]) => { read: Arg[]; write: Arg[]; tree: boolean } | string): EditCheck {
  return (args, env) => {
    if (args.some((a) => a.glob && a.value.startsWith('-'))) return 'a glob where an option could be'
    const r = parseOptions(
      args.map((a) => a.value),
      spec
    )
    if (!r.ok) return r.why
    const operands = r.parsed.operands.map((i) => args[i])
    if (!operands.length) return 'no file named'
    const role = roles(
      operands,
      r.parsed.options.map((o) => o.name)
    )
    if (typeof role === 'string') return role
    for (const a of role.read) {
      const why = env.readPath(a, { recursive: role.tree })
      if (why) return why
    }
    for (const a of role.write) {
      const why = env.writePath(a, { tree: role.tree })
      if (why) return why
    }
    return null
  }
}

const recursive = (options: string[]) => options.some((o) => ['-r', '-R', '--recursive', '-a', '--archive'].includes(o))

export const FILE_EDIT_COMMANDS: Readonly<Record<string, EditCheck>> = {
  touch: edits({ short: 'acm', long: ['--no-create'] }, (operands) => ({ read: [], write: operands, tree: false })),
  mkdir: edits({ short: 'pv', long: ['--parents', '--verbose'] }, (operands) => ({ read: [], write: operands, tree: false })),
  rmdir: edits({ short: 'pv', long: ['--parents', '--verbose', '--ignore-fail-on-non-empty'] }, (operands, options) =>
    // -p removes the parents too: each of them is a path written.
    options.includes('-p') || options.includes('--parents') ? 'rmdir -p' : { read: [], write: operands, tree: false }
  ),
  rm: edits({ short: 'rRfvd', long: ['--recursive', '--force', '--verbose', '--dir'] }, (operands, options) => ({
    read: [],
    write: operands,
    tree: recursive(options)
  })),
  cp: edits({ short: 'rRfnvpai', long: ['--recursive', '--force', '--no-clobber', '--verbose', '--archive', '--interactive'] }, (operands, options) =>
    operands.length < 2 ? 'cp with one operand' : { read: operands.slice(0, -1), write: operands.slice(-1), tree: recursive(options) }
  ),
  // A moved folder takes everything in it along: its whole tree is written, where it was and where it goes.
  mv: edits({ short: 'fnvi', long: ['--force', '--no-clobber', '--verbose', '--interactive'] }, (operands) =>
    operands.length < 2 ? 'mv with one operand' : { read: [], write: operands, tree: true }
  )
}

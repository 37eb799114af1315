// Reads back what a sandbox-runtime wrap asked bubblewrap to mount. The library keeps the mount points it
// makes for absent protected paths to itself (a module-private set), so Fanout learns them from the command
// line it was handed: the words before `--`, shell-quoted by the library's own `quote()` (bare words, or
// single quotes with `'"'"'` for a quote inside), or, when that line would be too long, the NUL-separated
// words of the profile file it opened and named as `srt-args /proc/<pid>/fd/<n>`.
import { readFileSync } from 'node:fs'

/** A mount bubblewrap performs: `source` (absent for tmpfs/dir) onto `dest`, a path on the host. */
export interface BwrapMount {
  op: string
  source?: string
  dest: string
}

/** Options and how many words follow each (bubblewrap 0.4–0.11). A word not listed stops the reading. */
const ARITY: Record<string, number> = {
  '--bind': 2,
  '--bind-try': 2,
  '--ro-bind': 2,
  '--ro-bind-try': 2,
  '--dev-bind': 2,
  '--dev-bind-try': 2,
  '--file': 2,
  '--bind-data': 2,
  '--ro-bind-data': 2,
  '--symlink': 2,
  '--chmod': 2,
  '--setenv': 2,
  '--overlay-src': 1,
  '--tmpfs': 1,
  '--dir': 1,
  '--dev': 1,
  '--proc': 1,
  '--mqueue': 1,
  '--remount-ro': 1,
  '--unsetenv': 1,
  '--chdir': 1,
  '--uid': 1,
  '--gid': 1,
  '--hostname': 1,
  '--perms': 1,
  '--size': 1,
  '--args': 1,
  '--argv0': 1,
  '--userns': 1,
  '--userns2': 1,
  '--pidns': 1,
  '--sync-fd': 1,
  '--info-fd': 1,
  '--json-status-fd': 1,
  '--block-fd': 1,
  '--userns-block-fd': 1,
  '--seccomp': 1,
  '--add-seccomp-fd': 1,
  '--exec-label': 1,
  '--file-label': 1,
  '--lock-file': 1,
  '--cap-add': 1,
  '--cap-drop': 1,
  '--tmp-overlay': 1,
  '--ro-overlay': 1,
  '--overlay': 3,
  '--new-session': 0,
  '--die-with-parent': 0,
  '--as-pid-1': 0,
  '--clearenv': 0,
  '--disable-userns': 0,
  '--assert-userns-disabled': 0,
  '--share-net': 0,
  '--unshare-all': 0,
  '--unshare-user': 0,
  '--unshare-user-try': 0,
  '--unshare-ipc': 0,
  '--unshare-pid': 0,
  '--unshare-net': 0,
  '--unshare-uts': 0,
  '--unshare-cgroup': 0,
  '--unshare-cgroup-try': 0,
  '--level-prefix': 0
}

/** Operations that make their destination (a file or folder on the host when it is missing there). */
export const MAKES_DEST = new Set(['--bind', '--ro-bind', '--dev-bind', '--file', '--bind-data', '--ro-bind-data', '--tmpfs', '--dir'])

/** The words of a POSIX shell line, up to (not including) the first unquoted `--`, or null if it cannot be read. */
export function shellWords(line: string, stopAt = '--'): string[] | null {
  const words: string[] = []
  let i = 0
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i])) i++
    if (i >= line.length) break
    let word = ''
    let quoted = false
    while (i < line.length && !/\s/.test(line[i])) {
      const c = line[i]
      if (c === "'") {
        const end = line.indexOf("'", i + 1)
        if (end < 0) return null
        word += line.slice(i + 1, end)
        quoted = true
        i = end + 1
      } else if (c === '"') {
        let j = i + 1
        for (; j < line.length && line[j] !== '"'; j++) {
          if (line[j] === '\\' && '"\\$`\n'.includes(line[j + 1] ?? '')) j++
          word += line[j]
        }
        if (j >= line.length) return null
        quoted = true
        i = j + 1
      } else if (c === '\\') {
        word += line[i + 1] ?? ''
        i += 2
      } else if ('|&;<>()$`'.includes(c)) {
        // An operator or an expansion: not a line the library writes.
        return null
      } else {
        word += c
        i++
      }
    }
    if (!quoted && word === stopAt) return words
    words.push(word)
  }
  return words
}

/** bubblewrap's argument list (without its binary), the profile file's words put back where `--args` stood. */
export function bwrapArguments(command: string, readProfile: (path: string) => string = (p) => readFileSync(p, 'latin1')): string[] | null {
  const words = shellWords(command)
  if (!words || words.length === 0) return null
  // The long form: /bin/sh -c 'exec 9<"$1" && shift && exec "$@"' srt-args <profile> <bwrap> … --args 9 …
  if (words[3] === 'srt-args' && words.length > 5) {
    const rest = words.slice(6)
    const at = rest.indexOf('--args')
    if (at < 0) return null
    let profile: string
    try {
      profile = readProfile(words[4])
    } catch {
      return null
    }
    const fromFile = profile.split('\0')
    if (fromFile.at(-1) === '') fromFile.pop()
    // The file's words are UTF-8 bytes; read as latin1 above so that no byte is lost, decoded here.
    const decoded = fromFile.map((w) => Buffer.from(w, 'latin1').toString('utf8'))
    return [...rest.slice(0, at), ...decoded, ...rest.slice(at + 2)]
  }
  return words.slice(1)
}

/** The mounts in bubblewrap's arguments, in order; null when an option is not understood. */
export function bwrapMounts(args: readonly string[]): BwrapMount[] | null {
  const mounts: BwrapMount[] = []
  for (let i = 0; i < args.length; ) {
    const op = args[i]
    const arity = ARITY[op]
    if (arity === undefined) return null
    if (arity > 0 && i + arity >= args.length) return null
    if (arity === 2 && MAKES_DEST.has(op)) mounts.push({ op, source: args[i + 1], dest: args[i + 2] })
    else if (arity === 1 && MAKES_DEST.has(op)) mounts.push({ op, dest: args[i + 1] })
    i += arity + 1
  }
  return mounts
}

/** The mounts a wrapped command will make, or null when its line is not one sandbox-runtime writes for bubblewrap. */
export function mountsOfWrappedCommand(command: string, readProfile?: (path: string) => string): BwrapMount[] | null {
  const args = bwrapArguments(command, readProfile)
  return args ? bwrapMounts(args) : null
}

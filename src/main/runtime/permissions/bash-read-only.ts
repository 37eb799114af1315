// Commands that only look: auto-allowed like the read-only tools (and allowed in plan mode), so an agent can
// `ls`, `git status` or `git log` without a prompt. Deliberately narrow: anything that can write (find -delete,
// sort -o, git diff --output), run other programs (find -exec, rg --pre, xargs), expand variables, or reach
// outside the working directory (absolute paths, ~, ..) is not read-only here.
import { parseBashCommand, shellWords } from './bash-command'

const SIMPLE = new Set([
  'ls', 'pwd', 'cat', 'head', 'tail', 'wc', 'file', 'stat', 'which', 'whoami', 'date', 'echo', 'tree', 'du', 'df',
  'uname', 'basename', 'dirname', 'realpath', 'readlink', 'grep', 'egrep', 'fgrep', 'rg', 'diff', 'cmp', 'cut', 'nl',
  'true', 'false', 'id', 'hostname', 'uptime', 'type', 'sort', 'find', 'git', 'less', 'more', 'md5sum', 'sha256sum', 'sha1sum', 'jq'
])

const GIT_READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'blame', 'ls-files', 'rev-parse', 'describe', 'shortlog', 'grep', 'branch', 'tag', 'remote'])

const FORBIDDEN_ARGS: Record<string, RegExp> = {
  find: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/,
  sort: /^(-o|--output)/,
  rg: /^--(pre|pre-glob)/,
  tree: /^-o$/,
  git: /^(--output|--ext-diff|-o$)/,
  jq: /^--(rawfile|slurpfile)/
}

function leavesWorkingDir(word: string): boolean {
  const value = word.includes('=') && word.startsWith('-') ? word.slice(word.indexOf('=') + 1) : word
  if (value === '/dev/null') return false
  return value.startsWith('/') || value.startsWith('~') || /(^|\/)\.\.(\/|$)/.test(value)
}

function gitIsReadOnly(args: string[]): boolean {
  const sub = args[0]
  if (!sub || !GIT_READ_ONLY.has(sub)) return false // also refuses global options such as -c core.pager=…
  const rest = args.slice(1)
  if (sub === 'branch') return rest.every((a) => /^(-a|-r|-v|-vv|--list|--all|--remotes|--show-current|--no-color)$/.test(a))
  if (sub === 'tag') return rest.every((a) => /^(-l|--list|-n\d*)$/.test(a))
  if (sub === 'remote') return rest.every((a) => a === '-v' || a === '--verbose')
  return true
}

export function isReadOnlySegment(segment: string): boolean {
  const words = shellWords(segment)
  if (!words || words.length === 0) return false
  const [cmd, ...args] = words
  if (!SIMPLE.has(cmd)) return false
  if (args.some(leavesWorkingDir)) return false
  const forbidden = FORBIDDEN_ARGS[cmd]
  if (forbidden && args.some((a) => forbidden.test(a))) return false
  if (cmd === 'git') return gitIsReadOnly(args)
  return true
}

/** The whole command only reads inside the working directory. */
export function isReadOnlyBashCommand(command: string): boolean {
  const parsed = parseBashCommand(command)
  return parsed.unsure.length === 0 && parsed.segments.length > 0 && parsed.segments.every(isReadOnlySegment)
}

// git, read-only: a few global options, then subcommands that only look, each with its own option allowlist.
// Left out: `git -c …` and the other global options that change what git runs (core.pager, diff.external,
// --exec-path, --git-dir), pagers (`grep -O`/`--open-files-in-pager`), external diff and textconv drivers,
// signature checks (run gpg), `--output`, and every subcommand or form that changes something (branch NAME,
// tag NAME, config, fetch). Subcommands that print file contents (show, diff, log -p, grep, blame, cat-file)
// also have their paths checked: `git show HEAD:secrets/a.txt` names a protected file, and one that prints
// the whole tree is not read-only while the tree holds a file a Read deny rule protects. And git in a
// repository whose own config runs programs or reads files elsewhere is not read-only (git-repo-config.ts).
import { existsSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import type { Arg, CommandCheck, CommandEnv } from './command-check'
import { gitConfigRefusal } from './git-repo-config'
import { has, parseOptions, type OptionSpec, type ParsedOptions } from './options'

const DIFF_LONG = [
  '--patch',
  '--no-patch',
  '--patch-with-stat',
  '--patch-with-raw',
  '--raw',
  '--shortstat',
  '--numstat',
  '--name-only',
  '--name-status',
  '--summary',
  '--compact-summary',
  '--minimal',
  '--patience',
  '--histogram',
  '--ignore-space-change',
  '--ignore-all-space',
  '--ignore-blank-lines',
  '--ignore-space-at-eol',
  '--ignore-cr-at-eol',
  '--function-context',
  '--text',
  '--full-index',
  '--binary',
  '--no-renames',
  '--find-copies-harder',
  '--irreversible-delete',
  '--no-prefix',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--check',
  '--exit-code',
  '--quiet',
  '--cc',
  '--combined-all-paths'
]
const DIFF_LONG_ARG = [
  '--diff-filter',
  '--unified',
  '--inter-hunk-context',
  '--src-prefix',
  '--dst-prefix',
  '--line-prefix',
  '--anchored',
  '--diff-algorithm',
  '--word-diff-regex',
  '--stat-width',
  '--stat-count',
  '--stat-name-width',
  '--abbrev'
]
const DIFF_LONG_OPT = [
  '--stat',
  '--dirstat',
  '--find-renames',
  '--find-copies',
  '--break-rewrites',
  '--relative',
  '--word-diff',
  '--color-words',
  '--color',
  '--ignore-submodules',
  '--submodule'
]

const LOG: OptionSpec = {
  short: 'pusimcrtzEFPg',
  shortArg: 'nSG',
  shortOptArg: 'MCBlU',
  numeric: true,
  long: [
    ...DIFF_LONG,
    '--oneline',
    '--graph',
    '--no-decorate',
    '--abbrev-commit',
    '--no-abbrev-commit',
    '--all',
    '--reverse',
    '--no-merges',
    '--merges',
    '--first-parent',
    '--follow',
    '--relative-date',
    '--left-right',
    '--cherry-pick',
    '--cherry-mark',
    '--cherry',
    '--topo-order',
    '--date-order',
    '--author-date-order',
    '--full-history',
    '--simplify-by-decoration',
    '--simplify-merges',
    '--ancestry-path',
    '--boundary',
    '--mailmap',
    '--use-mailmap',
    '--no-mailmap',
    '--regexp-ignore-case',
    '--extended-regexp',
    '--fixed-strings',
    '--basic-regexp',
    '--perl-regexp',
    '--invert-grep',
    '--all-match',
    '--full-diff',
    '--log-size',
    '--parents',
    '--children',
    '--source',
    '--no-walk',
    '--do-walk',
    '--remove-empty',
    '--walk-reflogs',
    '--single-worktree',
    '--stdin'
  ],
  longArg: [
    ...DIFF_LONG_ARG,
    '--format',
    '--max-count',
    '--skip',
    '--author',
    '--committer',
    '--since',
    '--after',
    '--until',
    '--before',
    '--grep',
    '--date',
    '--glob',
    '--exclude',
    '--encoding',
    '--max-parents',
    '--min-parents',
    '--since-as-filter'
  ],
  longOptArg: [...DIFF_LONG_OPT, '--pretty', '--decorate', '--branches', '--tags', '--remotes']
}

const DIFF: OptionSpec = {
  short: 'pusRazEbwW',
  shortOptArg: 'MCBlU',
  long: [...DIFF_LONG, '--cached', '--staged', '--merge-base', '--no-index', '--ours', '--theirs', '--base'],
  longArg: DIFF_LONG_ARG,
  longOptArg: DIFF_LONG_OPT
}

const GREP: OptionSpec = {
  short: 'iIwvhHlLcnoqzEGFPpW',
  shortArg: 'efABCm',
  long: [
    '--and',
    '--or',
    '--not',
    '--cached',
    '--untracked',
    '--no-index',
    '--exclude-standard',
    '--no-exclude-standard',
    '--recurse-submodules',
    '--full-name',
    '--name-only',
    '--files-with-matches',
    '--files-without-match',
    '--count',
    '--line-number',
    '--column',
    '--break',
    '--heading',
    '--show-function',
    '--function-context',
    '--all-match',
    '--no-color',
    '--ignore-case',
    '--word-regexp',
    '--invert-match',
    '--text',
    '--extended-regexp',
    '--basic-regexp',
    '--fixed-strings',
    '--perl-regexp',
    '--null',
    '--only-matching',
    '--quiet'
  ],
  longArg: ['--max-depth', '--threads', '--max-count', '--after-context', '--before-context', '--context'],
  longOptArg: ['--color']
}

interface GitSub {
  spec: OptionSpec
  /** What the operands are. */
  operands: 'revs-paths' | 'paths' | 'none' | 'pattern-revs-paths' | 'object'
  /** Its output shows file contents. */
  content: boolean | ((p: ParsedOptions) => boolean)
  /**
   * Its options whose value names a file or folder git reads (`blame --contents FILE`, `blame -S REVS-FILE`,
   * `grep -f PATTERNS`): each goes through the path check like an operand. Every other option that takes a
   * value in this file takes text (a count, a format, a pattern, a revision), never a file name.
   */
  pathOptions?: string[]
  extra?: (p: ParsedOptions, operands: Arg[]) => string | null
}

/** diff/show print contents unless asked only for names or statistics (and not for a patch as well). */
const NAMES_ONLY = [
  '--stat',
  '--name-only',
  '--name-status',
  '--numstat',
  '--shortstat',
  '--summary',
  '--compact-summary',
  '--dirstat',
  '--quiet',
  '--exit-code',
  '--raw',
  '-s',
  '--no-patch'
]
const PATCH = ['-p', '-u', '--patch', '--patch-with-stat', '--patch-with-raw', '--word-diff', '--color-words', '--cc', '-W', '--function-context']
const printsContents = (p: ParsedOptions): boolean => !has(p, ...NAMES_ONLY) || has(p, ...PATCH)

const listOnly =
  (flags: string[]) =>
  (p: ParsedOptions, operands: Arg[]): string | null =>
    operands.length && !has(p, ...flags) ? 'a name operand (that creates or changes it) without --list' : null

const SUBCOMMANDS: Record<string, GitSub> = {
  status: {
    spec: {
      short: 'sbvz',
      shortOptArg: 'u',
      long: ['--short', '--branch', '--long', '--verbose', '--no-ahead-behind', '--ahead-behind', '--renames', '--no-renames', '--show-stash', '--no-column'],
      longOptArg: ['--porcelain', '--untracked-files', '--ignored', '--ignore-submodules', '--column', '--find-renames']
    },
    operands: 'paths',
    content: false
  },
  log: {
    spec: LOG,
    operands: 'revs-paths',
    content: (p) =>
      has(
        p,
        '-p',
        '-u',
        '--patch',
        '--patch-with-stat',
        '--patch-with-raw',
        '--word-diff',
        '--color-words',
        '--cc',
        '-c',
        '-m',
        '--function-context',
        '-S',
        '-G'
      )
  },
  whatchanged: { spec: LOG, operands: 'revs-paths', content: (p) => has(p, '-p', '-u', '--patch', '--word-diff', '--color-words', '-S', '-G') },
  show: { spec: LOG, operands: 'revs-paths', content: printsContents },
  diff: { spec: DIFF, operands: 'revs-paths', content: printsContents },
  blame: {
    spec: {
      short: 'bcflnsetwp',
      shortArg: 'LSM',
      shortOptArg: 'C',
      long: [
        '--root',
        '--show-stats',
        '--porcelain',
        '--line-porcelain',
        '--incremental',
        '--show-name',
        '--show-number',
        '--show-email',
        '--minimal',
        '--reverse',
        '--first-parent',
        '--progress',
        '--no-progress'
      ],
      longArg: ['--date', '--since', '--abbrev', '--encoding', '--ignore-rev', '--contents']
    },
    operands: 'revs-paths',
    content: true,
    pathOptions: ['--contents', '-S']
  },
  grep: { spec: GREP, operands: 'pattern-revs-paths', content: true, pathOptions: ['-f'] },
  'cat-file': { spec: { short: 'ptse', long: [] }, operands: 'object', content: true },
  'ls-files': {
    spec: {
      short: 'cdoimskuzftvAe',
      shortArg: 'x',
      long: [
        '--cached',
        '--deleted',
        '--others',
        '--ignored',
        '--stage',
        '--modified',
        '--killed',
        '--unmerged',
        '--exclude-standard',
        '--full-name',
        '--directory',
        '--no-empty-directory',
        '--error-unmatch',
        '--eol',
        '--recurse-submodules',
        '--sparse',
        '--deduplicate'
      ],
      longArg: ['--exclude', '--format'],
      longOptArg: ['--abbrev']
    },
    operands: 'paths',
    content: false
  },
  'ls-tree': {
    spec: {
      short: 'rtdlz',
      long: ['--name-only', '--name-status', '--object-only', '--full-name', '--full-tree', '--long'],
      longArg: ['--format'],
      longOptArg: ['--abbrev']
    },
    operands: 'revs-paths',
    content: false
  },
  'rev-parse': {
    spec: {
      short: 'q',
      long: [
        '--verify',
        '--quiet',
        '--show-toplevel',
        '--git-dir',
        '--git-common-dir',
        '--absolute-git-dir',
        '--is-inside-work-tree',
        '--is-inside-git-dir',
        '--is-bare-repository',
        '--is-shallow-repository',
        '--show-prefix',
        '--show-cdup',
        '--symbolic',
        '--symbolic-full-name',
        '--all',
        '--abbrev-ref',
        '--show-superproject-working-tree',
        '--local-env-vars'
      ],
      longOptArg: ['--short', '--branches', '--tags', '--remotes']
    },
    operands: 'none',
    content: false
  },
  describe: {
    spec: {
      long: ['--tags', '--all', '--long', '--always', '--exact-match', '--contains', '--first-parent'],
      longArg: ['--match', '--exclude', '--candidates'],
      longOptArg: ['--abbrev', '--dirty', '--broken']
    },
    operands: 'none',
    content: false
  },
  shortlog: {
    spec: {
      short: 'snec',
      long: ['--summary', '--numbered', '--email', '--committer', '--all', '--no-merges'],
      longArg: ['--group', '--format', '--since', '--until', '--author']
    },
    operands: 'none',
    content: false
  },
  branch: {
    spec: {
      short: 'arvl',
      long: ['--all', '--remotes', '--verbose', '--list', '--show-current', '--no-color', '--ignore-case', '--omit-empty'],
      longArg: ['--sort', '--format', '--points-at'],
      longOptArg: ['--merged', '--no-merged', '--contains', '--no-contains', '--color', '--column', '--abbrev']
    },
    operands: 'none',
    content: false,
    extra: listOnly(['-l', '--list'])
  },
  tag: {
    spec: {
      short: 'l',
      shortOptArg: 'n',
      long: ['--list', '--ignore-case', '--omit-empty'],
      longArg: ['--sort', '--format', '--points-at'],
      longOptArg: ['--contains', '--no-contains', '--merged', '--no-merged', '--color', '--column']
    },
    operands: 'none',
    content: false,
    extra: listOnly(['-l', '--list'])
  },
  remote: { spec: { short: 'v', long: ['--verbose'] }, operands: 'none', content: false }
}

/** `rev:path`, `:path`, `:N:path`: the path part as git reads it (from the repository top; `./` from cwd). */
function objectPath(value: string, env: CommandEnv, cwd: string): { path: string } | { magic: true } | null {
  let path: string
  if (value.startsWith(':')) {
    if (value.startsWith(':(') || value.startsWith(':!') || value.startsWith(':/') || value.startsWith(':^')) return { magic: true }
    path = value.replace(/^:(\d:)?/, '')
  } else {
    const k = value.indexOf(':')
    if (k <= 0) return null
    path = value.slice(k + 1)
  }
  if (!path) return null
  return { path: path.startsWith('./') || path.startsWith('../') ? resolve(cwd, path) : join(env.repoRoot(cwd), path) }
}

function checkOperands(sub: GitSub, p: ParsedOptions, operands: Arg[], afterDashes: Arg[], env: CommandEnv, cwd: string): string | null {
  const paths: Arg[] = [...afterDashes]
  let rest = operands
  if (sub.operands === 'pattern-revs-paths' && !has(p, '-e', '-f')) rest = rest.slice(1)
  let objectPaths = 0
  // `--no-index` makes every operand a file, existing or not (git diff --no-index A B, git grep --no-index P F).
  const allPaths = sub.operands === 'paths' || has(p, '--no-index')
  for (const a of rest) {
    if (allPaths) {
      paths.push(a)
      continue
    }
    const inObject = objectPath(a.value, env, cwd)
    if (inObject && 'magic' in inObject) return `the object name ${a.value} (pathspec magic)`
    if (inObject) {
      const why = env.readPath({ value: inObject.path }, { cwd })
      if (why) return why
      objectPaths++
      if (!a.glob && existsSync(resolve(cwd, a.value))) paths.push(a)
    } else if (sub.operands === 'object') {
      // A bare object id (a blob of any file) cannot be told apart from a protected file's.
      const why = env.protectedUnder(env.repoRoot(cwd))
      if (why) return `git cat-file of an object id: ${why}`
    } else if (!a.glob && existsSync(isAbsolute(a.value) ? a.value : resolve(cwd, a.value))) paths.push(a)
  }
  for (const a of paths) {
    if (a.value.startsWith(':')) return `the pathspec ${a.value} (pathspec magic)`
    if (/[*?[]/.test(a.value)) {
      const why = env.protectedUnder(env.repoRoot(cwd))
      if (why) return `a wildcard pathspec: ${why}`
      continue
    }
    const why = env.readPath(a, { recursive: true, cwd })
    if (why) return why
  }
  const content = typeof sub.content === 'function' ? sub.content(p) : sub.content
  if (content && !paths.length && !(objectPaths && objectPaths === rest.length)) {
    const why = env.protectedUnder(env.repoRoot(cwd))
    if (why) return `it shows the contents of the whole repository: ${why}`
  }
  return null
}

export const checkGit: CommandCheck = (args, env) => {
  let cwd = env.cwd
  let i = 0
  for (; i < args.length && args[i].value.startsWith('-'); i++) {
    const v = args[i].value
    if (['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects'].includes(v)) continue
    if (v === '-C' && i + 1 < args.length) {
      const dir = args[++i]
      if (dir.glob) return 'a glob as the folder of git -C'
      const why = env.readPath(dir, { cwd })
      if (why) return why
      cwd = resolve(cwd, dir.value)
      continue
    }
    return `the git option ${v} (git -c and the like change what git runs)`
  }
  const name = args[i]?.value
  if (name === undefined) return null
  if (name === 'stash' && args.length === i + 2 && args[i + 1].value === 'list') return gitConfigRefusal(cwd, (abs) => env.readPath({ value: abs }))
  const sub = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined
  if (!sub) return `git ${name} is not on the read-only list`
  const config = gitConfigRefusal(cwd, (abs) => env.readPath({ value: abs }))
  if (config) return config
  const rest = args.slice(i + 1)
  if (rest.some((a) => a.glob && a.value.startsWith('-'))) return 'a glob where an option could be'
  const dashes = rest.findIndex((a) => a.value === '--')
  const before = dashes === -1 ? rest : rest.slice(0, dashes)
  const after = dashes === -1 ? [] : rest.slice(dashes + 1)
  const r = parseOptions(
    before.map((a) => a.value),
    sub.spec
  )
  if (!r.ok) return `git ${name}: ${r.why}`
  const operands = r.parsed.operands.map((k) => before[k])
  if (sub.operands === 'none' && (operands.length || after.length) && !sub.extra) return `git ${name} with operands`
  const extra = sub.extra?.(r.parsed, operands)
  if (extra) return `git ${name}: ${extra}`
  for (const o of r.parsed.options) {
    if (o.value === undefined || !sub.pathOptions?.includes(o.name)) continue
    const why = env.readPath({ value: o.value }, { cwd })
    if (why) return `git ${name} ${o.name}: ${why}`
  }
  if (sub.operands === 'none') return null
  return checkOperands(sub, r.parsed, operands, after, env, cwd)
}

// The read-only command list: each command with the options it may carry to stay read-only. This is an
// allowlist in both directions: a command not listed here, or a listed one with an option not listed for
// it, is not read-only, whatever it does. Left out on purpose: pagers (less, more, man: shell escapes),
// anything that runs other programs (xargs, env, timeout, nice, awk, find -exec, rg --pre), and every
// option that writes (sort -o, tree -o, sed -i, uniq's output operand), follows symlinks everywhere (grep -R,
// find -L, rg -L, du -L) or reads a list of further files (--files0-from), `file -z` (runs decompressors).
// Every option whose value names a file the command reads is a path option (`pathOptions`, checked like an
// operand); every other option listed with a value takes text (a count, a pattern, a format). Options that
// take a file and are not worth the check (`--exclude-from`, `--ignore-file`, `sort -T`, `diff --from-file`,
// `date -f`, `file -m`, `jq --slurpfile`) are simply not listed: test/attacks/bash-option-files.ts plays them all.
import { spec, type CommandCheck } from './command-check'
import { checkFind } from './read-only-find'
import { checkGit } from './read-only-git'
import { has } from './options'
import { checkJqFilter } from './jq-filter'
import { checkSedScript } from './sed-script'

/** Commands that never read or write a file, whatever their words (echo, true, false). */
const anyWords: CommandCheck = () => null

/** The pattern, pattern file, match limit and context options that grep and rg spell alike (rg took them from grep). */
const GREP_LONG_ARGS = ['--regexp', '--file', '--max-count', '--after-context', '--before-context', '--context']

const ls = spec({
  operands: 'paths',
  short: 'aAbBcCdfFgGhiklmnNopqQrRsStuUvxX1Z',
  shortArg: 'ITw',
  long: [
    '--all',
    '--almost-all',
    '--escape',
    '--directory',
    '--classify',
    '--file-type',
    '--human-readable',
    '--si',
    '--inode',
    '--numeric-uid-gid',
    '--no-group',
    '--literal',
    '--hide-control-chars',
    '--show-control-chars',
    '--quote-name',
    '--recursive',
    '--reverse',
    '--size',
    '--context',
    '--group-directories-first',
    '--full-time',
    '--author',
    '--ignore-backups',
    '--dereference-command-line',
    '--dereference-command-line-symlink-to-dir'
  ],
  longArg: [
    '--block-size',
    '--format',
    '--hide',
    '--ignore',
    '--indicator-style',
    '--quoting-style',
    '--sort',
    '--time',
    '--time-style',
    '--tabsize',
    '--width'
  ],
  longOptArg: ['--color', '--colour', '--hyperlink'],
  recursive: (p) => has(p, '-R', '--recursive')
})

const headTail = spec({
  operands: 'paths',
  short: 'qvz',
  shortArg: 'nc',
  numeric: true,
  long: ['--quiet', '--silent', '--verbose', '--zero-terminated'],
  longArg: ['--lines', '--bytes']
})

const grepFamily = spec({
  operands: 'pattern',
  patternOptions: ['-e', '-f', '--regexp', '--file'],
  pathOptions: ['-f', '--file'],
  short: 'EFGPiywxvcLlHhnbsoqaIrUzZT',
  shortArg: 'ABCemfdD',
  long: [
    '--extended-regexp',
    '--fixed-strings',
    '--basic-regexp',
    '--perl-regexp',
    '--ignore-case',
    '--no-ignore-case',
    '--word-regexp',
    '--line-regexp',
    '--invert-match',
    '--count',
    '--files-with-matches',
    '--files-without-match',
    '--with-filename',
    '--no-filename',
    '--line-number',
    '--byte-offset',
    '--only-matching',
    '--quiet',
    '--silent',
    '--no-messages',
    '--recursive',
    '--text',
    '--null',
    '--null-data',
    '--initial-tab',
    '--line-buffered',
    '--unix-byte-offsets'
  ],
  longArg: [...GREP_LONG_ARGS, '--include', '--exclude', '--exclude-dir', '--label', '--binary-files', '--devices', '--directories'],
  longOptArg: ['--color', '--colour'],
  recursive: (p) => has(p, '-r', '--recursive') || p.options.some((o) => (o.name === '-d' || o.name === '--directories') && o.value === 'recurse'),
  defaultPath: (p) => has(p, '-r', '--recursive'),
  extra: (p) =>
    p.options.some((o) => (o.name === '-D' || o.name === '--devices') && o.value !== 'skip' && o.value !== 'read') ? 'an unknown --devices action' : null
})

const rg = spec({
  operands: 'pattern',
  patternOptions: ['-e', '-f', '--regexp', '--file', '--files', '--type-list'],
  pathOptions: ['-f', '--file'],
  short: 'iswxvclnNoHIqUaPSFu.bp',
  shortArg: 'egtTABCmMrjEdf',
  long: [
    '--hidden',
    '--no-hidden',
    '--no-ignore',
    '--no-ignore-vcs',
    '--no-ignore-parent',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--ignore',
    '--files',
    '--files-with-matches',
    '--files-without-match',
    '--count',
    '--count-matches',
    '--json',
    '--vimgrep',
    '--ignore-case',
    '--smart-case',
    '--case-sensitive',
    '--fixed-strings',
    '--word-regexp',
    '--line-regexp',
    '--line-number',
    '--no-line-number',
    '--no-heading',
    '--heading',
    '--with-filename',
    '--no-filename',
    '--trim',
    '--multiline',
    '--multiline-dotall',
    '--only-matching',
    '--type-list',
    '--no-messages',
    '--column',
    '--no-column',
    '--stats',
    '--quiet',
    '--invert-match',
    '--pcre2',
    '--null',
    '--text',
    '--binary',
    '--byte-offset',
    '--crlf',
    '--passthru',
    '--unrestricted',
    '--no-config',
    '--one-file-system',
    '--max-columns-preview',
    '--glob-case-insensitive',
    '--pretty',
    '--no-unicode',
    '--debug',
    '--trace',
    '--sort-files'
  ],
  longArg: [
    '--glob',
    '--iglob',
    '--type',
    '--type-not',
    ...GREP_LONG_ARGS,
    '--max-depth',
    '--maxdepth',
    '--max-filesize',
    '--sort',
    '--sortr',
    '--replace',
    '--encoding',
    '--threads',
    '--max-columns',
    '--engine',
    '--color',
    '--colors',
    '--path-separator',
    '--field-match-separator',
    '--field-context-separator',
    '--context-separator'
  ],
  recursive: true,
  defaultPath: true
})

const sort = spec({
  operands: 'paths',
  short: 'bdfgiMhnRrVcCmsuz',
  shortArg: 'ktS',
  long: [
    '--ignore-leading-blanks',
    '--dictionary-order',
    '--ignore-case',
    '--general-numeric-sort',
    '--ignore-nonprinting',
    '--month-sort',
    '--human-numeric-sort',
    '--numeric-sort',
    '--random-sort',
    '--reverse',
    '--version-sort',
    '--merge',
    '--stable',
    '--unique',
    '--zero-terminated',
    '--debug'
  ],
  longArg: ['--key', '--field-separator', '--buffer-size', '--parallel', '--sort'],
  longOptArg: ['--check']
})

const sumOptions = { operands: 'paths' as const, short: 'btz', long: ['--binary', '--tag', '--text', '--zero'] }

/** Every read-only command by name. */
export const READ_ONLY_COMMANDS: Record<string, CommandCheck> = {
  ls,
  dir: ls,
  cat: spec({
    operands: 'paths',
    short: 'AbeEnstTuv',
    long: ['--number', '--number-nonblank', '--show-all', '--show-ends', '--show-tabs', '--squeeze-blank', '--show-nonprinting']
  }),
  head: headTail,
  tail: headTail,
  wc: spec({ operands: 'paths', short: 'clmwL', long: ['--bytes', '--chars', '--lines', '--words', '--max-line-length'], longArg: ['--total'] }),
  file: spec({
    operands: 'paths',
    short: 'bhiLkNnprs0',
    long: ['--brief', '--mime', '--mime-type', '--mime-encoding', '--dereference', '--no-dereference', '--keep-going', '--raw', '--special-files', '--print0']
  }),
  stat: spec({ operands: 'paths', short: 'Lft', shortArg: 'c', long: ['--dereference', '--file-system', '--terse'], longArg: ['--format', '--printf'] }),
  du: spec({
    operands: 'paths',
    short: 'abchklmsSxP0',
    shortArg: 'dBt',
    long: [
      '--all',
      '--apparent-size',
      '--bytes',
      '--total',
      '--human-readable',
      '--si',
      '--summarize',
      '--separate-dirs',
      '--one-file-system',
      '--count-links',
      '--inodes',
      '--null',
      '--no-dereference'
    ],
    longArg: ['--max-depth', '--block-size', '--threshold', '--exclude', '--time-style'],
    longOptArg: ['--time'],
    recursive: true,
    defaultPath: true
  }),
  df: spec({
    operands: 'paths',
    short: 'ahHiklPTv',
    long: ['--all', '--human-readable', '--si', '--inodes', '--local', '--portability', '--print-type', '--total', '--no-sync', '--sync'],
    longArg: ['--type', '--exclude-type', '--block-size'],
    longOptArg: ['--output']
  }),
  tree: spec({
    operands: 'paths',
    short: 'adfFipsughDQNrtvxACJS',
    shortArg: 'LIP',
    long: ['--noreport', '--dirsfirst', '--filesfirst', '--du', '--si', '--prune', '--matchdirs', '--ignore-case', '--gitignore'],
    longArg: ['--charset', '--filelimit', '--timefmt', '--sort'],
    recursive: true,
    defaultPath: true
  }),
  pwd: spec({ operands: 'none', short: 'LP' }),
  whoami: spec({ operands: 'none' }),
  id: spec({ operands: 'text', short: 'gGnruz', long: ['--group', '--groups', '--name', '--real', '--user', '--zero'] }),
  uname: spec({
    operands: 'none',
    short: 'asnrvmpio',
    long: [
      '--all',
      '--kernel-name',
      '--nodename',
      '--kernel-release',
      '--kernel-version',
      '--machine',
      '--processor',
      '--hardware-platform',
      '--operating-system'
    ]
  }),
  hostname: spec({ operands: 'none', short: 'fsidAI', long: ['--fqdn', '--short', '--ip-address', '--domain', '--all-fqdns', '--all-ip-addresses'] }),
  uptime: spec({ operands: 'none', short: 'ps', long: ['--pretty', '--since'] }),
  date: spec({
    operands: 'text',
    short: 'uR',
    shortArg: 'd',
    shortOptArg: 'I',
    long: ['--utc', '--universal', '--rfc-email'],
    longArg: ['--date'],
    longOptArg: ['--iso-8601', '--rfc-3339'],
    extra: (p, args) => (p.operands.some((i) => !args[i].value.startsWith('+')) ? 'an operand that would set the clock' : null)
  }),
  echo: anyWords,
  true: anyWords,
  false: anyWords,
  printf: spec({ operands: 'text', permute: false }),
  basename: spec({ operands: 'text', short: 'az', shortArg: 's', long: ['--multiple', '--zero'], longArg: ['--suffix'] }),
  dirname: spec({ operands: 'text', short: 'z', long: ['--zero'] }),
  realpath: spec({
    operands: 'paths',
    short: 'eEmLPqsz',
    long: ['--canonicalize-existing', '--canonicalize-missing', '--logical', '--physical', '--quiet', '--strip', '--no-symlinks', '--zero']
  }),
  readlink: spec({
    operands: 'paths',
    short: 'efmnqsvz',
    long: ['--canonicalize', '--canonicalize-existing', '--canonicalize-missing', '--no-newline', '--quiet', '--silent', '--verbose', '--zero']
  }),
  which: spec({ operands: 'text', short: 'a' }),
  type: spec({ operands: 'text', short: 'aftpP' }),
  grep: grepFamily,
  egrep: grepFamily,
  fgrep: grepFamily,
  rg,
  find: checkFind,
  sort,
  uniq: spec({
    operands: 'paths',
    maxOperands: 1,
    short: 'cdDiuz',
    shortArg: 'fsw',
    long: ['--count', '--repeated', '--ignore-case', '--unique', '--zero-terminated'],
    longArg: ['--skip-fields', '--skip-chars', '--check-chars'],
    longOptArg: ['--all-repeated', '--group']
  }),
  cut: spec({
    operands: 'paths',
    short: 'snz',
    shortArg: 'bcdf',
    long: ['--complement', '--only-delimited', '--zero-terminated'],
    longArg: ['--bytes', '--characters', '--delimiter', '--fields', '--output-delimiter']
  }),
  nl: spec({ operands: 'paths', short: 'p', shortArg: 'bdfhilnsvw' }),
  tr: spec({ operands: 'text', short: 'cdsCt', long: ['--complement', '--delete', '--squeeze-repeats', '--truncate-set1'] }),
  diff: spec({
    operands: 'paths',
    short: 'abBcdeEfiNlnpqrsStTuwyZ',
    shortArg: 'CUxW',
    long: [
      '--brief',
      '--recursive',
      '--side-by-side',
      '--ignore-case',
      '--ignore-all-space',
      '--ignore-space-change',
      '--ignore-blank-lines',
      '--ignore-tab-expansion',
      '--ignore-trailing-space',
      '--new-file',
      '--unidirectional-new-file',
      '--text',
      '--no-dereference',
      '--report-identical-files',
      '--suppress-common-lines',
      '--minimal',
      '--speed-large-files',
      '--expand-tabs',
      '--initial-tab',
      '--strip-trailing-cr',
      '--show-c-function',
      '--left-column',
      '--normal',
      '--ed',
      '--rcs'
    ],
    longArg: ['--exclude', '--label', '--width', '--show-function-line', '--ignore-matching-lines', '--tabsize', '--horizon-lines'],
    longOptArg: ['--unified', '--context', '--color'],
    recursive: (p) => has(p, '-r', '--recursive')
  }),
  cmp: spec({
    operands: 'paths',
    maxOperands: 2,
    short: 'blsz',
    shortArg: 'in',
    long: ['--print-bytes', '--verbose', '--quiet', '--silent'],
    longArg: ['--ignore-initial', '--bytes']
  }),
  md5sum: spec(sumOptions),
  sha1sum: spec(sumOptions),
  sha256sum: spec(sumOptions),
  sha512sum: spec(sumOptions),
  b2sum: spec(sumOptions),
  jq: checkJqCommand(),
  sed: spec({
    operands: 'pattern',
    patternOptions: ['-e', '--expression'],
    short: 'nEsuz',
    shortArg: 'el',
    long: ['--quiet', '--silent', '--regexp-extended', '--separate', '--unbuffered', '--null-data', '--posix', '--debug', '--sandbox'],
    longArg: ['--expression', '--line-length'],
    extra: (p, args) => {
      const scripts = p.options.filter((o) => o.name === '-e' || o.name === '--expression').map((o) => o.value ?? '')
      if (!scripts.length) {
        const first = p.operands[0]
        if (first === undefined) return 'no sed script'
        scripts.push(args[first].value)
      }
      for (const s of scripts) {
        const why = checkSedScript(s)
        if (why) return why
      }
      return null
    }
  }),
  git: checkGit
}

/** jq: the first operand is the filter (checked), `--arg`/`--argjson` take two words, the rest are files. */
function checkJqCommand(): CommandCheck {
  const inner = spec({
    operands: 'pattern',
    short: 'rcSesnajCMR',
    long: [
      '--raw-output',
      '--compact-output',
      '--sort-keys',
      '--exit-status',
      '--slurp',
      '--null-input',
      '--ascii-output',
      '--join-output',
      '--raw-output0',
      '--color-output',
      '--monochrome-output',
      '--raw-input',
      '--tab',
      '--seq',
      '--stream',
      '--unbuffered'
    ],
    longArg: ['--indent'],
    extra: (p, args) => {
      const first = p.operands[0]
      return first === undefined ? null : checkJqFilter(args[first].value)
    }
  })
  return (args, env) => {
    const rest = []
    for (let i = 0; i < args.length; i++) {
      // After `--` jq reads every word as a file, `--arg` included (`jq . -- --arg secret y`).
      if (args[i].value === '--') {
        rest.push(...args.slice(i))
        break
      }
      if (args[i].value === '--arg' || args[i].value === '--argjson') {
        if (i + 2 >= args.length) return `${args[i].value} needs a name and a value`
        i += 2
      } else rest.push(args[i])
    }
    return inner(rest, env)
  }
}

// The repository's own git config can make a read-only git command run programs or read files anywhere:
// `diff.<driver>.textconv` and `filter.<driver>.*` (run on `git diff`, `git show`, `git log -p`, `git status`),
// `diff.external`, `core.fsmonitor` (run on `git status`), `log.showSignature` (gpg on `git log`),
// `blame.ignoreRevsFile`, `mailmap.file`, `core.excludesFile`, `core.attributesFile` (files read from
// anywhere), `core.worktree` (a work tree elsewhere), `include.path` (more config from anywhere). A repository
// someone else made controls that file. So git is read-only only in a repository whose config holds nothing
// but settings known to be inert (an allowlist, like the options); anything else, and a config that cannot
// be read, makes every git command in it ask. The person's own config (~/.gitconfig) is theirs, not looked at.
import { readdirSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { readConfigFile } from '../../store/read-config'

/** `section.key` (subsection left out) of settings that neither run a program nor name a file. */
const INERT = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.quotepath',
  'core.abbrev',
  'core.checkstat',
  'core.trustctime',
  'core.compression',
  'core.loosecompression',
  'core.bigfilethreshold',
  'core.sharedrepository',
  'core.sparsecheckout',
  'core.sparsecheckoutcone',
  'core.commentchar',
  'core.whitespace',
  'core.untrackedcache',
  'core.splitindex',
  'core.preloadindex',
  'core.multipackindex',
  'core.commitgraph',
  'core.warnambiguousrefs',
  'core.longpaths',
  'core.fscache',
  'core.protectntfs',
  'core.protecthfs',
  'core.hidedotfiles',
  'extensions.objectformat',
  'extensions.refstorage',
  'extensions.worktreeconfig',
  'extensions.partialclone',
  'extensions.preciousobjects',
  'remote.url',
  'remote.pushurl',
  'remote.fetch',
  'remote.push',
  'remote.tagopt',
  'remote.prune',
  'remote.mirror',
  'remote.promisor',
  'remote.partialclonefilter',
  'remote.skipdefaultupdate',
  'remote.skipfetchall',
  'branch.remote',
  'branch.merge',
  'branch.rebase',
  'branch.pushremote',
  'branch.description',
  'user.name',
  'user.email',
  'user.useconfigonly',
  'user.signingkey',
  'init.defaultbranch',
  'pull.rebase',
  'pull.ff',
  'push.default',
  'push.autosetupremote',
  'fetch.prune',
  'fetch.prunetags',
  'gc.auto',
  'gc.autodetach',
  'index.version',
  'index.sparse',
  'index.threads',
  'submodule.url',
  'submodule.active',
  'submodule.branch',
  'status.showuntrackedfiles',
  'status.branch',
  'status.short',
  'status.relativepaths',
  'status.aheadbehind',
  'status.renames',
  'status.showstash',
  'log.date',
  'log.decorate',
  'log.abbrevcommit',
  'log.follow',
  'diff.renames',
  'diff.algorithm',
  'diff.mnemonicprefix',
  'diff.noprefix',
  'diff.context',
  'diff.interhunkcontext',
  'diff.indentheuristic',
  'diff.colormoved',
  'diff.statgraphwidth',
  'diff.relative',
  'merge.ff',
  'merge.conflictstyle',
  'merge.renames',
  'rebase.autosquash',
  'rebase.autostash',
  'rebase.updaterefs',
  'tag.sort',
  'rerere.enabled',
  'lfs.repositoryformatversion',
  'color.ui',
  'color.diff',
  'color.status',
  'color.branch',
  // Used only by commands that are never read-only (commit, tag, push, receive).
  'commit.gpgsign',
  'tag.gpgsign',
  'receive.denycurrentbranch',
  'worktree.guessremote'
])
/** Sections whose subsection names something else (a remote, a branch, a submodule): their keys are read without it. */
const NAMED = new Set(['remote', 'branch', 'submodule'])
const MAX_CONFIG = 256 * 1024

export interface ConfigEntry {
  /** `section.key`, lowercase, a named section's name left out, a driver's in `<…>`. */
  key: string
  value: string
}

/** The settings a git config file makes, or null if it cannot be read as git config. */
export function configEntries(text: string): ConfigEntry[] | null {
  const entries: ConfigEntry[] = []
  let section: string | null = null
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim()
    if (!line || line.startsWith('#') || line.startsWith(';')) continue
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line)
    if (header) {
      const [name, ...dotted] = header[1].toLowerCase().split('.')
      const sub = header[2] ?? (dotted.length ? dotted.join('.') : undefined)
      // A subsection outside the named sections (`diff "x"`, `filter "lfs"`) is a driver: never inert.
      section = sub !== undefined && !NAMED.has(name) ? `${name}.<${sub}>` : name
      line = header[3].trim()
      if (!line || line.startsWith('#') || line.startsWith(';')) continue
    }
    if (section === null) return null
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*)|$|[#;])/.exec(line)
    if (!m) return null
    const value = (m[2] ?? '').replace(/\s+[#;].*$/, '').replace(/^"(.*)"$/, '$1')
    entries.push({ key: `${section}.${m[1].toLowerCase()}`, value })
  }
  return entries
}

/** The keys of configEntries. */
export function configKeys(text: string): string[] | null {
  return configEntries(text)?.map((e) => e.key) ?? null
}

const statOrNull = (p: string) => {
  try {
    return statSync(p, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}

const real = (p: string): string => {
  try {
    return realpathSync(p)
  } catch {
    return p
  }
}

const textOf = (file: string): string | null => {
  const read = readConfigFile(file, 64 * 1024)
  return 'text' in read ? read.text.trim() : null
}

/**
 * The config files of the repository around `dir` (its git folder's, its common folder's, a worktree's own),
 * or why git there is not read-only. A `.git` file may send git to any repository on the machine (`gitdir:
 * ~/private/.git`, whose history `git log -p` would print): it is followed only to a git folder inside the
 * working directories (a submodule's) or to a linked worktree's that names this very `.git` file back, as
 * git's own worktrees do.
 */
function configFiles(dir: string, readable: (abs: string) => string | null): string[] | string {
  for (let d = dir; ; d = dirname(d)) {
    const dotGit = join(d, '.git')
    const info = statOrNull(dotGit)
    if (info?.isDirectory()) return [join(dotGit, 'config'), join(dotGit, 'config.worktree')]
    if (info?.isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(textOf(dotGit) ?? '')
      if (!m) return 'its .git file could not be read'
      const gitDir = resolve(d, m[1].trim())
      const back = textOf(join(gitDir, 'gitdir'))
      if (readable(gitDir) !== null && (back === null || real(resolve(gitDir, back)) !== real(dotGit)))
        return `its .git file sends git to ${gitDir}, outside the working directories and not this worktree's git folder`
      const common = textOf(join(gitDir, 'commondir'))
      const commonDir = common !== null ? resolve(gitDir, common) : gitDir
      return [join(commonDir, 'config'), join(gitDir, 'config.worktree')]
    }
    if (dirname(d) === d) return []
  }
}

/**
 * Why the repository around `dir` makes git not read-only (a setting that runs or reads, a `.git` file that
 * leads elsewhere), or null. `readable` is the path check: null when a path may be read.
 */
export function gitConfigRefusal(dir: string, readable: (abs: string) => string | null): string | null {
  const files = configFiles(dir, readable)
  if (typeof files === 'string') return files
  // Submodules' git folders too: `git status` and `git diff --submodule=diff` run git in each, with its config.
  const commonDirs = [...new Set(files.filter((f) => basename(f) === 'config').map((f) => dirname(f)))]
  for (const common of commonDirs) moduleConfigs(common, files, 0)
  for (const file of files) {
    const read = readConfigFile(file, MAX_CONFIG)
    if ('missing' in read) continue
    if (!('text' in read)) return `the repository's ${file} could not be read`
    const entries = configEntries(read.text)
    if (entries === null) return `the repository's ${file} could not be read as git config`
    // core.worktree (every submodule's config has one) is inert when it names a folder the agent may read.
    const odd = entries.find(
      (e) => !INERT.has(e.key) && !e.key.startsWith('advice.') && !(e.key === 'core.worktree' && e.value && readable(resolve(dirname(file), e.value)) === null)
    )
    if (odd) return `the repository's git config sets ${odd.key}, which can make git run a program or read files elsewhere`
  }
  return null
}

/** The config files of the submodules' git folders under `gitDir/modules` (nested ones too), bounded. */
function moduleConfigs(gitDir: string, out: string[], depth: number): void {
  const walk = (folder: string, level: number) => {
    if (level > 6 || out.length > 500) return
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      return
    }
    for (const n of names) {
      const sub = join(folder, n)
      if (!statOrNull(sub)?.isDirectory()) continue
      if (statOrNull(join(sub, 'HEAD'))) {
        out.push(join(sub, 'config'), join(sub, 'config.worktree'))
        if (depth < 4) moduleConfigs(sub, out, depth + 1)
      } else walk(sub, level + 1)
    }
  }
  walk(join(gitDir, 'modules'), 0)
}

// What a repository's own git configuration may not make Fanout's git do. A folder can arrive with its `.git`
// (an archive, a copied checkout) and an agent can write into it; its config names programs git would run as
// the user, outside any sandbox, when Fanout creates a worktree, commits, diffs or merges: filters, textconv,
// external diffs, merge drivers, fsmonitor, hooks, signing programs, credential helpers, pagers, editors,
// ssh commands, proxies. Fanout's git never runs them (worktrees/git.ts applies what this file decides).
//
// Trusted is the person's own configuration: ~/.gitconfig and $XDG_CONFIG_HOME/git/config (scope `global`,
// with the files they include), so `git lfs install` (which writes there) and their signing or ssh setup
// still apply to Fanout's fetches. The system file is not read (GIT_CONFIG_NOSYSTEM). Everything else — the
// repository's `.git/config`, `config.worktree`, any file they `include` — is the repository's, trusted folder
// or not: folder trust approves `.claude` items by their content, and `.git/config` is none of them.
//
// Driver names are the repository's to choose (`filter.<any>.clean`), so the listing `git config --list
// --show-scope` gives is read and each such key found is overridden (GIT_CONFIG_KEY_n/VALUE_n, the command line's scope). Checked on git 2.39: an empty
// `filter.*.clean`/`smudge`/`process` runs nothing and passes the content through; an empty textconv,
// diff command or merge driver makes git fail ("cannot run") instead of running anything — diffs are asked
// with --no-ext-diff --no-textconv, so only a merge of a file with a repository merge driver fails, closed.

import { dirname, join, resolve } from 'node:path'

/** `-c` settings every Fanout git command gets, whatever any config says. */
export const ALWAYS: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'core.askPass=',
  'diff.external=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'tag.forceSignAnnotated=false',
  'push.gpgSign=false',
  'log.showSignature=false',
  'merge.verifySignatures=false',
  'protocol.ext.allow=never',
  'submodule.recurse=false',
  'fetch.recurseSubmodules=false',
  // Looking into a submodule's work tree starts `git status` there, under the submodule's own config (another
  // .git/modules/*/config, which an agent's sandbox can write): its commit is compared, never its files.
  'diff.ignoreSubmodules=dirty',
  'status.submoduleSummary=false',
  // An automatic gc would start git processes in the background that outlive the command.
  'gc.auto=0',
  'maintenance.auto=false'
]

/** The environment git runs with: no prompts, no system config, no program from the environment either. */
export const GIT_ENV: Readonly<Record<string, string | undefined>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  SSH_ASKPASS: undefined,
  GIT_EDITOR: ':',
  GIT_SEQUENCE_EDITOR: ':',
  GIT_PAGER: 'cat',
  // Only real transports: no `ext::` commands, no remote helpers a URL or `remote.*.vcs` could name.
  GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh'
}

/** Keys (lower-cased, as git lists them) whose value names a program, and the value that runs none. */
const PROGRAM_KEYS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^filter\..+\.(clean|smudge|process)$/, ''],
  [/^filter\..+\.required$/, 'false'],
  [/^diff\..+\.(textconv|command)$/, ''],
  [/^diff\.external$/, ''],
  [/^merge\..+\.driver$/, ''],
  [/^(difftool|mergetool)\..+\.(cmd|path)$/, ''],
  [/^gpg(\..+)?\.program$/, ''],
  [/^gpg\.ssh\.defaultkeycommand$/, ''],
  [/^credential(\..+)?\.helper$/, ''],
  [/^core\.sshcommand$/, 'ssh'],
  [/^ssh\.variant$/, 'ssh'],
  [/^core\.gitproxy$/, ''],
  [/^core\.askpass$/, ''],
  [/^core\.pager$/, 'cat'],
  [/^pager\..+$/, 'false'],
  [/^(core|sequence)\.editor$/, ':'],
  // git keeps the first of these it reads (an override is refused): the runner passes --upload-pack too.
  [/^remote\..+\.uploadpack$/, 'git-upload-pack'],
  [/^remote\..+\.receivepack$/, 'git-receive-pack'],
  [/^core\.alternaterefscommand$/, ''],
  [/^trailer\..+\.(command|cmd)$/, ''],
  [/^interactive\.difffilter$/, ''],
  [/^submodule\..+\.update$/, 'none'],
  [/^submodule\..+\.ignore$/, 'dirty'],
  [/^(browser|man)\..+\.(cmd|path)$/, ''],
  [/^web\.browser$/, '']
]

export interface ConfigEntry {
  scope: string
  key: string
  value: string | null
  /** `file:<path>` (relative to the folder git ran in), `command line:`…, when listed with --show-origin. */
  origin?: string
}

/**
 * Parses `git config -z --list --show-scope [--show-origin]`: `scope NUL [origin NUL] key [LF value] NUL`.
 */
export function parseConfigListing(out: string, withOrigin = false): ConfigEntry[] {
  const parts = out.split('\0')
  const step = withOrigin ? 3 : 2
  const entries: ConfigEntry[] = []
  for (let i = 0; i + step - 1 < parts.length; i += step) {
    const scope = parts[i]
    const kv = parts[i + step - 1]
    const nl = kv.indexOf('\n')
    entries.push({
      scope,
      key: nl < 0 ? kv : kv.slice(0, nl),
      value: nl < 0 ? null : kv.slice(nl + 1),
      ...(withOrigin ? { origin: parts[i + 1] } : {})
    })
  }
  return entries
}

/**
 * The files the repository's config includes, conditional or not (`include.path`, `includeIf.<cond>.path`).
 * A condition that is false where the listing ran can be true where git goes next — `onbranch:fanout/**` on an
 * agent's branch, `gitdir:**\/worktrees/**` in its worktree, both read again by git's own child processes — so
 * every such file is read and its keys neutralised whatever its condition. Paths as git resolves them:
 * `~/` from the home folder, relative ones from the including file's folder.
 */
export function includedFiles(entries: readonly ConfigEntry[], cwd: string, home: string): string[] {
  const out: string[] = []
  for (const e of entries) {
    if (TRUSTED_SCOPES.has(e.scope) || !e.value || !/^include(if\..*)?\.path$/i.test(e.key)) continue
    const from = e.origin?.startsWith('file:') ? dirname(resolve(cwd, e.origin.slice(5))) : cwd
    out.push(e.value.startsWith('~/') ? join(home, e.value.slice(2)) : resolve(from, e.value))
  }
  return out
}

/** The person's own files; everything else is the repository's (or unknown, which counts as the repository's). */
export const TRUSTED_SCOPES: ReadonlySet<string> = new Set(['global'])

export interface ConfigVerdict {
  /** [key, value] settings to pass as GIT_CONFIG_KEY_n/VALUE_n (a subsection may hold `=`, which `-c` would split at). */
  overrides: Array<[string, string]>
  /** `core.worktree` values from the repository's config (checked against the checkout by the runner). */
  worktreeRedirects: string[]
  /** How many keys naming a program were found (for tests and messages). */
  neutralised: number
}

/** What to override, given the listing of the configuration git would read in a folder. */
export function judgeConfig(entries: readonly ConfigEntry[]): ConfigVerdict {
  const overrides = new Map<string, string>()
  const worktreeRedirects: string[] = []
  for (const { scope, key, value } of entries) {
    if (TRUSTED_SCOPES.has(scope)) continue
    const lower = key.toLowerCase()
    if (lower === 'core.worktree' && value !== null && scope !== 'submodule') worktreeRedirects.push(value)
    const rule = PROGRAM_KEYS.find(([re]) => re.test(lower))
    if (rule) overrides.set(key, rule[1])
  }
  return { overrides: [...overrides], worktreeRedirects, neutralised: overrides.size }
}

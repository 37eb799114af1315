// Options that take a file, for every command family on the read-only list (and the commands next to them
// that are not on it): each names a file outside the working directories, the person's Claude Code
// credentials (~/.claude.json) or a file a Read deny rule protects, in every spelling getopt accepts
// (`--opt=F`, `--opt F`, `-oF`, `-o F`, clustered `-io F`). In plan mode none may pass as read-only, and
// nothing may be read: the option is either not on the allowlist or its value goes through the path check.
import type { Attack, World } from './attack-kit'

/** `{F}` is a file, `{D}` its folder. */
const TEMPLATES: Array<[string, string]> = [
  // git: options whose value is a file, global options that move git elsewhere
  ['git-blame-contents', 'git blame --contents {F} README.md'],
  ['git-blame-contents-eq', 'git blame --contents={F} README.md'],
  ['git-blame-S', 'git blame -S {F} README.md'],
  ['git-blame-S-attached', 'git blame -S{F} README.md'],
  ['git-blame-wS-cluster', 'git blame -wS {F} README.md'],
  ['git-blame-ignore-revs-file', 'git blame --ignore-revs-file {F} README.md'],
  ['git-grep-f', 'git grep -f {F}'],
  ['git-grep-if-cluster', 'git grep -if{F}'],
  ['git-grep-no-index', 'git grep --no-index word {F}'],
  ['git-diff-no-index', 'git diff --no-index {F} README.md'],
  ['git-diff-O', 'git diff -O{F} HEAD'],
  ['git-log-output', 'git log --output={F}'],
  ['git-C', 'git -C {D} log'],
  ['git-git-dir', 'git --git-dir={D} log'],
  ['git-work-tree', 'git --work-tree={D} status'],
  ['git-c-include', 'git -c include.path={F} log'],
  ['git-config-file', 'git config --file {F} --list'],
  ['git-ls-files-exclude-from', 'git ls-files --exclude-from={F} -o'],
  ['git-ls-files-X', 'git ls-files -X {F} -o'],
  ['git-log-stdin', 'git log --stdin < {F}'],
  ['git-show-path', 'git show HEAD -- {F}'],
  ['git-log-follow', 'git log -p --follow -- {F}'],
  ['git-notes-file', 'git notes add -F {F}'],
  ['git-apply', 'git apply --check {F}'],
  ['git-hash-object', 'git hash-object {F}'],
  ['git-archive-o', 'git archive -o {F} HEAD'],
  // grep and rg
  ['grep-f', 'grep -f {F} README.md'],
  ['grep-file-eq', 'grep --file={F} README.md'],
  ['grep-if-cluster', 'grep -if {F} README.md'],
  ['grep-ifF-attached', 'grep -if{F} README.md'],
  ['grep-exclude-from', 'grep -r --exclude-from={F} word .'],
  ['grep-operand', 'grep -h . {F}'],
  ['grep-r-operand', 'grep -r . {D}'],
  ['rg-f', 'rg -f {F} README.md'],
  ['rg-file', 'rg --file {F} README.md'],
  ['rg-ignore-file', 'rg --ignore-file {F} word'],
  ['rg-ignore-file-eq', 'rg --ignore-file={F} word'],
  ['rg-pre', 'rg --pre cat word'],
  ['rg-pre-eq', 'rg --pre=cat -e word'],
  ['rg-operand', 'rg . {F}'],
  // sort, uniq, wc, du, diff, cmp, tar, xargs: file lists, temp folders, outputs
  ['sort-T', 'sort -T {D} README.md'],
  ['sort-T-attached', 'sort -uT{D} README.md'],
  ['sort-temporary-directory', 'sort --temporary-directory={D} README.md'],
  ['sort-files0-from', 'sort --files0-from={F}'],
  ['sort-random-source', 'sort -R --random-source={F} README.md'],
  ['sort-operand', 'sort {F}'],
  ['uniq-output', 'uniq README.md {F}'],
  ['wc-files0-from', 'wc --files0-from={F}'],
  ['du-files0-from', 'du --files0-from {F}'],
  ['du-X', 'du -X {F} .'],
  ['du-exclude-from', 'du --exclude-from={F} .'],
  ['diff-from-file', 'diff --from-file={F} README.md'],
  ['diff-to-file', 'diff --to-file {F} README.md'],
  ['diff-X', 'diff -r -X {F} src src'],
  ['diff-operand', 'diff {F} README.md'],
  ['cmp-operand', 'cmp {F} README.md'],
  ['tar-T', 'tar -cf /dev/null -T {F}'],
  ['tar-tf', 'tar -tf {F}'],
  ['xargs-a', 'xargs -a {F} echo'],
  ['xargs-arg-file', 'xargs --arg-file={F} echo'],
  // find's file tests and file lists
  ['find-newer', 'find . -newer {F}'],
  ['find-anewer', 'find . -anewer {F}'],
  ['find-samefile', 'find . -samefile {F}'],
  ['find-newerma', 'find . -newerma {F}'],
  ['find-files0-from', 'find -files0-from {F}'],
  ['find-start', 'find {D} -name "*"'],
  // jq: files as arguments, modules, after --
  ['jq-slurpfile', "jq -n --slurpfile a {F} '$a'"],
  ['jq-rawfile', "jq -n --rawfile a {F} '$a'"],
  ['jq-from-file', 'jq --from-file {F} -n'],
  ['jq-f', 'jq -nf {F}'],
  ['jq-L', "jq -L {D} -n '.'"],
  ['jq-after-dashes', 'jq . -- --arg {F} y'],
  ['jq-operand', 'jq -R . {F}'],
  // sed, awk, date, file, tree, head and the like
  ['sed-f', 'sed -f {F} README.md'],
  ['sed-file-eq', 'sed --file={F} README.md'],
  ['sed-r', "sed '1r {F}' README.md"],
  ['sed-R', "sed 'R {F}' README.md"],
  ['sed-operand', 'sed -n p {F}'],
  ['awk-f', 'awk -f {F} README.md'],
  ['awk-getline', `awk 'BEGIN{while((getline l < "{F}")>0) print l}'`],
  ['date-f', 'date -f {F}'],
  ['date-file-eq', 'date --file={F}'],
  ['date-r', 'date -r {F}'],
  ['date-reference', 'date --reference={F}'],
  ['file-m', 'file -m {F} README.md'],
  ['file-f', 'file -f {F}'],
  ['file-files-from', 'file --files-from={F}'],
  ['file-z', 'file -z README.md'],
  ['tree-fromfile', 'tree --fromfile {F}'],
  ['tree-o', 'tree -o {F}'],
  ['head-operand', 'head -c 400 {F}'],
  ['tail-operand', 'tail {F}'],
  ['cat-operand', 'cat {F}'],
  ['nl-operand', 'nl {F}'],
  ['cut-operand', 'cut -c1-400 {F}'],
  ['md5sum-c', 'md5sum -c {F}'],
  ['sha256sum-check', 'sha256sum --check={F}'],
  ['ls-operand', 'ls -la {D}'],
  ['stat-operand', 'stat {F}'],
  ['realpath-relative-to', 'realpath --relative-to={D} README.md'],
  ['input-redirect', 'cat < {F}'],
  ['cd-then-cat', 'cd {D} && cat *'],
  // response files and assignment-shaped words bash expands
  ['at-file', 'cat @{F}'],
  ['tilde-after-equals', 'grep -r word a=~/.claude.json'],
  ['less', 'less {F}'],
  ['more', 'more {F}']
]

/**
 * Cases that pass as read-only and still read nothing they may not: `@file` is a plain file name to every
 * command on the list (`cat @x` reads `./@x`), a folder a Read deny rule protects may be listed or searched
 * (the sandbox hides its files), and `~` inside an option's value is not expanded by bash or the command.
 */
export const HARMLESS = /^of-[a-z]+-at-file$|^of-protected-(git-C|grep-r-operand|find-start|ls-operand|cd-then-cat)$|^of-tilde-.*-(eq|attached)$/

/** The option-file attacks against each target: a file outside, ~/.claude.json (by path and by ~), a protected file. */
export function optionFileAttacks(w: World): Attack[] {
  const targets: Array<[string, string, string]> = [
    ['outside', `${w.outside}/o.txt`, w.outside],
    ['home', `${w.home}/.claude.json`, w.home],
    ['tilde', '~/.claude.json', '~'],
    ['protected', 'secrets/a.txt', 'secrets']
  ]
  return targets.flatMap(([t, file, dir]) =>
    TEMPLATES.map(([id, template]) => ({
      id: `of-${t}-${id}`,
      tool: 'Bash',
      input: { command: template.replaceAll('{F}', file).replaceAll('{D}', dir) }
    }))
  )
}

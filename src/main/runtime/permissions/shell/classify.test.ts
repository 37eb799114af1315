// The read-only allowlist: what it must let through (so plan mode and read-only agents stay useful) and, by
// family, what it must not (every option or construct that runs, writes or reaches out).
import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PathPolicy } from '../../security/path-policy'
import { makeTempDir, writeTree } from '../../tools/test-kit'
import { bashReadOnlyVerdict } from '../bash-read-only'
import { rulesFrom } from '../rules'
import { checkSedScript } from './sed-script'

let dir: string
let cleanup: () => void
let policy: PathPolicy
beforeAll(() => {
  ;({ dir, cleanup } = makeTempDir('fanout-classify-'))
  writeTree(dir, { 'src/a.ts': 'a', 'src/b.ts': 'b', 'README.md': 'r', 'data.json': '{}', 'notes/x.txt': 'x', 'secrets/k': 'k' })
  execFileSync('git', ['init', '-q'], { cwd: dir })
  policy = new PathPolicy({ cwd: dir, home: '/nonexistent-home', rules: () => rulesFrom({ deny: ['Read(./secrets/**)'] }, 'project', dir) })
})
afterAll(() => cleanup())

const verdict = (c: string) => bashReadOnlyVerdict(c, policy)

describe('read-only commands stay read-only', () => {
  it.each([
    'ls',
    'ls -la src',
    'ls -lhS --color=never src notes',
    'pwd',
    'cat README.md',
    'cat -n src/a.ts src/b.ts',
    'head -20 README.md',
    'tail -n 5 README.md',
    'wc -l src/*.ts',
    'grep -n a src/a.ts',
    'grep -rn TODO src',
    'grep -e a -e b src/a.ts',
    'rg -n a src',
    'rg --files src',
    'rg -t ts a src',
    'find src -name "*.ts"',
    'find src -type f -maxdepth 2 -print',
    'sort README.md',
    'sort -u -k2 -t, README.md',
    'uniq -c README.md',
    'cut -d, -f1 README.md',
    'git status',
    'git status --short',
    'git log --oneline -n 5',
    'git log --oneline | head -20',
    'git diff HEAD~1 -- src',
    'git diff --stat',
    'git show HEAD:src/a.ts',
    'git branch -a',
    'git branch --show-current',
    'git tag -l',
    'git remote -v',
    'git rev-parse --show-toplevel',
    'git ls-files src',
    'git blame src/a.ts',
    'git stash list',
    'git --no-pager log -n 3',
    'jq .a data.json',
    'jq -r ".a" data.json',
    'jq --arg x 1 ".a" data.json',
    'sed -n "1,10p" README.md',
    "sed -n '/a/p;s/x/y/g' README.md",
    'echo hello',
    'echo "a && b"',
    'ls 2>/dev/null',
    'ls src >/dev/null 2>&1',
    'cat README.md | wc -l',
    'ls && git status',
    'ls || true',
    'cd src && ls',
    'diff src/a.ts src/b.ts',
    'stat README.md',
    'file README.md',
    'du -sh src',
    'tree -L 2 src',
    'which git',
    'date +%Y',
    'uname -a',
    'whoami',
    'basename src/a.ts',
    'realpath src',
    'md5sum README.md',
    'cat < README.md',
    'git grep -n TODO -- src',
    'ls ./src/../notes',
    // A recursive search passes protected files but cannot read them: it runs in the read-only sandbox.
    'grep -r k .'
  ])('%s', (c) => expect(verdict(c)).toEqual({ readOnly: true }))
})

describe('anything that runs, writes or reaches out is not', () => {
  it.each([
    ['git grep -O"rm -rf x" a', /-O/],
    ['git grep --open-files-in-pager=vim a', /--open-files-in-pager/],
    ['git -c core.pager=evil log', /git option -c/],
    ['sort -uo README.md /dev/null', /-o/],
    ['sort --out=x README.md', /--out/],
    ['sort --output x README.md', /--output/],
    ['find . -delete', /-delete/],
    ['find . -exec rm {} \\;', /-exec/],
    ['find -L .', /-L/],
    ["jq -n 'env.HOME'", /env/],
    ['jq -n "\\(env)"', /env/],
    ['sed -i s/a/b/ README.md', /-i/],
    ["sed 'w out' README.md", /sed command "w"/],
    ["sed 's/a/b/e' README.md", /flag "e"/],
    ['less README.md', /not on the read-only list/],
    ['man ls', /not on the read-only list/],
    ['xargs rm', /not on the read-only list/],
    ['awk 1 README.md', /not on the read-only list/],
    ['tee x', /not on the read-only list/],
    ['ls > x', /output redirection to x/],
    ['ls >> x', /output redirection/],
    ['cat <<EOF\nx\nEOF', /here-document/],
    ['echo $(id)', /command substitution/],
    ['echo `id`', /command substitution/],
    ['cat <(id)', /process substitution/],
    ['echo $HOME', /variable expansion/],
    ['GIT_PAGER=x git log', /environment assignment/],
    ["$'\\x6c\\x73'", /ANSI-C/],
    ['ls &', /background/],
    ['(ls)', /subshell/],
    ['cat secrets/k', /Read\(\.\/secrets\/\*\*\)/],
    ['cat s?crets/k', /Read/],
    ['git grep k', /whole repository/],
    ['git show HEAD:secrets/k', /Read/],
    ['cat /etc/passwd', /outside the working directories/],
    ['cat ../x', /outside the working directories/],
    ['cat ~/.ssh/id_rsa', /outside/],
    ['git branch evil', /--list/],
    ['git log --output=x', /--output/],
    ['rg --pre x a', /--pre/],
    ['rg -z a', /-z/],
    ['grep -R a .', /-R/],
    ['tree -o x', /-o/],
    ['uniq a b', /more than 1 operand/],
    ['date -s 2020-01-01', /-s/],
    ['/bin/ls', /by its path/],
    ['{a,b}', /brace expansion/],
    ['echo "unterminated', /parser could not read/]
  ])('%s', (c, why) => {
    const v = verdict(c)
    expect(v.readOnly).toBe(false)
    expect(v.readOnly ? '' : v.reason).toMatch(why)
  })
})

describe('sed scripts', () => {
  it.each([
    ['1,10p', null],
    ['/x/,/y/{p;n}', null],
    ['s/a/b/gI', null],
    ['y/abc/xyz/', null],
    ['$!N;P;D', null]
  ])('%s is print-only', (s, want) => expect(checkSedScript(s)).toBe(want))
  it.each(['w out', '1r file', 's/a/b/w out', 's/a/b/e', '1e id', 'W x', 'R x'])('%s is not', (s) => expect(checkSedScript(s)).not.toBeNull())
})

// Is a Bash command read-only? Parsed by mvdan/sh, then held to allowlists at every level: only plain
// commands joined by && || | and ;, only redirections to /dev/null or between descriptors (and input from a
// file it may read), no variables, substitutions, here-documents, env assignments, subshells, loops or
// functions, only commands from READ_ONLY_COMMANDS with options from their lists, and every file the command
// reads checked by the path check (inside the working directories, not protected by a Read deny rule).
// Anything else, including anything the parser refuses, is not read-only: the answer is "ask", never a guess.
import { existsSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { Arg } from './command-check'
import { FILE_EDIT_COMMANDS, type EditEnv } from './file-edit-commands'
import { expandGlob } from './glob-expand'
import { binOp, nodeType, parseShell, redirOp, type ShNode } from './parse-shell'
import { READ_ONLY_COMMANDS } from './read-only-commands'
import { wordValue } from './word-value'

export interface ReadOnlyContext {
  cwd: string
  home: string
  /** Why the command may not read this absolute path (outside the working directories, protected), or null. */
  checkRead(absPath: string): string | null
  /** Why a recursive read from this directory could reach a protected file, or null. */
  protectedUnder(absDir: string): string | null
  /**
   * acceptEdits: why the command may not change this absolute path (`tree`: nor anything below it), or null.
   * With it, the commands of FILE_EDIT_COMMANDS and output redirected into a file count too.
   */
  checkWrite?(absPath: string, how: { tree: boolean }): string | null
}

export type ReadOnlyVerdict = { readOnly: true } | { readOnly: false; reason: string }

const SYNTAX_NAMES: Record<string, string> = {
  Subshell: 'a subshell',
  Block: 'a command group',
  IfClause: 'an if statement',
  WhileClause: 'a loop',
  ForClause: 'a loop',
  CaseClause: 'a case statement',
  FuncDecl: 'a function definition',
  DeclClause: 'declare/export/local/readonly',
  TestClause: 'a [[ … ]] test',
  ArithmCmd: 'an arithmetic command',
  LetClause: 'let',
  TimeClause: 'time',
  CoprocClause: 'a coprocess'
}

function repoRootOf(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d
    if (dirname(d) === d) return dir
  }
}

class Classifier {
  constructor(private readonly ctx: ReadOnlyContext) {}

  env(cwd: string): EditEnv {
    return {
      cwd,
      readPath: (arg, how) => this.readPath(arg, how?.cwd ?? cwd),
      writePath: (arg, how) => this.writePath(arg, cwd, how?.tree ?? false),
      repoRoot: (at) => repoRootOf(at ?? cwd),
      protectedUnder: (dir) => this.ctx.protectedUnder(dir)
    }
  }

  /** Only with checkWrite (acceptEdits): a path the command changes, glob expanded. */
  writePath(arg: Arg, cwd: string, tree: boolean): string | null {
    const check = this.ctx.checkWrite
    if (!check) return `it changes ${arg.value}`
    let paths: string[]
    if (arg.glob) {
      const expanded = expandGlob(arg.glob, cwd)
      if (expanded === null) return `the glob ${arg.value} names too many files to check`
      paths = expanded.length ? expanded : [resolve(cwd, arg.value)]
    } else paths = [isAbsolute(arg.value) ? resolve(arg.value) : resolve(cwd, arg.value)]
    for (const p of paths) {
      const why = check(p, { tree })
      if (why) return why
    }
    return null
  }

  readPath(arg: Arg, cwd: string): string | null {
    if (arg.value === '-' && !arg.glob) return null
    let paths: string[]
    if (arg.glob) {
      const expanded = expandGlob(arg.glob, cwd)
      if (expanded === null) return `the glob ${arg.value} names too many files to check`
      paths = expanded.length ? expanded : [resolve(cwd, arg.value)]
    } else paths = [isAbsolute(arg.value) ? resolve(arg.value) : resolve(cwd, arg.value)]
    // A recursive read (grep -r, rg, find) may walk past protected files: it runs in the read-only sandbox,
    // where they are unreadable, so only the paths it is given are checked here. git is different: it reads
    // history, which no sandbox hides (see read-only-git.ts).
    for (const p of paths) {
      const why = this.ctx.checkRead(p)
      if (why) return why
    }
    return null
  }

  redirect(r: ShNode, state: { cwd: string }): string | null {
    const op = redirOp(r)
    if (op === '<<' || op === '<<-' || op === '<<<') return 'a here-document or here-string'
    if (op === '<>') return 'a read-write redirection'
    const w = wordValue(r.Word, this.ctx.home)
    if (!w.ok) return `a redirection using ${w.why}`
    if (op === '<') return this.readPath(w, state.cwd)
    if ((op === '>&' || op === '<&') && !w.glob && /^(\d+|-)$/.test(w.value)) return null
    if (op === '<&') return 'an unusual input redirection'
    if (w.value === '/dev/null' && !w.glob) return null
    // acceptEdits: output into a file it may change (never a glob: what it names is decided when it runs).
    if ((op === '>' || op === '>>') && this.ctx.checkWrite && !w.glob) return this.writePath(w, state.cwd, false)
    return `output redirection to ${w.value}`
  }

  call(cmd: ShNode, state: { cwd: string }): string | null {
    if ((cmd.Assigns as ShNode[]).length) return 'an environment assignment before the command (NAME=value can change what runs: PAGER, GIT_PAGER, LD_PRELOAD)'
    const args: Arg[] = []
    for (const word of cmd.Args as ShNode[]) {
      const v = wordValue(word, this.ctx.home)
      if (!v.ok) return `it uses ${v.why}`
      args.push(v)
    }
    if (!args.length) return null
    const [name, ...rest] = args
    if (name.glob) return 'a glob as the command name'
    if (name.value.includes('/')) return `a command run by its path (${name.value})`
    if (name.value === 'cd') return this.cd(rest, state)
    if (this.ctx.checkWrite && Object.hasOwn(FILE_EDIT_COMMANDS, name.value)) {
      const why = FILE_EDIT_COMMANDS[name.value](rest, this.env(state.cwd))
      return why && `${name.value}: ${why}`
    }
    const check = Object.hasOwn(READ_ONLY_COMMANDS, name.value) ? READ_ONLY_COMMANDS[name.value] : undefined
    if (!check) return `${name.value} is not on the read-only list`
    const why = check(rest, this.env(state.cwd))
    return why && `${name.value}: ${why}`
  }

  cd(args: Arg[], state: { cwd: string }): string | null {
    const operands = args.filter((a) => a.value !== '-L' && a.value !== '-P')
    if (operands.length > 1 || operands.some((a) => a.glob || a.value === '-')) return 'an unusual cd'
    const target = operands.length ? resolve(state.cwd, operands[0].value) : this.ctx.home
    if (!statSync(target, { throwIfNoEntry: false })?.isDirectory()) return `cd to ${target}, which is not a directory`
    const why = this.readPath({ value: target }, state.cwd)
    if (why) return why
    state.cwd = target
    return null
  }

  stmt(s: ShNode, state: { cwd: string }): string | null {
    if (s.Background) return 'it starts a background job'
    if (s.Coprocess) return 'a coprocess'
    for (const r of s.Redirs as ShNode[]) {
      const why = this.redirect(r, state)
      if (why) return why
    }
    const cmd = s.Cmd as ShNode | null
    if (!cmd) return null
    const type = nodeType(cmd)
    if (type === 'CallExpr') return this.call(cmd, state)
    if (type === 'BinaryCmd') {
      const op = binOp(cmd)
      if (op === '&&' || op === '||') return this.stmt(cmd.X, state) ?? this.stmt(cmd.Y, state)
      if (op === '|' || op === '|&') return this.stmt(cmd.X, { ...state }) ?? this.stmt(cmd.Y, { ...state })
      return `the operator ${op}`
    }
    return `it uses ${SYNTAX_NAMES[type] ?? `shell syntax (${type})`}`
  }
}

export function classifyReadOnly(command: string, ctx: ReadOnlyContext): ReadOnlyVerdict {
  if (!command.trim()) return { readOnly: false, reason: 'an empty command' }
  const parsed = parseShell(command)
  if (!parsed.ok) return { readOnly: false, reason: `the shell parser could not read it (${parsed.error})` }
  const c = new Classifier(ctx)
  const state = { cwd: ctx.cwd }
  for (const s of parsed.file.Stmts as ShNode[]) {
    const why = c.stmt(s, state)
    if (why) return { readOnly: false, reason: why }
  }
  return { readOnly: true }
}

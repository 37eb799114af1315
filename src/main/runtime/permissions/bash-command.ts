// Shell parsing for permission rules, on the real parser (shell/parse-shell.ts). An allow rule like
// Bash(git:*) must not approve `git status && rm -rf ~`, so compound commands are split and every part must
// be allowed; anything allow rules cannot vouch for (substitutions, redirection into files, subshells,
// here-documents, loops, a command the parser refuses) makes them step aside (the user is asked), while deny
// rules are still checked against every command found inside, substitutions and `bash -c '…'` strings too.
import { nodeType, parseShell, redirOp, sourceOf, walkNodes, type ShNode } from './shell/parse-shell'
import { wordValue } from './shell/word-value'

export interface ParsedCommand {
  /** Top-level simple commands, words separated by single spaces, redirections left out. */
  segments: string[]
  /** Commands found inside $(…), `…`, <(…) or `bash -c '…'`/`eval` strings: checked against deny rules. */
  nested: string[]
  /** Why allow rules cannot vouch for this command; empty when it is fully understood. */
  unsure: string[]
}

const SAFE_REDIRECT_TARGET = /^(\d+|-|\/dev\/null)$/
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh'])

const COMPOUND: Record<string, string> = {
  Subshell: 'subshell or command group',
  Block: 'subshell or command group',
  IfClause: 'an if statement',
  WhileClause: 'a loop',
  ForClause: 'a loop',
  CaseClause: 'a case statement',
  FuncDecl: 'a function definition',
  DeclClause: 'declare/export/local',
  TestClause: 'a [[ … ]] test',
  ArithmCmd: 'arithmetic',
  LetClause: 'let',
  TimeClause: 'time',
  CoprocClause: 'a coprocess'
}

class CommandSplitter {
  readonly segments: string[] = []
  readonly nested: string[] = []
  readonly unsure = new Set<string>()

  constructor(private readonly source: string) {}

  /** Substitutions anywhere in a node: their commands are nested, and allow rules step aside. */
  private substitutions(node: ShNode): void {
    walkNodes(node, (n) => {
      const t = nodeType(n)
      if (t !== 'CmdSubst' && t !== 'ProcSubst') return true
      this.unsure.add(t === 'CmdSubst' ? 'command substitution' : 'process substitution')
      const inner = new CommandSplitter(this.source)
      for (const st of n.Stmts as ShNode[]) inner.stmt(st)
      this.nested.push(...inner.segments, ...inner.nested)
      return false
    })
  }

  private redirect(r: ShNode): void {
    const op = redirOp(r)
    if (op === '<<' || op === '<<-' || op === '<<<') {
      this.unsure.add('heredoc or here-string')
      if (r.Hdoc) this.substitutions(r.Hdoc)
      this.substitutions(r.Word)
      return
    }
    this.substitutions(r.Word)
    const target = sourceOf(this.source, r.Word)
    if (SAFE_REDIRECT_TARGET.test(target) && op !== '<>') return
    this.unsure.add(op.includes('<') && op !== '<>' ? `input redirection from ${target}` : `output redirection to ${target}`)
  }

  private call(cmd: ShNode): void {
    const words = [...(cmd.Assigns as ShNode[]), ...(cmd.Args as ShNode[])]
    for (const w of words) this.substitutions(w)
    if (!(cmd.Args as ShNode[]).length) {
      if ((cmd.Assigns as ShNode[]).length) this.segments.push(words.map((w) => sourceOf(this.source, w)).join(' '))
      return
    }
    const text = words.map((w) => sourceOf(this.source, w)).join(' ')
    this.segments.push(text)
    // A shell running a string, or eval: what it runs is a command too.
    const args = (cmd.Args as ShNode[]).map((w) => wordValue(w, '~'))
    const name = args[0].ok ? args[0].value.split('/').pop() : undefined
    let inner: string | undefined
    if (name && SHELLS.has(name)) {
      const c = args.findIndex((a, i) => i > 0 && a.ok && /^-[a-z]*c[a-z]*$/i.test(a.value))
      const body = c === -1 ? undefined : args[c + 1]
      if (c !== -1) inner = body?.ok ? body.value : ''
    } else if (name === 'eval')
      inner = args
        .slice(1)
        .map((a) => (a.ok ? a.value : ''))
        .join(' ')
    if (inner === undefined) return
    this.unsure.add('a command string run by a shell')
    const nested = parseBashCommand(inner)
    this.nested.push(...nested.segments, ...nested.nested)
  }

  stmt(s: ShNode): void {
    for (const r of s.Redirs as ShNode[]) this.redirect(r)
    const cmd = s.Cmd as ShNode | null
    if (!cmd) return
    const type = nodeType(cmd)
    if (type === 'CallExpr') return this.call(cmd)
    if (type === 'BinaryCmd') {
      this.stmt(cmd.X)
      this.stmt(cmd.Y)
      return
    }
    this.unsure.add(COMPOUND[type] ?? `shell syntax (${type})`)
    // Commands inside compound syntax still count for deny rules.
    walkNodes(cmd, (n) => {
      if (nodeType(n) !== 'Stmt') return true
      const inner = new CommandSplitter(this.source)
      inner.stmt(n)
      for (const u of inner.unsure) this.unsure.add(u)
      this.segments.push(...inner.segments)
      this.nested.push(...inner.nested)
      return false
    })
  }
}

export function parseBashCommand(command: string): ParsedCommand {
  const parsed = parseShell(command)
  if (!parsed.ok)
    return { segments: command.trim() ? [command.trim()] : [], nested: [], unsure: [`a command the shell parser could not read (${parsed.error})`] }
  const splitter = new CommandSplitter(command)
  for (const s of parsed.file.Stmts as ShNode[]) splitter.stmt(s)
  return { segments: splitter.segments, nested: splitter.nested, unsure: [...splitter.unsure] }
}

const WRAPPERS =
  /^(?:sudo(?:\s+-\S+)*|command|builtin|exec|nohup|time|nice(?:\s+-n\s*-?\d+|\s+-\d+)?|timeout(?:\s+-\S+)*\s+\S+|env(?:\s+-\S+)*|xargs(?:\s+-\S+)*)\s+/
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+/

/** A segment plus the forms it takes without env assignments and wrappers (`sudo rm` is still `rm`). */
export function commandVariants(segment: string): string[] {
  const out = [segment]
  let s = segment
  for (let guard = 0; guard < 10; guard++) {
    const stripped = s.replace(ENV_ASSIGNMENT, '').replace(WRAPPERS, '')
    if (stripped === s) break
    s = stripped
    out.push(s)
  }
  return out
}

/**
 * Claude Code's Bash rule content: `npm run test:*` (prefix, whole words), `git * main` (wildcards), or an exact
 * command. A single trailing ` *` also matches the bare command (`ls *` matches `ls`).
 */
export function matchBashPattern(pattern: string, command: string): boolean {
  const cmd = command.trim()
  if (pattern.endsWith(':*')) {
    const prefix = pattern.slice(0, -2).trim()
    return cmd === prefix || cmd.startsWith(`${prefix} `)
  }
  if (!pattern.includes('*')) return cmd === pattern.trim()
  const stars = pattern.split('*').length - 1
  let body = pattern
    .trim()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  if (stars === 1 && body.endsWith(' .*')) body = `${body.slice(0, -3)}(?: .*)?`
  return new RegExp(`^${body}$`, 's').test(cmd)
}

/** The words of a simple command as it receives them (quotes removed); null if it uses expansions we will not guess at. */
export function shellWords(segment: string): string[] | null {
  const parsed = parseShell(segment)
  if (!parsed.ok || (parsed.file.Stmts as ShNode[]).length !== 1) return null
  const cmd = parsed.file.Stmts[0].Cmd as ShNode | null
  if (!cmd || nodeType(cmd) !== 'CallExpr') return null
  const out: string[] = []
  for (const w of [...(cmd.Assigns as ShNode[]).map(() => null), ...(cmd.Args as ShNode[])]) {
    if (!w) return null
    const v = wordValue(w, '~')
    if (!v.ok) return null
    out.push(v.value)
  }
  return out
}

// The shell parser every permission decision goes through: mvdan/sh (the parser behind shfmt, a strict
// bash 5 grammar) compiled to JavaScript. Chosen over sh-syntax (the same parser in WASM: its JSON tree drops
// the concrete type of every command node, so it cannot be classified, and it starts a Go runtime per parse)
// and over tree-sitter-bash (it recovers from errors, so a command it misreads still yields a plausible tree).
// mvdan/sh refuses what it does not understand, parses synchronously in well under a millisecond, and is
// loaded on first use (~45-200 ms), not at start-up: as a Bash call begins streaming (SessionSandbox.warmForBash).
import { createRequire } from 'node:module'
import type { ShNode, ShParser, syntax as Syntax } from 'mvdan-sh'

type SyntaxApi = typeof Syntax

let api: { syntax: SyntaxApi; parser: ShParser; redirOps: Map<number, string>; binOps: Map<number, string> } | undefined

/** Operator tokens are numbers that differ between builds, so they are learnt from probe commands once. */
function learnOps(syntax: SyntaxApi, parser: ShParser): { redirOps: Map<number, string>; binOps: Map<number, string> } {
  const redirOps = new Map<number, string>()
  for (const op of ['>', '>>', '<', '<>', '<&', '>&', '>|', '<<', '<<-', '<<<', '&>', '&>>']) {
    const src = op.startsWith('<<') && op !== '<<<' ? `a ${op}E\nx\nE\n` : `a ${op}1`
    const stmt = parser.Parse(src, '').Stmts[0]
    redirOps.set(stmt.Redirs[0].Op as number, op)
  }
  const binOps = new Map<number, string>()
  for (const op of ['&&', '||', '|', '|&']) binOps.set(parser.Parse(`a ${op} b`, '').Stmts[0].Cmd.Op as number, op)
  return { redirOps, binOps }
}

function load(): NonNullable<typeof api> {
  if (!api) {
    const { syntax } = createRequire(import.meta.url)('mvdan-sh') as { syntax: SyntaxApi }
    const parser = syntax.NewParser()
    api = { syntax, parser, ...learnOps(syntax, parser) }
  }
  return api
}

export type { ShNode }

/** Loads the parser now (the first Bash call's permission decision would otherwise wait for it). */
export function warmShellParser(): void {
  load()
}

export function shellParserLoaded(): boolean {
  return api !== undefined
}

export type ShellParse = { ok: true; file: ShNode; source: string } | { ok: false; error: string }

export function parseShell(source: string): ShellParse {
  const { parser } = load()
  try {
    return { ok: true, file: parser.Parse(source, ''), source }
  } catch (err) {
    const e = err as { Error?: () => string; message?: string }
    return { ok: false, error: typeof e?.Error === 'function' ? e.Error() : (e?.message ?? String(err)) }
  }
}

export function nodeType(node: ShNode): string {
  return load().syntax.NodeType(node)
}

/** Every node below (and including) `node`, depth first. */
export function walkNodes(node: ShNode, visit: (n: ShNode) => boolean | void): void {
  load().syntax.Walk(node, (n) => (n ? visit(n) !== false : true))
}

export function redirOp(redirect: ShNode): string {
  return load().redirOps.get(redirect.Op as number) ?? '?'
}

export function binOp(cmd: ShNode): string {
  return load().binOps.get(cmd.Op as number) ?? '?'
}

/** The source text of a node (positions are UTF-8 byte offsets). */
export function sourceOf(source: string, node: ShNode): string {
  const bytes = Buffer.from(source, 'utf8')
  return bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString('utf8')
}

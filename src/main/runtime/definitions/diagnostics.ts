// Diagnostics: every skipped or repaired agent file says where and why, in a sentence a person understands.
import type { Diagnostic, Severity } from '../../../shared/agent-definition'

export interface Position {
  line: number // 1-based
  column: number // 1-based
}

export function diagnostic(file: string, at: Position, severity: Severity, code: string, message: string): Diagnostic {
  return { file, line: at.line, column: at.column, severity, code, message }
}

/** `file:line:col: severity: message`, the format compilers use so editors can jump to it. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error')
}

/** 1-based line and column of a character offset in `text`. */
export function positionAt(text: string, offset: number): Position {
  let line = 1
  let lineStart = 0
  const end = Math.min(Math.max(offset, 0), text.length)
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++
    lineStart = i + 1
  }
  return { line, column: end - lineStart + 1 }
}

/** Shows a value in a message without flooding the terminal. */
export function preview(value: unknown, max = 60): string {
  let s: string
  try {
    s = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  } catch {
    s = String(value)
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s
}

// Why a draft would not load, in the words the editor shows it in: the loader's first error as a sentence of
// its own, and where it is (file:line:col). The banner shows it, and saving such a draft asks first.
import type { AgentAnalysis } from '../../../shared/agent-editor'

export interface LoadProblem {
  /** The loader's message as a sentence, without the "the agent is not loaded" every such message ends with. */
  message: string
  /** `code-reviewer.md:5:3`. */
  at: string
  line: number
}

export const fileName = (file: string): string => file.split(/[\\/]/).pop() ?? file

/** A loader message as a sentence of its own: capitalized, and without the "not loaded" said around it. */
export function sentence(message: string): string {
  const m = message.replace(/; the agent is not loaded$/, '')
  return m.charAt(0).toUpperCase() + m.slice(1)
}

/** Why this analysis' text would not load, or null when it loads (warnings alone never stop it). */
export function loadProblem(analysis: AgentAnalysis | null | undefined): LoadProblem | null {
  if (!analysis || analysis.loaded) return null
  const error = analysis.diagnostics.find((d) => d.severity === 'error')
  if (!error) return { message: 'The loader does not accept this file.', at: fileName(analysis.file), line: 1 }
  return { message: sentence(error.message), at: `${fileName(error.file)}:${error.line}:${error.column}`, line: error.line }
}

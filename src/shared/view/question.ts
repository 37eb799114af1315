// Whether an agent ended its turn asking the person something: the session then waits on them as surely as
// on a permission request, and says so (a badge on the session's row and header), not a plain "Done".

/** Its last words end on a question: the final paragraph, past code blocks and closing marks, ends with `?`. */
export function endsOnQuestion(text: string | null | undefined): boolean {
  if (!text) return false
  const prose = text.replace(/```[\s\S]*?```/g, '').trim()
  const last =
    prose
      .split(/\n\s*\n/)
      .pop()
      ?.trim() ?? ''
  // Non-ASCII marks spelt as escapes: a regular expression literal is copied into the CLI bundle as written, and
  // one character outside ASCII makes the launcher decode the whole 2 MB bundle as UTF-8 (code-cache.ts).
  return /[?\uFF1F][)\]"'\u201D\u2019*_`\s]*$/.test(last)
}

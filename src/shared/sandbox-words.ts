// How a permission request says it asks only because the Bash sandbox is unavailable (permissions/decide.ts).
// The screen says the full sentence once, in the session's notice; a card says it in a few words
// (renderer lib/permission-reason.ts), so both read this one wording.

/** The parenthesis decide.ts adds to a reason: ` (${NO_SANDBOX_LEAD}<why>${NO_SANDBOX_TAIL})`. */
export const NO_SANDBOX_LEAD = 'the Bash sandbox is unavailable: '
export const NO_SANDBOX_TAIL = '; commands that would run without asking inside it need approval'

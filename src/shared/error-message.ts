// One way to turn whatever was thrown into the sentence a person reads: an Error's message, or the thrown
// value as text (a rejected promise may carry a string, a number or undefined). Pure, so main, the CLI and
// the renderer all use it.
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

// Whether the person chose a V8 flag on Node's command line (or in NODE_OPTIONS): what `fanout run` switches
// on and off by itself for speed (feedback-tiering.ts, idle-gc.ts) it leaves alone when they did.

/**
 * `flag` without its dashes, e.g. 'expose-gc'. It counts as chosen as `--flag`, `--no-flag` or `--flag=…`, with
 * `_` and `-` alike, as V8 reads them; a path or value that merely contains the name does not.
 */
export function chosenOnCommandLine(flag: string, execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => {
    const name = a.split('=')[0].replace(/_/g, '-')
    return name === `--${flag}` || name === `--no-${flag}`
  })
}

// Whether the person chose a V8 flag on Node's command line (or in NODE_OPTIONS): what `fanout run` switches
// on and off by itself for speed (feedback-tiering.ts, idle-gc.ts) it leaves alone when they did.

/** `flag` without its dashes, e.g. 'expose-gc'; `_` and `-` in what was passed count alike, as V8 reads them. */
export function chosenOnCommandLine(flag: string, execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => a.replace(/_/g, '-').includes(flag))
}

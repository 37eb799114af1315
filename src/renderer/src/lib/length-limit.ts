// What a text box says about its length against what Fanout accepts: nothing while it is short, a count
// as it nears the limit, and a sentence (with the send button disabled) once it is over, so a huge paste
// is caught here, named, and kept in the box to shorten rather than refused by the host or cut.
const n = (x: number) => x.toLocaleString('en-US')

export interface LengthVerdict {
  over: boolean
  /** Null while the text is well within the limit. */
  text: string | null
}

export function lengthVerdict(length: number, max: number, what = 'This message'): LengthVerdict {
  if (length > max)
    return {
      over: true,
      text: `${what} is ${n(length)} characters; Fanout sends at most ${n(max)}. Shorten it (or put the long part in a file and refer to it) to send.`
    }
  if (length > max * 0.9) return { over: false, text: `${n(length)} of ${n(max)} characters` }
  return { over: false, text: null }
}

// Where a JSON text first goes wrong. Node 20's JSON.parse messages carry no position ("Unexpected token ']',
// ..."), and a settings diagnostic must say which line to fix, so a small validating scanner finds it.

/** Offset of the first syntax error, or -1 when the text is valid JSON. */
export function jsonErrorOffset(text: string): number {
  let i = 0
  const fail = (): never => {
    throw i
  }
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const string = (): void => {
    i++
    while (i < text.length) {
      const c = text[i]
      if (c === '\\') i += 2
      else if (c === '"') {
        i++
        return
      } else if (c < ' ') fail()
      else i++
    }
    fail()
  }
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']'
      i++
      ws()
      if (text[i] === close) {
        i++
        return
      }
      for (;;) {
        if (c === '{') {
          ws()
          if (text[i] !== '"') fail()
          string()
          ws()
          if (text[i] !== ':') fail()
          i++
        }
        value()
        ws()
        if (text[i] === ',') i++
        else if (text[i] === close) {
          i++
          return
        } else fail()
      }
    }
    if (c === '"') return string()
    const literal = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400))
    if (!literal) fail()
    else i += literal[0].length
  }
  try {
    value()
    ws()
    if (i < text.length) fail()
    return -1
  } catch (pos) {
    return Math.min(pos as number, text.length)
  }
}

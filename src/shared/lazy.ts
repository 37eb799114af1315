// A value made at its first use, then kept. For module-level values that cost to build (a zod schema is
// ~100k instructions per node) and that a command may never use: `fanout run` evaluates the modules of every
// feature before its first model request, and what is built there delays that request (#28).
export function lazy<T>(make: () => T): () => T {
  let made = false
  let value: T
  return () => {
    if (!made) {
      value = make()
      made = true
    }
    return value
  }
}

// Bounded parallelism for file work: enough to overlap I/O, few enough never to run out of fds (EMFILE).

/** Runs `fn` over `items` with at most `limit` at once, keeping order (avoids EMFILE on big sessions). */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

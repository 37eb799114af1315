// The rule of Claude Code's command and skill folders: read in order of precedence, the first of a name wins
// and a later one of the same name is passed over.
export function firstByName<T extends { name: string }>(): { list: T[]; add(item: T | null): void } {
  const list: T[] = []
  const seen = new Set<string>()
  return {
    list,
    add(item) {
      if (!item || seen.has(item.name)) return
      seen.add(item.name)
      list.push(item)
    }
  }
}

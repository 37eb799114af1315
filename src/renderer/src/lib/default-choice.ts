// A picker whose first entry is "whatever the settings say" names that choice once: as the default entry,
// never again further down the list (the permission menu listed "Ask before changes" twice).

export interface Choice {
  /** '' for the default entry: the request then leaves the field out and the settings decide. */
  value: string
  label: string
}

/** The default entry, labelled with what it resolves to (as `asDefault` words it), then every other value once. */
export function choicesWithDefault(
  values: readonly string[],
  current: string | undefined,
  label: (value: string) => string,
  fallback: string,
  asDefault: (label: string) => string = (l) => l
): Choice[] {
  const first: Choice = { value: '', label: current === undefined ? fallback : asDefault(label(current)) }
  const rest = [...new Set(values)].filter((v) => v !== current && label(v) !== (current === undefined ? undefined : label(current)))
  return [first, ...rest.map((value) => ({ value, label: label(value) }))]
}

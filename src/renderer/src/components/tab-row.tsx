// A row of tabs that picks one of a few views or filters: the selected one is marked for the eye (`active`)
// and for a screen reader (aria-selected); each tab's test id is the prefix and its id.
export function TabRow<T extends string>({
  label,
  className,
  tabClass,
  tabs,
  current,
  onPick,
  testIdPrefix
}: {
  label: string
  className: string
  tabClass?: string
  tabs: ReadonlyArray<{ id: T; label: string }>
  current: T
  onPick(id: T): void
  testIdPrefix: string
}) {
  return (
    <div className={className} role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.id}
          role="tab"
          aria-selected={current === t.id}
          className={[tabClass, current === t.id ? 'active' : ''].filter(Boolean).join(' ')}
          onClick={() => onPick(t.id)}
          data-testid={`${testIdPrefix}${t.id}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  )
}

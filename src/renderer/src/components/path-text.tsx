// A file path that stays identifiable in a narrow box: the directory gives way first, cut at its start so its
// meaningful end (".claude/agents/") stays; the file name gives way last. The whole path is the tooltip.
export function splitPath(path: string): { dir: string; base: string } {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1
  return { dir: path.slice(0, cut), base: path.slice(cut) }
}

export function PathText({ path, className, testId }: { path: string; className?: string; testId?: string }) {
  const { dir, base } = splitPath(path)
  return (
    <span className={`path-text${className ? ` ${className}` : ''}`} title={path} data-testid={testId}>
      {dir && (
        <span className="path-dir">
          <bdi>{dir}</bdi>
        </span>
      )}
      <span className="path-base">{base}</span>
    </span>
  )
}

// "just now", "2 min ago": a time that moves on by itself while the page stays open.
import { useRelativeTime } from '../lib/use-now'

export function RelativeTime({ ts }: { ts: number }) {
  return <time dateTime={new Date(ts).toISOString()}>{useRelativeTime(ts)}</time>
}

// A small inline icon set (stroke icons on a 16-px grid), so nothing is fetched and icons follow the text color.
import { memo, type SVGProps } from 'react'

const PATHS = {
  chevronRight: 'M6 4l4 4-4 4',
  chevronDown: 'M4 6l4 4 4-4',
  plus: 'M8 3v10M3 8h10',
  folder: 'M2 4.5A1.5 1.5 0 0 1 3.5 3H6l1.5 1.5h5A1.5 1.5 0 0 1 14 6v5.5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 11.5z',
  gear: 'M8 10.2a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4zM13 8a5 5 0 0 0-.1-.9l1.3-1-1.2-2.1-1.5.6a5 5 0 0 0-1.6-.9L9.6 2H6.4l-.3 1.7a5 5 0 0 0-1.6.9L3 4l-1.2 2.1 1.3 1a5 5 0 0 0 0 1.8l-1.3 1L3 12l1.5-.6c.5.4 1 .7 1.6.9l.3 1.7h3.2l.3-1.7c.6-.2 1.1-.5 1.6-.9l1.5.6 1.2-2.1-1.3-1c.1-.3.1-.6.1-.9z',
  stop: 'M4.5 4.5h7v7h-7z',
  send: 'M2.5 8h9M8 4.5L11.5 8 8 11.5',
  arrowUp: 'M8 13V3M4 7l4-4 4 4',
  shield: 'M8 2l5 2v4c0 3-2.2 5.2-5 6-2.8-.8-5-3-5-6V4z',
  maximize: 'M3 6V3h3M13 6V3h-3M3 10v3h3M13 10v3h-3',
  minimize: 'M6 3v3H3M10 3v3h3M6 13v-3H3M10 13v-3h3',
  transcript: 'M4 2.5h6l2.5 2.5v8.5h-8.5zM6 7h4.5M6 9.5h4.5M6 12h3',
  message: 'M2.5 3.5h11v7.5H7l-3 2.5v-2.5H2.5z',
  diff: 'M4 2.5h6l2.5 2.5v8.5h-8.5zM6 7.25h4M8 5.25v4M6 11.25h4',
  merge: 'M5 3v10M5 3.5a1.25 1.25 0 1 0 0-.01M11 12.5a1.25 1.25 0 1 0 0-.01M5 5.5c0 3.5 6 3 6 5.75',
  branch: 'M5 3v10M11 3.5v3a2 2 0 0 1-2 2H5M5 3.5a1.25 1.25 0 1 0 0-.01M11 3.5a1.25 1.25 0 1 0 0-.01M5 12.5a1.25 1.25 0 1 0 0-.01',
  check: 'M3.5 8.5l3 3 6-7',
  x: 'M4 4l8 8M12 4l-8 8',
  alert: 'M8 2.5l6 10.5H2zM8 6.5v3M8 11.2v.1',
  tree: 'M3 3h4v3H3zM9 7h4v3H9zM9 11.5h4v3H9zM5 6v6.5h4M5 8.5h4',
  grid: 'M2.5 2.5h4.5v4.5H2.5zM9 2.5h4.5v4.5H9zM2.5 9h4.5v4.5H2.5zM9 9h4.5v4.5H9z',
  timeline: 'M2 4h7M5 8h9M3 12h6',
  clock: 'M8 14A6 6 0 1 0 8 2a6 6 0 0 0 0 12zM8 5v3l2 1.5',
  tool: 'M10 2.5a3.5 3.5 0 0 0-3.3 4.6L2.5 11.3l2.2 2.2 4.2-4.2A3.5 3.5 0 0 0 13.5 6l-2 2-2-.5-.5-2 2-2a3.5 3.5 0 0 0-1-.9z',
  play: 'M5 3.5v9l7-4.5z',
  sparkle: 'M8 2l1.4 4.6L14 8l-4.6 1.4L8 14l-1.4-4.6L2 8l4.6-1.4z',
  lock: 'M4 7.5h8v6H4zM5.75 7.5V5.25a2.25 2.25 0 0 1 4.5 0V7.5',
  key: 'M10 2.5a3.5 3.5 0 1 1-3.2 4.9L2.5 11.7V13.5h2v-1.5h1.5v-1.5h1.5l1-1A3.5 3.5 0 1 1 10 2.5zM10.8 5.2v.1',
  agents:
    'M5.5 7a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM11 7.5a1.7 1.7 0 1 0 0-3.4 1.7 1.7 0 0 0 0 3.4zM1.5 13c0-2.2 1.8-4 4-4s4 1.8 4 4M10 9.2c.3-.1.6-.2 1-.2 1.9 0 3.5 1.6 3.5 3.5',
  external: 'M9 2.5h4.5V7M13.5 2.5L7.5 8.5M11.5 9.5v4h-9v-9h4',
  dot: 'M8 9.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z',
  more: 'M3.5 8h.01M8 8h.01M12.5 8h.01',
  pencil: 'M10.5 2.5l3 3-8 8h-3v-3zM9 4l3 3',
  trash: 'M2.5 4.5h11M6 4.5V3h4v1.5M4 4.5l.7 9h6.6l.7-9M6.8 7v4.5M9.2 7v4.5',
  search: 'M7 11.5a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zM10.3 10.3L13.5 13.5',
  compact: 'M4.5 2.5L8 6l3.5-3.5M4.5 13.5L8 10l3.5 3.5M2.5 8h11',
  hourglass: 'M4 2.5h8M4 13.5h8M5 2.5c0 3 6 3.5 6 5.5s-6 2.5-6 5.5M11 2.5c0 3-6 3.5-6 5.5s6 2.5 6 5.5',
  gauge: 'M2.5 11.5a5.5 5.5 0 1 1 11 0M8 11.5l2.5-3.5M4.6 8.2l.9.6M8 5.5v1M11.4 8.2l-.9.6',
  pause: 'M5.5 3.5v9M10.5 3.5v9',
  replay: 'M3 8a5 5 0 1 0 1.5-3.6M3 2.5v2.5h2.5M7 6v4l3-2z'
} as const

export type IconName = keyof typeof PATHS

function IconView({ name, size = 16, ...rest }: { name: IconName; size?: number } & SVGProps<SVGSVGElement>) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.4}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...rest}
    >
      <path d={PATHS[name]} />
    </svg>
  )
}
// An icon is drawn again only when its props change: it sits in nearly every row, tile and button, whose parents draw again at each agent's arrival.
export const Icon = memo(IconView)

export function Spinner({ size = 12 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />
}

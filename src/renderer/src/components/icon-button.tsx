// A button that shows only an icon: its title is the tooltip and its aria-label the name a screen reader says,
// so every icon-only button keeps the same class and icon size in one place.
import type { ButtonHTMLAttributes } from 'react'
import { Icon, type IconName } from './icon'

export function IconButton({ icon, size = 13, ...rest }: { icon: IconName; size?: number } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button className="icon-button" {...rest}>
      <Icon name={icon} size={size} />
    </button>
  )
}

// Screenshots of a view in light and dark, saved under e2e/artifacts/screens/ for a person to look at.
import type { Page } from '@playwright/test'
import { settle } from './settle'

const shots = process.env.FANOUT_SHOTS ?? 'e2e/artifacts/screens'

export async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await settle(page) // colour transitions finished
    await page.screenshot({ path: `${shots}/${name}-${scheme}.png` })
  }
}

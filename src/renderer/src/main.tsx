import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import { warmUpMarkdownWhenIdle } from './lib/markdown-warmup'
import { applyTheme, startTheme } from './lib/theme'
import { boot, useApp } from './state/store'
import { connectTransport } from './transport'
import './styles/theme.css'
import './styles/layout.css'
import './styles/components.css'
import './styles/settings.css'
import './styles/inbox.css'
import './styles/panels.css'
import './styles/markdown.css'
import './styles/team.css'
import './styles/context.css'
import './styles/budget.css'
import './styles/review.css'
import './styles/search-replay.css'
import './styles/overview.css'
import './styles/usage.css'

startTheme()
useApp.subscribe((s, prev) => {
  if (s.settings && s.settings.theme !== prev.settings?.theme) applyTheme(s.settings.theme)
})
boot(connectTransport())
warmUpMarkdownWhenIdle()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>
)

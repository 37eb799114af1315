// Assistant markdown → safe HTML: marked (GFM) for structure, highlight.js for code, DOMPurify last so
// nothing the model writes can run script, load remote content or style the app.
import DOMPurify from 'dompurify'
import hljs from 'highlight.js/lib/core'
import bash from 'highlight.js/lib/languages/bash'
import c from 'highlight.js/lib/languages/c'
import cpp from 'highlight.js/lib/languages/cpp'
import css from 'highlight.js/lib/languages/css'
import diff from 'highlight.js/lib/languages/diff'
import go from 'highlight.js/lib/languages/go'
import java from 'highlight.js/lib/languages/java'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import markdownLang from 'highlight.js/lib/languages/markdown'
import python from 'highlight.js/lib/languages/python'
import ruby from 'highlight.js/lib/languages/ruby'
import rust from 'highlight.js/lib/languages/rust'
import shell from 'highlight.js/lib/languages/shell'
import sql from 'highlight.js/lib/languages/sql'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'
import yaml from 'highlight.js/lib/languages/yaml'
import { Marked } from 'marked'

const languages = { bash, c, cpp, css, diff, go, java, javascript, json, markdown: markdownLang, python, ruby, rust, shell, sql, typescript, xml, yaml }
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang)
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' })
hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' })
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' })
hljs.registerAliases(['py'], { languageName: 'python' })
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' })
hljs.registerAliases(['yml'], { languageName: 'yaml' })
hljs.registerAliases(['md'], { languageName: 'markdown' })
hljs.registerAliases(['rs'], { languageName: 'rust' })

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)

export function highlight(code: string, lang?: string): string {
  const language = lang && hljs.getLanguage(lang) ? lang : undefined
  try {
    if (language) return hljs.highlight(code, { language, ignoreIllegals: true }).value
    // Auto-detection is costly on long text; only guess for short snippets.
    if (code.length < 5000) return hljs.highlightAuto(code, ['typescript', 'javascript', 'json', 'bash', 'python', 'diff']).value
  } catch {}
  return escapeHtml(code)
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const name = (lang ?? '').trim().split(/\s+/)[0]
      const label = name ? `<span class="code-lang">${escapeHtml(name)}</span>` : ''
      return `<pre class="code-block">${label}<code class="hljs">${highlight(text, name)}</code></pre>`
    }
  }
})

const PURIFY = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'img', 'video', 'audio', 'svg', 'math'],
  FORBID_ATTR: ['style', 'id', 'srcset'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i
}

// One instance with its configuration parsed once: sanitize() with a config object re-parses it on
// every call, which was a fifth of each call's cost while panels stream.
const purify = typeof window === 'undefined' ? DOMPurify : DOMPurify(window)
purify.setConfig(PURIFY)

// Streaming re-renders the same growing texts: keep recent results.
const cache = new Map<string, string>()
const CACHE_SIZE = 300

/** Safe HTML for `text`. `cache: false` for one-off texts (a block still streaming) that would only evict others. */
export function renderMarkdown(text: string, { cache: useCache = true }: { cache?: boolean } = {}): string {
  const hit = cache.get(text)
  if (hit !== undefined) return hit
  const html = purify.sanitize(marked.parse(text, { async: false }) as string) as string
  if (!useCache) return html
  cache.set(text, html)
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!)
  return html
}

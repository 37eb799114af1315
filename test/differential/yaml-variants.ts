// Agent files in the YAML shapes people write, beyond the shared corpus: each variant is one way a frontmatter
// can be odd (indicators, quoting, block scalars, tabs, duplicates, comments, line endings...). The
// differential test installs them all in one project and compares what Claude Code lists with what Fanout
// loads. Names are v<nn>-<what>, so a listing line says which variant it is.

export interface YamlVariant {
  name: string
  /** The whole file. */
  text: string
}

const body = '\nYou are a test agent.\n'
const file = (front: string) => `---\n${front}\n---\n${body}`

const raw: Array<[string, (name: string) => string]> = [
  ['plain', (n) => file(`name: ${n}\ndescription: A plain description.`)],
  ['colon-in-value', (n) => file(`name: ${n}\ndescription: Use when: the code is ready, e.g.: after a change.`)],
  ['hash-in-value', (n) => file(`name: ${n}\ndescription: Handles issue #42 and C# code`)],
  ['comment-after', (n) => file(`name: ${n}\ndescription: Reviews code # a comment`)],
  ['at-sign-start', (n) => file(`name: ${n}\ndescription: @reviewer use this after changes`)],
  ['backtick-start', (n) => file(`name: ${n}\ndescription: \`npm test\` runner that explains failures`)],
  ['percent-start', (n) => file(`name: ${n}\ndescription: %done tracker for tasks`)],
  ['star-start', (n) => file(`name: ${n}\ndescription: *Important* agent for releases`)],
  ['ampersand-start', (n) => file(`name: ${n}\ndescription: & more: handles the rest`)],
  ['bang-start', (n) => file(`name: ${n}\ndescription: !urgent fixes only`)],
  ['pipe-char-inside', (n) => file(`name: ${n}\ndescription: Reads a | b pipelines`)],
  ['bracket-start', (n) => file(`name: ${n}\ndescription: [Beta] experimental agent`)],
  ['brace-start', (n) => file(`name: ${n}\ndescription: {fast} lookups`)],
  ['double-quoted', (n) => file(`name: "${n}"\ndescription: "Quoted: with a colon"`)],
  ['single-quoted-escape', (n) => file(`name: '${n}'\ndescription: 'It''s quoted'`)],
  ['unterminated-quote', (n) => file(`name: ${n}\ndescription: "Starts quoted but never ends`)],
  ['quote-then-text', (n) => file(`name: ${n}\ndescription: "Quoted" and then more`)],
  ['folded-block', (n) => file(`name: ${n}\ndescription: >\n  Folded over\n  two lines.`)],
  ['literal-block', (n) => file(`name: ${n}\ndescription: |\n  Line one.\n  Line two.`)],
  ['multiline-plain', (n) => file(`name: ${n}\ndescription: First line\n  continues here.`)],
  ['multiline-with-colon', (n) => file(`name: ${n}\ndescription: First line\n  Example: a continuation with a colon.`)],
  ['tab-indent-continuation', (n) => file(`name: ${n}\ndescription: Tabbed\n\tcontinuation line.`)],
  ['tab-after-colon', (n) => file(`name:\t${n}\ndescription:\tTab after the colon.`)],
  ['space-before-colon', (n) => file(`name : ${n}\ndescription : Space before the colon.`)],
  ['duplicate-key', (n) => file(`name: ${n}\ndescription: First description.\ndescription: Second description.`)],
  ['trailing-spaces', (n) => `---   \nname: ${n}   \ndescription: Trailing spaces.   \n---   \n${body}`],
  ['crlf', (n) => `---\r\nname: ${n}\r\ndescription: Windows line endings.\r\n---\r\n${body}`],
  ['blank-first-line', (n) => `\n---\nname: ${n}\ndescription: A blank line before the frontmatter.\n---\n${body}`],
  ['document-end-marker', (n) => `---\nname: ${n}\ndescription: Ends with dots.\n...\n---\n${body}`],
  ['empty-description', (n) => file(`name: ${n}\ndescription:`)],
  ['numeric-description', (n) => file(`name: ${n}\ndescription: 42`)],
  ['boolean-description', (n) => file(`name: ${n}\ndescription: yes`)],
  ['list-description', (n) => file(`name: ${n}\ndescription:\n  - one\n  - two`)],
  ['map-description', (n) => file(`name: ${n}\ndescription:\n  when: always`)],
  ['numeric-name', () => file(`name: 12345\ndescription: A number for a name.`)],
  ['tools-flow-list', (n) => file(`name: ${n}\ndescription: Flow list tools.\ntools: [Read, Grep]`)],
  ['tools-block-list', (n) => file(`name: ${n}\ndescription: Block list tools.\ntools:\n  - Read\n  - Bash`)],
  ['tools-unclosed-flow', (n) => file(`name: ${n}\ndescription: Unclosed flow list.\ntools: [Read, Grep`)],
  ['tools-with-spaces', (n) => file(`name: ${n}\ndescription: Spaced tools.\ntools:   Read ,  Grep  `)],
  ['model-fable', (n) => file(`name: ${n}\ndescription: Runs on fable.\nmodel: fable`)],
  ['model-1m', (n) => file(`name: ${n}\ndescription: Runs on a long context.\nmodel: sonnet[1m]`)],
  ['unknown-key', (n) => file(`name: ${n}\ndescription: Has an unknown key.\nfavourite-colour: teal`)],
  ['anchor-alias', (n) => file(`name: ${n}\ndescription: &d Anchored text\nsummary: *d`)],
  ['undefined-alias', (n) => file(`name: ${n}\ndescription: *nothing`)],
  ['emoji', (n) => file(`name: ${n}\ndescription: 🚀 Ships releases ✨`)],
  ['html-in-description', (n) => file(`name: ${n}\ndescription: Use <example>like this</example> when needed`)],
  ['long-line-with-quotes', (n) => file(`name: ${n}\ndescription: Use this agent when the user says "review": it "checks" things, e.g. 'quotes' inside.`)],
  ['key-uppercase', (n) => file(`Name: ${n}\nDescription: Uppercase keys.`)],
  ['indented-keys', (n) => file(`  name: ${n}\n  description: Indented keys.`)],
  ['tab-indented-list', (n) => file(`name: ${n}\ndescription: Tab-indented tools.\ntools:\n\t- Read\n\t- Grep`)],
  ['tab-indented-map', (n) => file(`name: ${n}\ndescription: Tab-indented hooks.\nhooks:\n\tStop:\n\t\t- hooks: []`)],
  ['duplicate-name', (n) => file(`name: first-of-${n}\ndescription: Two names.\nname: ${n}`)],
  ['no-closing-fence', (n) => `---\nname: ${n}\ndescription: No closing fence.\n${body}`]
]

export const YAML_VARIANTS: YamlVariant[] = raw.map(([what, make], i) => {
  const name = `v${String(i + 1).padStart(2, '0')}-${what}`
  return { name, text: make(name) }
})

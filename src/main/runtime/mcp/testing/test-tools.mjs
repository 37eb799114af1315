// The tools of the MCP servers the test suite runs (stdio-server.mjs, http-server.mjs): plain JavaScript so
// `node` runs them as real processes, built with the SDK's server side like any third-party server.
import { z } from 'zod'

// A 1x1 PNG.
export const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

export function registerTestTools(server, label) {
  server.registerTool(
    'echo',
    { description: `Echoes the text back (${label}).`, inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text: `${label} echo: ${text}` }] })
  )
  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: `${a} + ${b} = ${a + b}` }], structuredContent: { sum: a + b } })
  )
  server.registerTool('picture', { description: 'Returns a tiny picture.' }, async () => ({
    content: [
      { type: 'text', text: 'Here is the picture.' },
      { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' }
    ]
  }))
  server.registerTool('fail', { description: 'Always fails.' }, async () => ({
    content: [{ type: 'text', text: 'the fail tool always fails' }],
    isError: true
  }))
  server.registerTool('whereami', { description: 'Says where the server runs.', annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text: JSON.stringify({ cwd: process.cwd(), testVar: process.env.MCP_TEST_VAR ?? null, pid: process.pid }) }]
  }))
  server.registerTool(
    'wait',
    { description: 'Waits until cancelled or ms pass.', inputSchema: { ms: z.number() } },
    ({ ms }, extra) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: `waited ${ms} ms` }] }), ms)
        extra.signal.addEventListener('abort', () => clearTimeout(timer))
      })
  )
}

// Resources and prompts, for servers started with --resources: a text file, a JSON document and a prompt with an argument.
export function registerTestResources(server, label) {
  server.registerResource('readme', 'memo://readme', { description: `The ${label} readme.`, mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `${label} readme: hello from the resource` }]
  }))
  server.registerResource('config', 'memo://config.json', { description: 'A JSON document.', mimeType: 'application/json' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ label, answer: 42 }) }]
  }))
  server.registerPrompt('greet', { description: `Greets someone (${label}).`, argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `PROMPT-GREET: say hello to ${name} from ${label}` } }]
  }))
}

// Builds everything a checkout needs: the CLI bundle (esbuild, ~100 ms) and the Electron targets
// (electron-vite: main, preload, renderer; the renderer also serves browser mode).
// `node scripts/build.mjs --cli` builds only the CLI (used by bin/fanout on first run).
import { build } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// The Anthropic SDK's modules get light-headers.ts's Headers and FormData instead of the globals: Node 20
// loads all of undici (~15 ms) when the global Headers is first touched, and the SDK touches it while it
// builds every request, although http-fetch.ts sends them over node:http. Likewise its tests of a request's
// body, `globalThis.ReadableStream && x instanceof globalThis.ReadableStream` (and Blob), become calls that
// do not read those globals: the first read of ReadableStream loads Node's web streams (~7 ms).
const sdkModule = /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/].*\.m?js$/
const lightHeaders = join(root, 'src/main/runtime/model/light-headers.ts')
const webGlobalTest = /globalThis\.(ReadableStream|Blob)\s*&&\s*([\w.]+)\s+instanceof\s+globalThis\.\1\b/g
const sdkWithLightHeaders = {
  name: 'sdk-light-headers',
  setup(b) {
    b.onLoad({ filter: sdkModule }, async ({ path }) => {
      const text = await readFile(path, 'utf8')
      if (!/\b(Headers|FormData)\b/.test(text) && !/globalThis\.(ReadableStream|Blob)\b/.test(text)) return undefined
      const names = '{ Headers, FormData, isReadableStream: __fanoutIsReadableStream, isBlob: __fanoutIsBlob }'
      const esm = path.endsWith('.mjs')
      const bring = esm
        ? `import ${names.replaceAll(':', ' as')} from ${JSON.stringify(lightHeaders)};\n`
        : `const ${names} = require(${JSON.stringify(lightHeaders)});\n`
      const contents = text.replace(webGlobalTest, (_all, name, value) => `__fanoutIs${name}(${value})`)
      return { contents: bring + contents, loader: 'js', resolveDir: dirname(path) }
    })
  }
}

// zod's `z.locales` namespace pulls its ~50 translations of error messages into the bundle (260 KB of 2.3 MB)
// and evaluates each at start; Fanout's messages are English (zod registers `en` itself, from schemas.js), so
// the CLI bundle's `z.locales` holds `en` alone.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]node_modules[\\/]zod[\\/]v4[\\/]/.test(importer) ? { path: join(dirname(importer), '../locales/en.js'), namespace: 'zod-locales' } : undefined
    )
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, ({ path }) => ({
      contents: `export { default as en } from ${JSON.stringify(path)}`,
      loader: 'js',
      resolveDir: dirname(path)
    }))
  }
}

// The bundle's banner and what it must leave in node_modules: the CLI's and the table's builds alike.
const banner = { js: "var __fanoutModuleUrl = require('node:url').pathToFileURL(__filename).href;" }
// The CLI bundle's file is wrapped as Node would wrap it (src/main/cli/code-cache.ts says why): the same text.
const BUNDLE_WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {'
const BUNDLE_WRAPPER_END = '\n})'
const external = ['electron', 'bufferutil', 'utf-8-validate', '@anthropic-ai/sandbox-runtime', 'node-sqlite3-wasm']

// What the build computes once for every `fanout run` start, by the functions the runtime would use: the JSON
// schemas of the tools' inputs (src/main/cli/tool-input-table.ts) and the built-in agents parsed
// (src/main/cli/builtin-agent-table.ts).
async function buildTimeTables(outdir) {
  const file = join(outdir, 'build-tables.cjs')
  await build({
    stdin: {
      contents: [
        `export { toolInputTable } from ${JSON.stringify(join(root, 'src/main/cli/tool-input-table.ts'))}`,
        `export { builtinAgentTable } from ${JSON.stringify(join(root, 'src/main/cli/builtin-agent-table.ts'))}`
      ].join('\n'),
      resolveDir: root,
      loader: 'ts'
    },
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external,
    define: { 'import.meta.url': '__fanoutModuleUrl' },
    banner,
    plugins: [zodEnglishOnly],
    logLevel: 'warning'
  })
  try {
    const tables = createRequire(import.meta.url)(file)
    return { toolInputs: tables.toolInputTable(), builtinAgents: await tables.builtinAgentTable(join(root, 'agents')) }
  } finally {
    rmSync(file, { force: true })
  }
}

// commander loads node:child_process when it is evaluated, for subcommands that are programs of their own
// (Fanout has none): its `spawn` is looked up at such a call instead, so `fanout run` does not load
// child_process before its first request (src/main/cli/run-start.test.ts checks it; ~1.5 ms of every start).
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8')
      const eager = "const childProcess = require('node:child_process');"
      if (!text.includes(eager)) return undefined
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"
      return { contents: text.replace(eager, lazy), loader: 'js', resolveDir: dirname(path) }
    })
  }
}

// src/main/runtime/yaml-lib.ts hands out the yaml library; in the CLI it requires it at the first call, so a
// run that parses no YAML before its first request does not evaluate yaml's 72 modules at start.
const lazyYaml = {
  name: 'lazy-yaml',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]main[\\/]runtime[\\/]yaml-lib\.ts$/ }, ({ path }) => ({
      contents: "let lib;\nexport const yamlLib = () => (lib ??= require('yaml'));\n",
      loader: 'js',
      resolveDir: dirname(path)
    }))
  }
}

// node:crypto costs a start ~3-4.5 ms to load (6-8 ms on its own) and ~1 ms of first calls, yet nothing before
// `fanout run`'s first request needs it: ids come from runtime/random-hex.ts, the code cache's and the account's
// keys from runtime/quick-hash.ts. Fanout's own imports of it (src/) get it at their first call instead, as in
// the launcher; a name a source imports that this list lacks fails the build. Packages keep theirs (the SDK's
// is already loaded only when used). src/main/cli/run-start.test.ts checks it is not loaded before that request.
const LAZY_CRYPTO_NAMES = ['createHash', 'randomBytes', 'randomFillSync', 'timingSafeEqual']
const lazyCrypto = {
  name: 'lazy-node-crypto',
  setup(b) {
    b.onResolve({ filter: /^(node:)?crypto$/ }, ({ importer }) =>
      /[\\/]src[\\/]/.test(importer) && !importer.includes('node_modules') ? { path: 'node:crypto', namespace: 'lazy-crypto' } : undefined
    )
    b.onLoad({ filter: /.*/, namespace: 'lazy-crypto' }, () => ({
      contents: [
        "let crypto\nconst c = () => (crypto ??= require('node:crypto'))",
        ...LAZY_CRYPTO_NAMES.map((name) => `export const ${name} = (...args) => c().${name}(...args)`)
      ].join('\n'),
      loader: 'js'
    }))
  }
}

// Third-party packages the CLI bundle leaves to a part of its own, out/cli/fanout-deps.cjs (src/main/cli/bundle-parts.ts),
// by the names the sources import them by (~390 KB that every start read): the MCP SDK (with ajv, its formats and
// its zod entry points) is used only when an MCP server is connected, ws only by `fanout web`. In the bundle each
// name is a module that takes its exports from the part, which is read and compiled at the first use of one of them.
const DEPS_PART = 'fanout-deps'
const LAZY_DEPS = [
  '@modelcontextprotocol/sdk/client/index.js',
  '@modelcontextprotocol/sdk/client/sse.js',
  '@modelcontextprotocol/sdk/client/streamableHttp.js',
  '@modelcontextprotocol/sdk/shared/stdio.js',
  '@modelcontextprotocol/sdk/types.js',
  'ws'
]
const lazyDepName = /^(@modelcontextprotocol\/sdk(\/.*)?|ws)$/
const bundleParts = join(root, 'src/main/cli/bundle-parts.ts')
const depsFromPart = {
  name: 'deps-from-part',
  setup(b) {
    b.onResolve({ filter: lazyDepName }, ({ path, importer }) =>
      LAZY_DEPS.includes(path)
        ? { path, namespace: 'lazy-dep' }
        : { errors: [{ text: `${path} (imported by ${importer}) is not in LAZY_DEPS (scripts/build.mjs): add it there` }] }
    )
    b.onLoad({ filter: /.*/, namespace: 'lazy-dep' }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(bundleParts)}).loadPart(${JSON.stringify(DEPS_PART)})[${JSON.stringify(path)}]`,
      loader: 'js',
      resolveDir: root
    }))
  }
}
// The part's entry: each package evaluated when first asked for (`fanout web` does not evaluate the MCP SDK), and
// resolved as the bundle resolved it before, as an ES module import (the packages' ESM builds, not their CommonJS ones).
const depsPartEntry = `module.exports = {\n${LAZY_DEPS.map((d) => `  get ${JSON.stringify(d)}() { return require(${JSON.stringify(d)}) },`).join('\n')}\n}\n`
const depsAsImports = {
  name: 'deps-as-imports',
  setup(b) {
    b.onResolve({ filter: lazyDepName }, ({ path, kind, resolveDir }) =>
      kind === 'require-call' && LAZY_DEPS.includes(path) ? b.resolve(path, { kind: 'import-statement', resolveDir }) : undefined
    )
  }
}

export async function buildCli() {
  const outdir = join(root, 'out/cli')
  // Earlier builds were ES module chunks; the code caches of an older bundle are simply not used.
  for (const old of ['chunks', 'fanout.mjs', 'fanout.mjs.map']) rmSync(join(outdir, old), { recursive: true, force: true })
  const { toolInputs, builtinAgents } = await buildTimeTables(outdir)
  // What the bundle and its launcher are built alike with.
  const common = {
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external,
    minify: true,
    sourcemap: 'linked',
    logLevel: 'warning'
  }
  await build({
    ...common,
    // The CLI is one CommonJS bundle, run by the launcher through a V8 code cache (src/main/cli/code-cache.ts):
    // Node 20 caches compiled code for nothing else, and compiling is most of `fanout run`'s start-up.
    // Commands reached through import() are only evaluated when used, and with a warm cache a part that
    // does not run costs next to nothing.
    entryPoints: { fanout: join(root, 'src/main/cli/index.ts') },
    // Dependencies are bundled in: loading one file is several times faster than resolving and reading
    // hundreds of files from node_modules, and process start to first request is a product figure.
    // sandbox-runtime finds its seccomp helper next to its own files, and node-sqlite3-wasm its .wasm file
    // next to its script: both are loaded from node_modules (`external`).
    // Code that finds Fanout's files from import.meta.url gets the bundle's own URL; the tools' input schemas
    // come as JSON (src/main/runtime/tools/input-json.ts), the built-in agents parsed (definitions/builtin-table.ts).
    define: {
      'import.meta.url': '__fanoutModuleUrl',
      __FANOUT_TOOL_INPUT_JSON__: JSON.stringify(toolInputs),
      __FANOUT_BUILTIN_AGENTS_JSON__: JSON.stringify(builtinAgents)
    },
    // The file is the bundle inside Node's CommonJS wrapper, a function expression the launcher compiles as it
    // is read (code-cache.ts): wrapped there, 1.8 MB of text would be copied into one string at every start.
    banner: { js: BUNDLE_WRAPPER_START + banner.js },
    footer: { js: BUNDLE_WRAPPER_END.replace(/^\n/, '') },
    // Minified (common), the bundle parses ~30% faster at start. Names are not kept (keepNames): its ~3,000
    // __name calls cost ~10 ms at every start; --enable-source-maps gives stack traces their names back.
    plugins: [sdkWithLightHeaders, zodEnglishOnly, commanderLazyChildProcess, lazyYaml, lazyCrypto, depsFromPart]
  })
  // The bundle's part (see LAZY_DEPS), wrapped and loaded through a code cache of its own as the bundle is.
  await build({
    ...common,
    stdin: { contents: depsPartEntry, resolveDir: root, sourcefile: `${DEPS_PART}-entry.cjs`, loader: 'js' },
    outfile: join(outdir, `${DEPS_PART}.cjs`),
    outdir: undefined,
    define: { 'import.meta.url': '__fanoutModuleUrl' },
    banner: { js: BUNDLE_WRAPPER_START + banner.js },
    footer: { js: BUNDLE_WRAPPER_END.replace(/^\n/, '') },
    plugins: [zodEnglishOnly, depsAsImports]
  })
  // The launcher, required by bin/fanout as any CommonJS file.
  await build({
    ...common,
    entryPoints: { launch: join(root, 'src/main/cli/launch.ts') },
    define: { 'import.meta.url': '__fanoutModuleUrl' },
    banner,
    plugins: [lazyCrypto]
  })
  // The first run after a build then starts from a compiled bundle (see primeCaches); never fails the build.
  try {
    createRequire(import.meta.url)(join(outdir, 'launch.cjs')).primeLaunchCaches(outdir)
  } catch (err) {
    console.warn(`The CLI's code cache was not prepared (${err.message}); its first run compiles the bundle.`)
  }
}

export function buildApp() {
  const bin = join(root, 'node_modules/.bin/electron-vite')
  const r = spawnSync(bin, ['build'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) throw new Error('electron-vite build failed')
}

// Run as a script (not imported by bin/fanout): compared as URLs, so a path with spaces or a Windows drive matches.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const cliOnly = process.argv.includes('--cli')
  await buildCli()
  if (!cliOnly) buildApp()
}

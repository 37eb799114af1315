// Preloaded (NODE_OPTIONS=--import) into a `fanout run` by run-start.test.ts: when the process sends its first
// HTTP request, writes to FANOUT_START_PROBE what it had done by then that costs start-up time for nothing
// on that path: Node's fetch (undici) or other built-in modules it does not use loaded, ICU's locale data touched by a locale-aware call, zod schemas
// built (how many, and the field names of every object schema made so far: zod hands each new schema to this hook),
// the CLI's built files read (the bundle's parts, src/main/cli/bundle-parts.ts, are read only when used).
// The default exports are the modules the bundle requires, so patching them reaches its requests.
import fs from 'node:fs'
import http from 'node:http'
import Module from 'node:module'

const localeCalls = []
let sent = false
const zodObjects = []
let zodSchemas = 0
// All the schemas the run builds, first request or not: shows the hook sees them when none is built before it.
let zodSchemasByExit = 0
globalThis.__zod_globalConfig = {
  postProcessor: (schema) => {
    zodSchemasByExit++
    if (sent) return
    zodSchemas++
    if (schema?._zod?.def?.type === 'object') zodObjects.push(schema)
  }
}
const note = (what) => {
  if (!sent && !localeCalls.includes(what)) localeCalls.push(what)
}
const watch = (owner, name, label) => {
  const original = owner[name]
  owner[name] = function (...args) {
    note(label)
    return original.apply(this, args)
  }
}
watch(Number.prototype, 'toLocaleString', 'Number.prototype.toLocaleString')
watch(String.prototype, 'localeCompare', 'String.prototype.localeCompare')
for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) watch(Date.prototype, name, `Date.prototype.${name}`)
for (const name of ['NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules', 'ListFormat', 'RelativeTimeFormat', 'Segmenter']) {
  const Original = Intl[name]
  Intl[name] = new Proxy(Original, {
    construct: (target, args, newTarget) => (note(`Intl.${name}`), Reflect.construct(target, args, newTarget)),
    apply: (target, self, args) => (note(`Intl.${name}`), Reflect.apply(target, self, args))
  })
}

// Where in the bundle each module was required from before the first request (file:line:column of the nearest
// frame in out/cli/fanout.cjs): a package's code requiring Node's modules as it is evaluated shows it ran
// (the test maps the positions through the bundle's source map: yaml's modules require 'process').
const requiredFrom = []
const moduleRequire = Module.prototype.require
Module.prototype.require = function (id) {
  if (!sent) {
    const frame = new Error().stack.split('\n').find((line) => line.includes('fanout.cjs:'))
    const at = frame && /fanout\.cjs:(\d+):(\d+)/.exec(frame)
    if (at) requiredFrom.push({ id, line: Number(at[1]), column: Number(at[2]) })
  }
  return moduleRequire.call(this, id)
}

// The CLI's built files (*.cjs) the launcher read, before the first request and by the end of the run.
const cjsRead = []
const cjsReadByExit = []
const noteRead = (file) => {
  const name = typeof file === 'string' && file.endsWith('.cjs') ? file.split(/[\\/]/).pop() : null
  if (!name) return
  if (!sent && !cjsRead.includes(name)) cjsRead.push(name)
  if (!cjsReadByExit.includes(name)) cjsReadByExit.push(name)
}
for (const name of ['openSync', 'readFileSync']) {
  const original = fs[name]
  fs[name] = function (file, ...rest) {
    noteRead(file)
    return original.call(this, file, ...rest)
  }
}

// The standard streams made before the first request (Node makes one at the first read of process.stdout or
// stderr, loading the modules of its kind): none is needed before it (src/main/cli/redacted-output.ts).
const streamsMade = []
for (const name of ['stdout', 'stderr']) {
  const own = Object.getOwnPropertyDescriptor(process, name)
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      if (!sent && !streamsMade.includes(name)) streamsMade.push(name)
      return own.get.call(process)
    }
  })
}

const firstRequest = () => {
  if (sent) return
  sent = true
  const undici = process.moduleLoadList.some((m) => m.includes('undici'))
  // Node's own modules that nothing before the first request uses: no program is started, no answer inflated,
  // nothing timed with the global `performance` (which loads perf_hooks: runtime/clock.ts), no TLS for an
  // http:// base URL (the scripted server's; this probe does not load https either), no web streams (a JSON body),
  // no node:crypto (ids come from the kernel's generator, the few digests made then from quick-hash.ts).
  const builtins = ['child_process', 'zlib', 'perf_hooks', 'https', 'tls', 'internal/webstreams/readablestream', 'crypto'].filter((name) =>
    process.moduleLoadList.includes(`NativeModule ${name}`)
  )
  const zodObjectKeys = [...new Set(zodObjects.flatMap((o) => Object.keys(o._zod.def.shape)))].sort()
  fs.writeFileSync(
    process.env.FANOUT_START_PROBE,
    JSON.stringify({ undici, builtins, localeCalls, zodSchemas, zodObjectKeys, requiredFrom, cjsRead: [...cjsRead], streamsMade: [...streamsMade] })
  )
}
process.on('exit', () => {
  if (!sent) return
  const seen = JSON.parse(fs.readFileSync(process.env.FANOUT_START_PROBE, 'utf8'))
  fs.writeFileSync(process.env.FANOUT_START_PROBE, JSON.stringify({ ...seen, zodSchemasByExit, cjsReadByExit }))
})
// The scripted server is http://: the run's requests go through http.request.
const request = http.request
http.request = function (...args) {
  firstRequest()
  return request.apply(this, args)
}

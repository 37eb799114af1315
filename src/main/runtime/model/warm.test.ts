// ModelClient.warm: a prefix written ahead of the requests that will share it (see orchestration/spawn/warm-spawn.ts
// for its use), against the scripted server and an endpoint that refuses max_tokens 0.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { createModelClient } from './client'
import { startScriptedServer, reply, type ScriptedServer } from './scripted'
import type { ModelRequest } from './types'

let scripted: ScriptedServer | undefined
let plain: Server | undefined
afterEach(async () => {
  await scripted?.close()
  await new Promise((r) => (plain ? plain.close(r) : r(undefined)))
  scripted = plain = undefined
})

const tools = Array.from({ length: 12 }, (_, i) => ({ name: `tool_${i}`, description: `Does thing ${i}. `.repeat(40), input_schema: { type: 'object' } }))
const request = (system: string): ModelRequest => ({ model: 'claude-sonnet-5-5', system, tools, messages: [{ role: 'user', content: 'warmup' }] })

it('writes the prefix once, bills it, and the request that shares it then reads it', async () => {
  scripted = await startScriptedServer({ respond: () => reply.text('ok') })
  const client = createModelClient({ apiKey: 'k-warm-1', baseURL: scripted.url, maxRetries: 0 })
  const [usage, again] = await Promise.all([client.warm!(request('You are a worker.')), client.warm!(request('You are a worker.'))])
  expect(usage?.cacheWriteTokens).toBeGreaterThan(1000)
  expect(usage?.costUsd).toBeGreaterThan(0)
  expect(again).toBeNull() // on its way already: sent once
  expect(scripted.messageRequests().filter((r) => r.maxTokens === 0)).toHaveLength(1)
  const res = await client.stream({ ...request('You are a worker.'), messages: [{ role: 'user', content: 'Do task 1.' }] })
  expect(res.usage.cacheReadTokens).toBe(usage!.cacheWriteTokens)
})

it('an endpoint that refuses max_tokens 0 is not asked again, and nothing fails', async () => {
  let asked = 0
  plain = createServer((req, res) => {
    asked++
    req.resume()
    res.writeHead(400, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: must be at least 1' } }))
  })
  await new Promise<void>((r) => plain!.listen(0, '127.0.0.1', () => r()))
  const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
  const client = createModelClient({ apiKey: 'k-warm-2', baseURL: url, maxRetries: 0 })
  expect(await client.warm!(request('You are a worker.'))).toBeNull()
  expect(await client.warm!(request('You are a reviewer.'))).toBeNull()
  expect(asked).toBe(1)
})

it('nothing is sent with sharing off', async () => {
  scripted = await startScriptedServer({ respond: () => reply.text('ok') })
  const client = createModelClient({ apiKey: 'k-warm-3', baseURL: scripted.url, maxRetries: 0, cacheSharing: 'off' })
  expect(await client.warm!(request('You are a worker.'))).toBeNull()
  expect(scripted.messageRequests()).toHaveLength(0)
})

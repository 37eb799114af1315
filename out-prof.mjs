var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __export = (target2, all2) => {
  for (var name in all2)
    __defProp(target2, name, { get: all2[name], enumerable: true });
};

// src/main/runtime/security/child-env.ts
function isSecretEnvName(name) {
  const upper = name.toUpperCase();
  if (NOT_SECRET.has(upper)) return false;
  if (FANOUT_CREDENTIALS.has(upper)) return true;
  if (upper.split(/_+/).some((part) => SECRET_PARTS.has(part))) return true;
  return SECRET_SUFFIX.test(upper);
}
function isSecretEnvEntry(name, value) {
  return isSecretEnvName(name) || value !== void 0 && URL_WITH_PASSWORD.test(value);
}
function passes(pass, name) {
  return pass.some((p) => p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : p === name);
}
function childEnv(opts = {}) {
  const out = {};
  const pass = opts.pass ?? [];
  for (const [name, value] of Object.entries(opts.base ?? process.env)) {
    if (value === void 0) continue;
    if (isSecretEnvEntry(name, value) && !passes(pass, name)) continue;
    out[name] = value;
  }
  for (const [name, value] of Object.entries(opts.set ?? {})) {
    if (value === void 0) delete out[name];
    else out[name] = value;
  }
  return out;
}
var FANOUT_CREDENTIALS, SECRET_PARTS, SECRET_SUFFIX, NOT_SECRET, URL_WITH_PASSWORD;
var init_child_env = __esm({
  "src/main/runtime/security/child-env.ts"() {
    FANOUT_CREDENTIALS = /* @__PURE__ */ new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS"]);
    SECRET_PARTS = /* @__PURE__ */ new Set([
      "KEY",
      "KEYS",
      "APIKEY",
      "TOKEN",
      "TOKENS",
      "SECRET",
      "SECRETS",
      "PASSWORD",
      "PASSWORDS",
      "PASSWD",
      "PASS",
      "PASSPHRASE",
      "PWD_HASH",
      "CREDENTIAL",
      "CREDENTIALS",
      "CREDS",
      "AUTH",
      "AUTHTOKEN",
      "COOKIE",
      "COOKIES",
      "PAT",
      "PRIVATE",
      "SIGNATURE",
      "CERT_KEY",
      "OTP"
    ]);
    SECRET_SUFFIX = /(APIKEY|ACCESSKEY|SECRETKEY|AUTHTOKEN|ACCESSTOKEN|TOKEN|SECRET|PASSWORD|PASSWD)$/i;
    NOT_SECRET = /* @__PURE__ */ new Set(["SSH_AUTH_SOCK", "GPG_AGENT_INFO", "KEYTIMEOUT", "XAUTHORITY", "PWD", "OLDPWD"]);
    URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;
  }
});

// src/main/runtime/tools/process-group.ts
function killProcessGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (err) {
    if (err.code === "ESRCH") return false;
    throw err;
  }
}
function trackBackgroundGroup(pid) {
  background.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const p of background) killProcessGroup(p, "SIGKILL");
    });
  }
  return () => background.delete(pid);
}
var background, exitHookInstalled;
var init_process_group = __esm({
  "src/main/runtime/tools/process-group.ts"() {
    background = /* @__PURE__ */ new Set();
    exitHookInstalled = false;
  }
});

// src/main/runtime/mcp/server-config.ts
import { z as z7 } from "zod";
function expandEnv(text2, env, missing2) {
  return text2.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_all, name, fallback) => {
    const value = env[name];
    if (value !== void 0 && value !== "") return value;
    if (fallback !== void 0) return fallback;
    missing2.add(name);
    return "";
  });
}
function parseServerConfig(name, raw, where, env) {
  const fail = (why) => ({ error: `MCP server "${name}" in ${where}: ${why}` });
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return fail('the entry must be an object like {"command": "...", "args": [...]} or {"type": "http", "url": "..."}');
  const entry = raw;
  const type = entry.type;
  if (type === "sse" || type === "ws" || type === "sse-ide" || type === "ws-ide" || type === "sdk")
    return fail(`transport type "${String(type)}" is not supported by Fanout; use "stdio" (a command) or "http" (streamable HTTP)`);
  if (type !== void 0 && typeof type !== "string") return fail('"type" must be "stdio" or "http"');
  const missing2 = /* @__PURE__ */ new Set();
  const x = (s) => expandEnv(s, env, missing2);
  const xMap = (m) => Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, x(v)]));
  let config;
  if (type === "stdio" || type === void 0 && "command" in entry) {
    const parsed = stdioSchema.safeParse(entry);
    if (!parsed.success) return fail(issueText(parsed.error));
    config = { type: "stdio", command: x(parsed.data.command), args: (parsed.data.args ?? []).map(x), env: xMap(parsed.data.env), ...parsed.data.cwd ? { cwd: x(parsed.data.cwd) } : {} };
  } else if (type === "http" || type === "streamable-http" || type === "streamableHttp" || type === void 0 && "url" in entry) {
    const parsed = httpSchema.safeParse(entry);
    if (!parsed.success) return fail(issueText(parsed.error));
    const url2 = x(parsed.data.url);
    try {
      if (!["http:", "https:"].includes(new URL(url2).protocol)) return fail(`url must be http:// or https://, not ${url2}`);
    } catch {
      if (!missing2.size) return fail(`url ${JSON.stringify(url2)} is not a valid URL`);
    }
    config = { type: "http", url: url2, headers: xMap(parsed.data.headers) };
  } else if (typeof type === "string") {
    return fail(`unknown transport type "${type}"; use "stdio" (a command) or "http" (streamable HTTP)`);
  } else {
    return fail('the entry has neither "command" (a local server) nor "url" (an HTTP server)');
  }
  if (missing2.size) return fail(`missing environment variable${missing2.size > 1 ? "s" : ""} ${[...missing2].join(", ")} (used as \${...} without a default)`);
  return { config };
}
function normalizeMcpName(name) {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}
function mcpToolName(server, tool) {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`.slice(0, 64);
}
function describeTransport(config) {
  return config.type === "stdio" ? [config.command, ...config.args].join(" ") : config.url;
}
var stringMap, stdioSchema, httpSchema, issueText;
var init_server_config = __esm({
  "src/main/runtime/mcp/server-config.ts"() {
    stringMap = z7.record(z7.string(), z7.string(), { error: "must be an object of string values" });
    stdioSchema = z7.object({
      type: z7.literal("stdio").optional(),
      command: z7.string({ error: "must be a command (a string)" }).trim().min(1, "is empty"),
      args: z7.array(z7.string(), { error: "must be a list of strings" }).optional(),
      env: stringMap.optional(),
      cwd: z7.string().optional()
    });
    httpSchema = z7.object({
      type: z7.enum(["http", "streamable-http", "streamableHttp"]).optional(),
      url: z7.string({ error: "must be a URL" }).trim().min(1, "is empty"),
      headers: stringMap.optional()
    });
    issueText = (error) => error.issues.map((i) => `${i.path.length ? i.path.join(".") : "the entry"} ${i.message}`).join("; ");
  }
});

// src/main/runtime/mcp/errors.ts
var McpStartError;
var init_errors = __esm({
  "src/main/runtime/mcp/errors.ts"() {
    McpStartError = class extends Error {
      constructor(message, server) {
        super(message);
        this.server = server;
        this.name = "McpStartError";
      }
      server;
    };
  }
});

// src/main/runtime/mcp/stdio-transport.ts
import { spawn as spawn2 } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
var STDERR_TAIL_CHARS, OwnedStdioTransport;
var init_stdio_transport = __esm({
  "src/main/runtime/mcp/stdio-transport.ts"() {
    init_child_env();
    init_process_group();
    STDERR_TAIL_CHARS = 4e3;
    OwnedStdioTransport = class {
      constructor(params) {
        this.params = params;
        this.exited = new Promise((resolve24) => this.markExited = resolve24);
      }
      params;
      onclose;
      onerror;
      onmessage;
      child = null;
      buffer = new ReadBuffer();
      stderrText = "";
      exitInfo = null;
      spawnError = null;
      exited;
      markExited;
      /** The last few thousand characters the server wrote to stderr. */
      get stderrTail() {
        return this.stderrText;
      }
      /** Set once the process has ended. */
      get exit() {
        return this.exitInfo;
      }
      /** Why the process could not be started at all (ENOENT: no such command). */
      get startError() {
        return this.spawnError;
      }
      start() {
        if (this.child) throw new Error("The MCP server process was already started.");
        return new Promise((resolve24, reject) => {
          const child2 = spawn2(this.params.command, this.params.args, {
            cwd: this.params.cwd,
            // The server's own `env` from its configuration is passed as written; nothing else that carries a credential.
            env: childEnv({ pass: this.params.passEnv, set: this.params.env }),
            stdio: ["pipe", "pipe", "pipe"],
            detached: process.platform !== "win32",
            windowsHide: true
          });
          this.child = child2;
          child2.once("error", (err) => {
            this.spawnError = err;
            reject(err);
            this.onerror?.(err);
          });
          child2.once("spawn", () => resolve24());
          child2.once("close", (code, signal) => {
            this.exitInfo = { code, signal };
            this.markExited();
            this.onclose?.();
          });
          child2.stdout?.on("data", (chunk) => {
            try {
              this.buffer.append(chunk);
            } catch (err) {
              this.onerror?.(err instanceof Error ? err : new Error(String(err)));
              return;
            }
            for (; ; ) {
              let message;
              try {
                message = this.buffer.readMessage();
              } catch (err) {
                this.onerror?.(err instanceof Error ? err : new Error(String(err)));
                continue;
              }
              if (message === null) break;
              this.onmessage?.(message);
            }
          });
          child2.stderr?.on("data", (chunk) => {
            this.stderrText = (this.stderrText + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
          });
          child2.stdin?.on("error", () => void 0);
        });
      }
      send(message) {
        const stdin = this.child?.stdin;
        if (!stdin || this.exitInfo) return Promise.reject(new Error("The MCP server process is not running."));
        return new Promise((resolve24) => {
          if (stdin.write(serializeMessage(message))) resolve24();
          else stdin.once("drain", () => resolve24());
        });
      }
      /** Ends the server: closes its stdin, then SIGTERM and SIGKILL to its process group if it lingers. */
      async close() {
        const child2 = this.child;
        if (!child2 || this.exitInfo || this.spawnError) return;
        const wait = (ms) => Promise.race([this.exited, new Promise((r) => setTimeout(r, ms).unref())]);
        child2.stdin?.end();
        await wait(1e3);
        for (const signal of ["SIGTERM", "SIGKILL"]) {
          if (this.exitInfo) break;
          if (child2.pid !== void 0) {
            if (process.platform === "win32") child2.kill(signal);
            else killProcessGroup(child2.pid, signal);
          }
          await wait(1500);
        }
      }
    };
  }
});

// src/main/runtime/mcp/connect.ts
var connect_exports = {};
__export(connect_exports, {
  DEFAULT_MCP_START_TIMEOUT_MS: () => DEFAULT_MCP_START_TIMEOUT_MS,
  McpStartError: () => McpStartError,
  connectMcpServer: () => connectMcpServer
});
import { resolve as resolve18 } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
function tail(text2, lines2 = 12) {
  const kept = text2.trimEnd().split("\n").slice(-lines2).join("\n");
  return kept ? `
Last lines of its stderr:
${kept}` : "";
}
function errorText2(err) {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause;
  if (cause?.code === "ECONNREFUSED") return "connection refused";
  if (cause?.code === "ENOTFOUND") return "host not found";
  return cause?.message && err.message === "fetch failed" ? cause.message : err.message;
}
function stdioFailure(name, config, transport, err, timeoutMs) {
  const start = transport.startError;
  if (start?.code === "ENOENT") return `MCP server "${name}" could not start: command not found: ${config.command}.`;
  if (start?.code === "EACCES") return `MCP server "${name}" could not start: ${config.command} is not executable (permission denied).`;
  if (start) return `MCP server "${name}" could not start ${config.command}: ${start.message}.`;
  const exit = transport.exit;
  if (exit) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return `MCP server "${name}" (${describeTransport(config)}) ${how} before it was ready.${tail(transport.stderrTail)}`;
  }
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
    return `MCP server "${name}" (${describeTransport(config)}) did not complete the MCP handshake within ${seconds3(timeoutMs)}.${tail(transport.stderrTail)}`;
  return `MCP server "${name}" (${describeTransport(config)}) failed to start: ${errorText2(err)}${tail(transport.stderrTail)}`;
}
function httpFailure(name, config, err, timeoutMs) {
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return `MCP server "${name}" at ${config.url} did not answer within ${seconds3(timeoutMs)}.`;
  if (err instanceof StreamableHTTPError && typeof err.code === "number" && err.code >= 400) {
    const body = err.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, "").trim();
    return `MCP server "${name}" at ${config.url} answered HTTP ${err.code}${body ? `: ${body.slice(0, 300)}` : ""}.`;
  }
  return `MCP server "${name}" at ${config.url} could not be reached: ${errorText2(err)}.`;
}
async function listAllTools(client, timeoutMs) {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : void 0, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
async function connectMcpServer(name, config, opts) {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS;
  const stdio = config.type === "stdio" ? new OwnedStdioTransport({ command: config.command, args: config.args, env: config.env, cwd: config.cwd ? resolve18(opts.cwd, config.cwd) : opts.cwd, ...opts.passEnv ? { passEnv: opts.passEnv } : {} }) : null;
  const transport = stdio ?? new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
  const client = new Client({ name: "fanout", version: "0.1.0" }, { capabilities: {} });
  client.onerror = () => void 0;
  let connected = false;
  let lost = null;
  client.onclose = () => {
    if (!connected) return;
    const exit = stdio?.exit;
    lost = stdio ? `MCP server "${name}" stopped running (${exit?.signal ? `killed by ${exit.signal}` : `exit code ${exit?.code ?? "unknown"}`}).${tail(stdio.stderrTail)}` : `The connection to MCP server "${name}" at ${config.url} was closed.`;
  };
  let tools;
  try {
    await client.connect(transport, { timeout: timeoutMs });
    tools = await listAllTools(client, timeoutMs);
  } catch (err) {
    if (stdio && !stdio.exit && !stdio.startError) await new Promise((r) => setTimeout(r, 50));
    const message = stdio ? stdioFailure(name, config, stdio, err, timeoutMs) : httpFailure(name, config, err, timeoutMs);
    await client.close().catch(() => void 0);
    await transport.close().catch(() => void 0);
    throw new McpStartError(message, name);
  }
  connected = true;
  let closing = null;
  return {
    name,
    config,
    client,
    tools,
    lostReason: () => lost,
    close() {
      connected = false;
      closing ??= client.close().catch(() => void 0);
      return closing;
    }
  };
}
var DEFAULT_MCP_START_TIMEOUT_MS, seconds3;
var init_connect = __esm({
  "src/main/runtime/mcp/connect.ts"() {
    init_server_config();
    init_errors();
    init_stdio_transport();
    init_errors();
    DEFAULT_MCP_START_TIMEOUT_MS = 3e4;
    seconds3 = (ms) => `${Math.round(ms / 100) / 10} s`;
  }
});

// ../../../tmp/prof/prof.ts
import { mkdtempSync, mkdirSync as mkdirSync3, writeFileSync } from "node:fs";
import { execFileSync, spawn as spawn6 } from "node:child_process";
import { tmpdir as tmpdir5 } from "node:os";
import { join as join40 } from "node:path";
import { Session } from "node:inspector/promises";
import { createInterface } from "node:readline";

// src/main/runtime/model/prompt-cache-rules.ts
var CACHE_TTL_MS = Object.freeze({ "5m": 5 * 6e4, "1h": 60 * 6e4 });
var CACHE_PRICE = Object.freeze({ write5m: 1.25, write1h: 2, read: 0.1 });
function versionOf(model) {
  const id = model.toLowerCase();
  const newer = /(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2}))?(?!\d)/.exec(id);
  if (newer) return { family: newer[1], major: Number(newer[2]), minor: Number(newer[3] ?? 0), preview: id.includes("preview") };
  const older = /(\d+)-(\d{1,2})-(opus|sonnet|haiku)/.exec(id) ?? /(\d+)-(opus|sonnet|haiku)/.exec(id);
  if (!older) return null;
  return older.length === 4 ? { family: older[3], major: Number(older[1]), minor: Number(older[2]), preview: false } : { family: older[2], major: Number(older[1]), minor: 0, preview: false };
}
function minCacheableTokens(model) {
  const v = versionOf(model);
  if (!v) return 1024;
  const at = (major, minor = 0) => v.major > major || v.major === major && v.minor >= minor;
  switch (v.family) {
    case "fable":
      return 512;
    case "mythos":
      return v.preview ? 2048 : 512;
    case "opus":
      if (at(5)) return 512;
      if (at(4, 8)) return 1024;
      if (at(4, 7)) return 2048;
      if (at(4, 5)) return 4096;
      return 1024;
    case "sonnet":
      return 1024;
    case "haiku":
      return at(4, 5) ? 4096 : 2048;
    default:
      return 1024;
  }
}

// src/shared/settings-fields.ts
var BARE_WORD = /^[a-z]+$/i;
var isBareWord = (value) => BARE_WORD.test(value);

// src/main/runtime/model/errors.ts
var MissingCredentialsError = class extends Error {
  constructor() {
    super(
      "No Anthropic credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway token) in the environment, or add an API key in settings. Set ANTHROPIC_BASE_URL too when you use a gateway or a local server."
    );
    this.name = "MissingCredentialsError";
  }
};
var UnknownModelError = class extends Error {
  constructor(model, from, validAliases) {
    super(
      `Unknown model "${model}" (${from}). Use one of ${[...validAliases, "inherit"].join(", ")}, or a full model id such as claude-sonnet-5-5.`
    );
    this.model = model;
    this.from = from;
    this.validAliases = validAliases;
    this.name = "UnknownModelError";
  }
  model;
  from;
  validAliases;
};
var ModelCallError = class extends Error {
  constructor(message, status, attempts, retryable, unreachable) {
    super(message);
    this.status = status;
    this.attempts = attempts;
    this.retryable = retryable;
    this.unreachable = unreachable;
    this.name = "ModelCallError";
  }
  status;
  attempts;
  retryable;
  unreachable;
};
var ModelAbortedError = class extends Error {
  constructor(partial) {
    super("The model call was stopped.");
    this.partial = partial;
    this.name = "ModelAbortedError";
  }
  partial;
};
var StreamIncompleteError = class extends Error {
  constructor(detail) {
    super(`The response stream ended before the message was complete (${detail}).`);
    this.name = "StreamIncompleteError";
  }
};

// src/main/runtime/model/aliases.ts
var MODEL_FAMILIES = ["haiku", "sonnet", "opus"];
var DEFAULT_MODEL_ALIASES = Object.freeze({
  haiku: "claude-haiku-5-5",
  sonnet: "claude-sonnet-5-5",
  opus: "claude-opus-5-5"
});
function isAlias(value) {
  return MODEL_FAMILIES.includes(value.toLowerCase());
}
function familyOf(modelId2) {
  const id = modelId2.toLowerCase();
  return MODEL_FAMILIES.find((family) => id.includes(family));
}
function resolveOne(value, from, aliases) {
  const v = value.trim();
  if (isAlias(v)) return aliases[v.toLowerCase()];
  if (isBareWord(v)) throw new UnknownModelError(v, from, [...MODEL_FAMILIES]);
  return v;
}
function resolveModel(input) {
  const aliases = input.aliases ?? DEFAULT_MODEL_ALIASES;
  const parent = resolveOne(input.parent, "the parent agent's model", aliases);
  const candidates = [
    [input.override, "the model requested for this call"],
    [input.definition, "the agent definition's model field"]
  ];
  for (const [value, from] of candidates) {
    if (value == null || value.trim() === "") continue;
    if (value.trim().toLowerCase() === "inherit") return parent;
    return resolveOne(value, from, aliases);
  }
  return parent;
}

// src/main/runtime/model/client.ts
import Anthropic from "@anthropic-ai/sdk";
import { createHash as createHash2 } from "node:crypto";

// src/main/runtime/model/cache-sharing.ts
import { createHash } from "node:crypto";
var DEFAULT_CACHE_SHARING = "first";
var NO_TICKET = { begun() {
}, failed() {
} };
var CacheSharingGate = class {
  lanes = /* @__PURE__ */ new Map();
  now;
  warmForMs;
  maxWaitMs;
  constructor(opts = {}) {
    this.now = opts.now ?? (() => Date.now());
    this.warmForMs = opts.warmForMs ?? CACHE_TTL_MS["5m"] - 3e4;
    this.maxWaitMs = opts.maxWaitMs ?? 6e4;
  }
  /**
   * Resolves when a request with this prefix key may be sent (null key: at once). With `prewarm`, a request
   * that finds its prefix neither cached nor in flight sends it first and goes once that is done.
   */
  async enter(key, signal, prewarm) {
    if (key === null) return NO_TICKET;
    for (; ; ) {
      const started = this.now();
      const lane = this.lanes.get(key);
      if (lane && lane.warmSince !== null && started - lane.warmSince < this.warmForMs) return this.ticket(key, lane, started);
      if (lane && lane.warmSince === null) {
        await this.wait(lane.ready, signal);
        if (this.lanes.get(key) === lane && lane.warmSince === null) return NO_TICKET;
        continue;
      }
      this.sweep(started);
      let settle;
      const ready = new Promise((r) => settle = r);
      const mine = { ready, settle, warmSince: null };
      this.lanes.set(key, mine);
      if (!prewarm) return this.ticket(key, mine, started);
      try {
        await prewarm();
        mine.warmSince = started;
        mine.settle();
      } catch {
        this.drop(key, mine);
      }
      return NO_TICKET;
    }
  }
  ticket(key, lane, started) {
    return {
      begun: () => {
        if (this.lanes.get(key) !== lane) return;
        lane.warmSince = Math.max(lane.warmSince ?? 0, started);
        lane.settle();
      },
      failed: () => {
        if (lane.warmSince === null) this.drop(key, lane);
      }
    };
  }
  drop(key, lane) {
    if (this.lanes.get(key) === lane) this.lanes.delete(key);
    lane.settle();
  }
  async wait(ready, signal) {
    let timer;
    let onAbort;
    try {
      await Promise.race([
        ready,
        new Promise((resolve24) => timer = setTimeout(resolve24, this.maxWaitMs)),
        new Promise((_, reject) => {
          if (!signal) return;
          onAbort = () => reject(signal.reason ?? new Error("aborted"));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        })
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }
  sweep(t) {
    if (this.lanes.size < 256) return;
    for (const [k, l] of this.lanes) if (l.warmSince !== null && t - l.warmSince >= this.warmForMs) this.lanes.delete(k);
  }
};
var memo = /* @__PURE__ */ new WeakMap();
function stablePrefixKey(request2) {
  const rest = `${request2.model}\0${request2.sharedTools ?? 0}\0${JSON.stringify(request2.thinking ?? null)}\0${request2.effort ?? ""}`;
  const tools = request2.tools ?? [];
  const hit = memo.get(tools);
  if (hit && hit.system === request2.system && hit.rest === rest) return hit.key;
  const toolsText = JSON.stringify(tools);
  const systemText = typeof request2.system === "string" ? request2.system : JSON.stringify(request2.system ?? "");
  const tokens = (toolsText.length + systemText.length) / 4;
  const key = tokens < minCacheableTokens(request2.model) ? null : createHash("sha1").update(rest).update("\0").update(toolsText).update("\0").update(systemText).digest("base64");
  memo.set(tools, { system: request2.system, rest, key });
  return key;
}

// src/main/runtime/model/http-fetch.ts
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { pipeline } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
var REDIRECTS = /* @__PURE__ */ new Set([301, 302, 303, 307, 308]);
var MAX_REDIRECTS = 5;
var CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie", "x-api-key", "host"];
var BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location"];
function closeIdleSockets(agent, idleMs) {
  const keep = agent.keepSocketAlive.bind(agent);
  const reuse = agent.reuseSocket.bind(agent);
  const idle = /* @__PURE__ */ new WeakSet();
  const watched = /* @__PURE__ */ new WeakSet();
  agent.keepSocketAlive = (socket) => {
    if (!keep(socket)) return false;
    idle.add(socket);
    if (!watched.has(socket)) {
      watched.add(socket);
      socket.on("timeout", () => void (idle.has(socket) && socket.destroy()));
    }
    socket.setTimeout(socket.timeout ? Math.min(socket.timeout, idleMs) : idleMs);
    return true;
  };
  agent.reuseSocket = (socket, req) => {
    idle.delete(socket);
    socket.setTimeout(0);
    reuse(socket, req);
  };
  return agent;
}
function abortError(signal) {
  const reason = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("This operation was aborted", "AbortError");
}
var fetchFailed = (cause) => new TypeError("fetch failed", { cause });
function requestBody(body) {
  if (body === void 0 || body === null) return void 0;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return null;
}
function plainHeaders(init) {
  const out = {};
  if (!init) return out;
  if (init instanceof Headers) init.forEach((value, name) => out[name] = value);
  else if (Array.isArray(init)) for (const [name, value] of init) out[name.toLowerCase()] = value;
  else for (const [name, value] of Object.entries(init)) out[name.toLowerCase()] = value;
  return out;
}
function decoded(res) {
  const encoding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const unzip = encoding === "gzip" || encoding === "x-gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : encoding === "br" ? createBrotliDecompress() : null;
  if (!unzip) return res;
  return pipeline(res, unzip, () => {
  });
}
var HttpResponse = class {
  constructor(status, statusText, headers, url2, body) {
    this.status = status;
    this.statusText = statusText;
    this.headers = headers;
    this.url = url2;
    this.body = body;
    this.ok = status >= 200 && status < 300;
  }
  status;
  statusText;
  headers;
  url;
  body;
  ok;
  redirected = false;
  type = "basic";
  bodyUsed = false;
  async arrayBuffer() {
    this.bodyUsed = true;
    const parts = [];
    for await (const chunk of this.body) parts.push(chunk);
    const all2 = Buffer.concat(parts);
    return all2.buffer.slice(all2.byteOffset, all2.byteOffset + all2.byteLength);
  }
  async text() {
    return new TextDecoder().decode(await this.arrayBuffer());
  }
  async json() {
    return JSON.parse(await this.text());
  }
};
function createHttpFetch(opts = {}) {
  const maxSockets = opts.maxSockets ?? 256;
  const idleMs = opts.idleSocketMs ?? 4e3;
  const agents = {
    "http:": closeIdleSockets(new HttpAgent({ keepAlive: true, maxSockets }), idleMs),
    "https:": closeIdleSockets(new HttpsAgent({ keepAlive: true, maxSockets }), idleMs)
  };
  function send(url2, method, headers, body, signal, redirects) {
    return new Promise((resolve24, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const isHttps = url2.protocol === "https:";
      const outHeaders = body === void 0 ? headers : { ...headers, "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength) };
      const req = (isHttps ? httpsRequest : httpRequest)(url2, { method, headers: outHeaders, agent: agents[isHttps ? "https:" : "http:"] });
      let stream = null;
      const onAbort = () => {
        const err = abortError(signal);
        req.destroy(err);
        stream?.destroy(err);
        reject(err);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => signal?.removeEventListener("abort", onAbort);
      req.once("error", (err) => {
        done();
        reject(signal?.aborted ? abortError(signal) : fetchFailed(err));
      });
      req.once("response", (res) => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (REDIRECTS.has(status) && location && redirects < MAX_REDIRECTS) {
          res.resume();
          done();
          let next;
          try {
            next = new URL(location, url2);
            if (next.protocol !== "http:" && next.protocol !== "https:") throw new Error(`redirect to ${next.protocol} is not followed`);
          } catch (err) {
            reject(fetchFailed(err));
            return;
          }
          const keepBody = status === 307 || status === 308;
          const nextHeaders = { ...headers };
          if (next.origin !== url2.origin) for (const name of CREDENTIAL_HEADERS) delete nextHeaders[name];
          if (!keepBody) for (const name of BODY_HEADERS) delete nextHeaders[name];
          resolve24(send(next, keepBody ? method : "GET", nextHeaders, keepBody ? body : void 0, signal, redirects + 1));
          return;
        }
        const responseHeaders = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        stream = decoded(res);
        res.once("aborted", () => stream?.destroy(fetchFailed(Object.assign(new Error("terminated"), { code: "ECONNRESET" }))));
        stream.once("close", done);
        resolve24(new HttpResponse(status, res.statusMessage ?? "", responseHeaders, url2.href, stream));
      });
      req.end(body);
    });
  }
  return (async (input, init = {}) => {
    const body = requestBody(init.body);
    if (body === null || typeof input === "object" && !(input instanceof URL)) return fetch(input, init);
    return send(new URL(String(input)), (init.method ?? "GET").toUpperCase(), plainHeaders(init.headers), body, init.signal ?? void 0, 0);
  });
}

// src/main/runtime/model/message-accumulator.ts
var MessageAccumulator = class {
  constructor(handlers = {}) {
    this.handlers = handlers;
  }
  handlers;
  blocks = [];
  inputErrors = {};
  tokens = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  stopReason = null;
  started = false;
  stopped = false;
  add(event) {
    switch (event.type) {
      case "message_start": {
        this.started = true;
        const u = event.message.usage;
        this.tokens = {
          inputTokens: u?.input_tokens ?? 0,
          outputTokens: u?.output_tokens ?? 0,
          cacheReadTokens: u?.cache_read_input_tokens ?? 0,
          cacheWriteTokens: u?.cache_creation_input_tokens ?? 0
        };
        break;
      }
      case "content_block_start":
        this.startBlock(event.index, event.content_block);
        break;
      case "content_block_delta":
        this.delta(event.index, event.delta);
        break;
      case "content_block_stop":
        this.stopBlock(event.index);
        break;
      case "message_delta": {
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        const u = event.usage;
        if (u) {
          if (u.output_tokens != null) this.tokens.outputTokens = u.output_tokens;
          if (u.input_tokens != null) this.tokens.inputTokens = u.input_tokens;
          if (u.cache_read_input_tokens != null) this.tokens.cacheReadTokens = u.cache_read_input_tokens;
          if (u.cache_creation_input_tokens != null) this.tokens.cacheWriteTokens = u.cache_creation_input_tokens;
        }
        break;
      }
      case "message_stop":
        this.stopped = true;
        break;
    }
  }
  startBlock(index, block2) {
    switch (block2.type) {
      case "text":
        this.blocks[index] = { type: "text", text: block2.text ?? "" };
        if (block2.text) this.handlers.onText?.(block2.text);
        break;
      case "thinking":
        this.blocks[index] = { type: "thinking", thinking: block2.thinking ?? "", signature: block2.signature ?? "" };
        if (block2.thinking) this.handlers.onThinking?.(block2.thinking);
        break;
      case "redacted_thinking":
        this.blocks[index] = { type: "redacted_thinking", data: block2.data ?? "" };
        break;
      case "tool_use":
      case "server_tool_use": {
        const preset = block2.input && Object.keys(block2.input).length ? JSON.stringify(block2.input) : "";
        this.blocks[index] = { type: "tool_use", id: block2.id, name: block2.name, json: preset };
        this.handlers.onToolStart?.(block2.id, block2.name);
        if (preset) this.handlers.onToolInputDelta?.(block2.id, preset);
        break;
      }
      default:
        this.blocks[index] = void 0;
    }
  }
  delta(index, delta) {
    const block2 = this.blocks[index];
    if (!block2) return;
    if (delta.type === "text_delta" && block2.type === "text") {
      block2.text += delta.text;
      this.handlers.onText?.(delta.text);
    } else if (delta.type === "thinking_delta" && block2.type === "thinking") {
      block2.thinking += delta.thinking;
      this.handlers.onThinking?.(delta.thinking);
    } else if (delta.type === "signature_delta" && block2.type === "thinking") {
      block2.signature += delta.signature;
    } else if (delta.type === "input_json_delta" && block2.type === "tool_use") {
      block2.json += delta.partial_json;
      if (delta.partial_json) this.handlers.onToolInputDelta?.(block2.id, delta.partial_json);
    }
  }
  stopBlock(index) {
    const block2 = this.blocks[index];
    if (block2?.type !== "tool_use") return;
    block2.input = parseToolInput(block2.json, (err) => this.inputErrors[block2.id] = err);
  }
  /** The message so far. A tool_use block whose input has not finished streaming (no content_block_stop yet) is left out. */
  content() {
    const out = [];
    for (const b of this.blocks) {
      if (!b) continue;
      if (b.type === "text") {
        if (b.text) out.push({ type: "text", text: b.text });
      } else if (b.type === "thinking") {
        out.push(b.signature ? { type: "thinking", thinking: b.thinking, signature: b.signature } : { type: "thinking", thinking: b.thinking });
      } else if (b.type === "redacted_thinking") {
        out.push({ type: "redacted_thinking", data: b.data });
      } else if (b.input !== void 0) {
        out.push({ type: "tool_use", id: b.id, name: b.name, input: b.input });
      }
    }
    return out;
  }
};
function parseToolInput(json, onError) {
  if (json.trim() === "") return {};
  try {
    return JSON.parse(json);
  } catch (err) {
    onError(`${err.message}. The input received was: ${json.length > 500 ? json.slice(0, 500) + "\u2026" : json}`);
    return {};
  }
}

// src/main/runtime/model/pricing.ts
var price = (input, output) => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: input * 0.1,
  cacheWritePerMTok: input * 1.25
});
var DEFAULT_PRICES = Object.freeze({
  haiku: price(1, 5),
  sonnet: price(3, 15),
  opus: price(5, 25)
});
function costOf(model, tokens, prices = DEFAULT_PRICES) {
  const family = familyOf(model);
  const p = family && prices[family];
  if (!p) return 0;
  return (tokens.inputTokens * p.inputPerMTok + tokens.outputTokens * p.outputPerMTok + tokens.cacheReadTokens * p.cacheReadPerMTok + tokens.cacheWriteTokens * p.cacheWritePerMTok) / 1e6;
}
function usageWithCost(model, tokens, prices) {
  return { ...tokens, costUsd: costOf(model, tokens, prices) };
}

// src/main/runtime/model/retry.ts
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
var RETRYABLE_STATUS = /* @__PURE__ */ new Set([408, 429, 500, 502, 503, 504, 529]);
var RETRYABLE_TYPES = /* @__PURE__ */ new Set(["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]);
var NETWORK_CODES = /* @__PURE__ */ new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);
var UNREACHABLE_CODES = /* @__PURE__ */ new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);
var TYPE_LABELS = {
  overloaded_error: "Overloaded",
  rate_limit_error: "Rate limited",
  api_error: "API error",
  authentication_error: "Authentication failed",
  permission_error: "Permission denied",
  invalid_request_error: "Invalid request",
  not_found_error: "Not found",
  request_too_large: "Request too large"
};
function causes(err) {
  const chain = [];
  for (let e = err; e && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}
var isNetworkError = (err) => causes(err).some((e) => e instanceof TypeError && /terminated|fetch failed|network|socket/i.test(e.message) || typeof e.code === "string" && NETWORK_CODES.has(e.code));
var isUnreachable = (err) => causes(err).some((e) => typeof e.code === "string" && UNREACHABLE_CODES.has(e.code));
function rootMessage(err) {
  let message = err instanceof Error ? err.message : String(err);
  for (const e of causes(err).slice(1)) if (typeof e.message === "string" && e.message) message = e.message;
  return message;
}
function describeFailure(err) {
  if (err instanceof StreamIncompleteError) return { retryable: true, message: err.message };
  if (err instanceof APIUserAbortError) return { retryable: false, message: "The request was aborted." };
  if (err instanceof APIConnectionError) return { retryable: true, message: `Could not reach the API: ${rootMessage(err)}`, ...isUnreachable(err) ? { unreachable: true } : {} };
  if (err instanceof APIError) {
    const status = err.status;
    const type = err.type ?? void 0;
    const label = type && TYPE_LABELS[type] || (status ? `HTTP ${status}` : "Stream error");
    const detail = err.apiMessage ?? err.message;
    const message = `${label}${status ? ` (${status})` : ""}: ${detail}`;
    const shouldRetryHeader = err.headers?.get("x-should-retry");
    let retryable = status !== void 0 ? RETRYABLE_STATUS.has(status) : RETRYABLE_TYPES.has(type ?? "");
    if (shouldRetryHeader === "false" && status !== void 0) retryable = false;
    if (shouldRetryHeader === "true") retryable = true;
    return { retryable, status, message, retryAfterMs: status !== void 0 ? retryAfterFrom(err.headers) : void 0 };
  }
  if (isUnreachable(err)) return { retryable: true, unreachable: true, message: `Could not reach the API: ${rootMessage(err)}` };
  if (isNetworkError(err)) return { retryable: true, message: `The connection dropped: ${rootMessage(err)}` };
  return { retryable: false, message: err instanceof Error ? err.message : String(err) };
}
var unreachableCause = (message) => message.replace(/^Could not reach the API: /, "");
function unreachableMessage(baseURL2, source, cause) {
  const why = unreachableCause(cause);
  const where = source === "settings" ? "This address is set in Settings \u2192 Base URL; correct it there, or clear it to use the Anthropic API." : source === "environment" ? "This address comes from the ANTHROPIC_BASE_URL environment variable; correct or unset it, or set a Base URL in Settings." : "Check the network connection, or set a Base URL in Settings if you use a gateway.";
  return `Could not connect to ${baseURL2} (${why}). ${where}`;
}
function retryAfterFrom(headers) {
  if (!headers) return void 0;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return void 0;
  const seconds4 = Number(after);
  if (Number.isFinite(seconds4)) return Math.max(0, seconds4 * 1e3);
  const date = Date.parse(after);
  return Number.isNaN(date) ? void 0 : Math.max(0, date - Date.now());
}
function backoffDelay(attempt, opts, retryAfterMs, random = Math.random) {
  if (retryAfterMs !== void 0) return Math.min(retryAfterMs, opts.maxRetryAfterMs ?? 3e5);
  const exp = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (1 - 0.25 * random()));
}
function sleep(ms, signal) {
  return new Promise((resolve24, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve24();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

// src/shared/events.ts
var contentBlocks = (message) => typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;

// src/main/runtime/model/request-body.ts
var DEFAULT_MAX_TOKENS = 32e3;
var EPHEMERAL = { type: "ephemeral" };
function systemBlocks(system, cache) {
  if (system === void 0) return void 0;
  const blocks = typeof system === "string" ? system ? [{ type: "text", text: system }] : [] : system.filter((b) => b.text);
  if (!blocks.length) return void 0;
  return blocks.map((b, i) => cache && i === blocks.length - 1 ? { ...b, cache_control: EPHEMERAL } : { ...b });
}
function previousTail(messages) {
  for (let i = messages.length - 2; i > 0; i--) if (messages[i].role === "assistant") return i - 1;
  return -1;
}
function withBlocksCached(messages, at) {
  return messages.map((m, i) => {
    if (!at.has(i)) return m;
    const content = contentBlocks(m);
    let j = content.length - 1;
    while (j >= 0 && (content[j].type === "thinking" || content[j].type === "redacted_thinking")) j--;
    if (j < 0) return m;
    return { role: m.role, content: content.map((b, k) => k === j ? { ...b, cache_control: EPHEMERAL } : b) };
  });
}
function buildRequestBody(request2) {
  const cache = request2.promptCaching !== false;
  const tail2 = new Set([previousTail(request2.messages), request2.messages.length - 1].filter((i) => i >= 0));
  const body = {
    model: request2.model,
    max_tokens: request2.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: cache ? withBlocksCached(request2.messages, tail2) : request2.messages,
    stream: true
  };
  const system = systemBlocks(request2.system, cache);
  if (system) body.system = system;
  if (request2.tools?.length) {
    const shared2 = Math.min(request2.sharedTools ?? 0, request2.tools.length);
    body.tools = cache && shared2 > 0 ? request2.tools.map((t, i) => i === shared2 - 1 ? { ...t, cache_control: EPHEMERAL } : t) : request2.tools;
  }
  if (request2.thinking) body.thinking = request2.thinking;
  if (request2.effort) body.output_config = { effort: request2.effort };
  if (request2.temperature !== void 0) body.temperature = request2.temperature;
  return body;
}

// src/main/runtime/model/client.ts
var DEFAULT_MAX_RETRIES = 8;
var UNREACHABLE_ATTEMPTS = 2;
var sharedFetch;
var defaultFetch = () => sharedFetch ??= createHttpFetch();
var gates = /* @__PURE__ */ new Map();
function gateFor(baseURL2, credential) {
  const id = `${baseURL2}\0${createHash2("sha1").update(credential).digest("base64")}`;
  let gate = gates.get(id);
  if (!gate) gates.set(id, gate = new CacheSharingGate());
  return gate;
}
function prewarmBody(body) {
  if (body.thinking?.type === "enabled") return null;
  const { messages: _m, stream: _s, max_tokens: _t, ...prefix } = body;
  return { ...prefix, max_tokens: 0, messages: [{ role: "user", content: "warmup" }] };
}
function createModelClient(cfg = {}) {
  const env = cfg.env ?? process.env;
  const apiKey = cfg.apiKey || (cfg.authToken ? void 0 : env.ANTHROPIC_API_KEY) || void 0;
  const authToken = apiKey ? void 0 : cfg.authToken || env.ANTHROPIC_AUTH_TOKEN || void 0;
  if (!apiKey && !authToken) throw new MissingCredentialsError();
  const baseURL2 = cfg.baseURL || env.ANTHROPIC_BASE_URL || "https://api.anthropic.com";
  const baseUrlSource = cfg.baseURL ? cfg.baseUrlSource ?? "settings" : env.ANTHROPIC_BASE_URL ? "environment" : "default";
  const prices = cfg.prices ?? DEFAULT_PRICES;
  const maxAttempts = Math.max(0, cfg.maxRetries ?? DEFAULT_MAX_RETRIES) + 1;
  const backoff = { baseMs: cfg.retryBaseMs ?? 500, maxMs: cfg.retryMaxMs ?? 32e3, maxRetryAfterMs: cfg.maxRetryAfterMs };
  const sdk = new Anthropic({
    apiKey: apiKey ?? null,
    authToken: authToken ?? null,
    baseURL: baseURL2,
    maxRetries: 0,
    timeout: cfg.timeoutMs,
    fetch: cfg.fetch ?? defaultFetch(),
    openTelemetry: false
  });
  const idleMs = cfg.streamIdleTimeoutMs ?? 18e4;
  const sharing = cfg.cacheSharing ?? DEFAULT_CACHE_SHARING;
  const gate = gateFor(baseURL2, apiKey ?? authToken ?? "");
  async function enterGate(request2, body, signal) {
    const key = sharing === "off" || request2.promptCaching === false ? null : stablePrefixKey(request2);
    const warm = sharing === "prewarm" ? prewarmBody(body) : null;
    try {
      return await gate.enter(key, signal, warm ? async () => void await sdk.messages.create(warm, { signal }) : void 0);
    } catch {
      throw new ModelAbortedError([]);
    }
  }
  async function attempt(body, acc, signal, ticket) {
    const attemptAbort = new AbortController();
    let idle = false;
    const onAbort = () => attemptAbort.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const watchdog = setTimeout(() => {
      idle = true;
      attemptAbort.abort();
    }, idleMs);
    try {
      const stream2 = await sdk.messages.create(body, { signal: attemptAbort.signal });
      for await (const event of stream2) {
        watchdog.refresh();
        acc.add(event);
        if (event.type === "message_start") ticket.begun();
      }
    } catch (err) {
      if (!idle || signal?.aborted) throw err;
    } finally {
      clearTimeout(watchdog);
      signal?.removeEventListener("abort", onAbort);
    }
    if (signal?.aborted) return;
    if (idle) throw new StreamIncompleteError(`nothing arrived for ${idleMs / 1e3} s`);
    if (!acc.stopped) throw new StreamIncompleteError(acc.started ? "no message_stop event" : "no events at all");
  }
  async function stream(request2, handlers = {}, signal) {
    const body = buildRequestBody(request2);
    if (signal?.aborted) throw new ModelAbortedError([]);
    const ticket = await enterGate(request2, body, signal);
    for (let n = 1; ; n++) {
      const acc = new MessageAccumulator(handlers);
      try {
        if (signal?.aborted) throw new ModelAbortedError([]);
        await attempt(body, acc, signal, ticket);
        if (signal?.aborted) throw new ModelAbortedError(acc.content());
        return {
          content: acc.content(),
          stopReason: acc.stopReason,
          usage: usageWithCost(request2.model, acc.tokens, prices),
          model: request2.model,
          inputErrors: acc.inputErrors,
          attempts: n
        };
      } catch (err) {
        ticket.failed();
        if (err instanceof ModelAbortedError) throw err;
        if (signal?.aborted) throw new ModelAbortedError(acc.content());
        const failure = describeFailure(err);
        if (failure.unreachable && n >= Math.min(maxAttempts, UNREACHABLE_ATTEMPTS)) {
          throw new ModelCallError(unreachableMessage(baseURL2, baseUrlSource, failure.message), void 0, n, true, unreachableCause(failure.message));
        }
        if (!failure.retryable || n >= maxAttempts) {
          const suffix = failure.retryable ? ` (gave up after ${n} attempt${n === 1 ? "" : "s"})` : "";
          throw new ModelCallError(failure.message + suffix, failure.status, n, failure.retryable);
        }
        const delayMs = backoffDelay(n, backoff, failure.retryAfterMs);
        handlers.onRetry?.({ attempt: n, maxAttempts, delayMs, message: failure.message, status: failure.status });
        try {
          await sleep(delayMs, signal);
        } catch {
          throw new ModelAbortedError([]);
        }
      }
    }
  }
  async function listModels(signal) {
    const out = [];
    try {
      for await (const m of sdk.models.list({ limit: 1e3 }, { signal })) {
        const info = m;
        out.push({ id: info.id, createdAt: info.created_at, displayName: info.display_name, line: info.line, lifecycle: info.lifecycle });
      }
    } catch (err) {
      const failure = describeFailure(err);
      const message = failure.unreachable ? unreachableMessage(baseURL2, baseUrlSource, failure.message) : `Could not list models at ${baseURL2}: ${failure.message}`;
      throw new ModelCallError(message, err?.status, 1, false, failure.unreachable ? unreachableCause(failure.message) : void 0);
    }
    return out;
  }
  return { stream, listModels, baseURL: baseURL2 };
}

// bench/cost-server.ts
var FAN_OUT_MARK = "FANOUT-BENCH fan-out";

// src/main/runtime/orchestration/session.ts
import { randomBytes as randomBytes5, randomUUID as randomUUID3 } from "node:crypto";
import { homedir as homedir6, tmpdir as tmpdir4 } from "node:os";
import { join as join39 } from "node:path";

// src/shared/usage.ts
var emptyUsage = () => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 });
function addUsage(a, b) {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: a.costUsd + b.costUsd
  };
}

// src/main/runtime/loop/conversation.ts
function reminderBlock(text2) {
  return { type: "text", text: `<system-reminder>
${text2}
</system-reminder>` };
}
function inboxBlocks(items) {
  return items.filter((t) => t.trim() !== "").map((text2) => ({ type: "text", text: text2 }));
}
function promptBlocks(prompt) {
  if (prompt === void 0) return [];
  if (typeof prompt === "string") return prompt.trim() === "" ? [] : [{ type: "text", text: prompt }];
  return prompt;
}
function textOf(content) {
  if (typeof content === "string") return content;
  return content.filter((b) => b.type === "text").map((b) => b.text).join("\n");
}
function lastAssistantText(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    const text2 = textOf(m.content).trim();
    if (text2) return text2;
  }
  return "";
}
function keepablePartial(content) {
  return content.filter((b) => b.type === "text" && b.text !== "" || b.type === "thinking" && !!b.signature || b.type === "redacted_thinking");
}
var MAX_TOKENS_NUDGE = "Your response was cut off because it hit the output token limit. Continue exactly where you stopped, without repeating anything; if you were in the middle of a tool call, make it again in full.";

// src/main/runtime/loop/run-tools.ts
var INTERRUPTED = (name) => `${name} was interrupted: the agent was stopped.`;
function refusal(call, tools) {
  const names = [...tools.keys()];
  const available = names.length ? `The tools available to you are: ${names.join(", ")}.` : "You have no tools; answer in text.";
  return `No tool named "${call.name}" is available to this agent. ${available}`;
}
async function execute(call, ctx) {
  const tool = ctx.tools.get(call.name);
  if (!tool) return { content: refusal(call, ctx.tools), isError: true };
  if (call.inputError)
    return { content: `The input for ${call.name} was not valid JSON (${call.inputError}). Call ${call.name} again with a JSON object as its input.`, isError: true };
  const parsed = tool.parse(call.input);
  if (!parsed.ok) return { content: parsed.error, isError: true };
  let input = call.input;
  let sandbox;
  if (ctx.canUseTool) {
    const decision = await ctx.canUseTool(tool, parsed.input, call.id);
    if (decision.behavior === "deny") return { content: decision.message, isError: true };
    if (decision.updatedInput !== void 0) input = decision.updatedInput;
    sandbox = decision.sandbox;
  }
  if (ctx.signal.aborted) return { content: INTERRUPTED(call.name), isError: true };
  return tool.run(input, {
    cwd: ctx.cwd,
    signal: ctx.signal,
    agentId: ctx.agentId,
    toolUseId: call.id,
    onUpdate: (details) => ctx.emit({ type: "tool_update", toolUseId: call.id, details }),
    ...sandbox ? { sandbox } : {}
  });
}
var ABORT_GRACE_MS = 500;
function raceAbort(work, call, aborted) {
  const failed = (err) => ({ content: `${call.name} failed: ${err instanceof Error ? err.message : String(err)}`, isError: true });
  const settled = work.catch(failed);
  const cutOff = aborted.then(
    () => new Promise((resolve24) => {
      const timer = setTimeout(() => resolve24({ content: INTERRUPTED(call.name), isError: true }), ABORT_GRACE_MS);
      void settled.then(() => clearTimeout(timer));
    })
  );
  return Promise.race([settled, cutOff]);
}
function abortedPromise(signal) {
  if (signal.aborted) return { promise: Promise.resolve(), dispose: () => {
  } };
  let onAbort = () => {
  };
  const promise = new Promise((resolve24) => {
    onAbort = () => resolve24();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}
async function runOne(call, ctx, aborted) {
  const started = performance.now();
  ctx.emit({ type: "tool_run", toolUseId: call.id, name: call.name, input: call.input });
  const result = await raceAbort(execute(call, ctx), call, aborted);
  const content = result.content === "" ? `(${call.name} completed with no output)` : result.content;
  const outcome = { id: call.id, name: call.name, content, isError: !!result.isError, details: result.details };
  ctx.emit({
    type: "tool_end",
    toolUseId: call.id,
    name: call.name,
    isError: outcome.isError,
    output: content,
    details: result.details,
    durationMs: Math.round(performance.now() - started)
  });
  return outcome;
}
function notRun(call, ctx) {
  const content = `${call.name} was not run: the agent was stopped.`;
  ctx.emit({ type: "tool_end", toolUseId: call.id, name: call.name, isError: true, output: content, durationMs: 0 });
  return { id: call.id, name: call.name, content, isError: true };
}
async function runBatch(calls, ctx, aborted) {
  if (calls.length === 1 || ctx.maxConcurrency >= calls.length) return Promise.all(calls.map((c) => runOne(c, ctx, aborted)));
  const out = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const i = next++;
      out[i] = await runOne(calls[i], ctx, aborted);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, ctx.maxConcurrency) }, worker));
  return out;
}
function isSafe(call, tools) {
  const tool = tools.get(call.name);
  return !tool || !!call.inputError || tool.concurrencySafe;
}
async function runToolCalls(calls, ctx) {
  const batches = [];
  for (const call of calls) {
    const last = batches[batches.length - 1];
    if (last && isSafe(call, ctx.tools) && isSafe(last[0], ctx.tools)) last.push(call);
    else batches.push([call]);
  }
  const outcomes = [];
  const aborted = abortedPromise(ctx.signal);
  try {
    for (const batch of batches) {
      if (ctx.signal.aborted) {
        for (const call of batch) outcomes.push(notRun(call, ctx));
        continue;
      }
      outcomes.push(...await runBatch(batch, ctx, aborted.promise));
    }
  } finally {
    aborted.dispose();
  }
  return outcomes;
}

// src/main/runtime/loop/agent-loop.ts
var MAX_TOKENS_RECOVERIES = 3;
var seconds = (ms) => ms < 1e3 ? `${ms} ms` : `${(ms / 1e3).toFixed(1)} s`;
async function runAgentLoop(opts, emit) {
  const started = performance.now();
  const { agentId, parentAgentId, parentToolUseId, sessionId } = opts;
  const send = (payload) => emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), ...payload });
  const signal = opts.signal ?? new AbortController().signal;
  const tools = new Map(opts.tools.map((t) => [t.name, t]));
  const apiTools = opts.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputJsonSchema }));
  const sharedTools = opts.tools.findIndex((t) => !t.sameForEveryAgent);
  const messages = [...opts.messages ?? []];
  const historyLength = messages.length;
  let pending = promptBlocks(opts.prompt);
  let usage = emptyUsage();
  let numTurns = 0;
  let toolUses = 0;
  let stopReason = null;
  let recoveries = 0;
  const append = (message) => {
    messages.push(message);
    send({ type: "message", message });
  };
  const flushPending = () => {
    if (pending?.length) append({ role: "user", content: pending });
    pending = null;
  };
  const finish = (status, error) => {
    let result = lastAssistantText(messages.slice(historyLength));
    if (status === "max_turns") {
      const note = `[Stopped after reaching the limit of ${opts.maxTurns} turns before finishing the task.]`;
      result = result ? `${result}

${note}` : note;
    }
    return {
      status,
      result,
      ...error !== void 0 ? { error } : {},
      numTurns,
      toolUses,
      usage,
      durationMs: Math.round(performance.now() - started),
      messages,
      model: opts.model,
      stopReason
    };
  };
  const handlers = {
    onText: (text2) => send({ type: "text_delta", text: text2 }),
    onThinking: (text2) => send({ type: "thinking_delta", text: text2 }),
    onToolStart: (toolUseId, name) => send({ type: "tool_start", toolUseId, name }),
    onToolInputDelta: (toolUseId, partialJson) => send({ type: "tool_input_delta", toolUseId, partialJson }),
    // Deltas of the failed attempt are void; consumers drop them when they see a retrying error.
    onRetry: (r) => send({
      type: "error",
      message: `${r.message}. Retrying in ${seconds(r.delayMs)} (attempt ${r.attempt + 1} of ${r.maxAttempts}).`,
      retrying: true,
      attempt: r.attempt
    })
  };
  const lastIsUser = historyLength > 0 && messages[historyLength - 1].role === "user";
  if (!pending.length && !lastIsUser) {
    const error = "The agent was given no prompt: pass a non-empty prompt, or history that ends with a user message.";
    send({ type: "error", message: error, retrying: false });
    return finish("failed", error);
  }
  try {
    for (; ; ) {
      if (signal.aborted) {
        flushPending();
        return finish("stopped");
      }
      if (opts.maxTurns !== void 0 && numTurns >= opts.maxTurns) {
        flushPending();
        return finish("max_turns");
      }
      const turn = ++numTurns;
      send({ type: "turn_start", turn });
      const opening = [...pending ?? [], ...inboxBlocks(opts.drainInbox?.() ?? [])];
      pending = null;
      if (opening.length) {
        if (opts.criticalSystemReminder) opening.push(reminderBlock(opts.criticalSystemReminder));
        append({ role: "user", content: opening });
      }
      let response;
      try {
        response = await opts.client.stream(
          {
            model: opts.model,
            system: opts.systemPrompt,
            messages,
            tools: apiTools,
            maxTokens: opts.maxTokens,
            thinking: opts.thinking,
            effort: opts.effort,
            promptCaching: opts.promptCaching,
            sharedTools: sharedTools === -1 ? apiTools.length : sharedTools
          },
          handlers,
          signal
        );
      } catch (err) {
        if (err instanceof ModelAbortedError) {
          const kept = keepablePartial(err.partial);
          if (kept.length) append({ role: "assistant", content: kept });
          send({ type: "turn_end", turn, stopReason: "aborted" });
          return finish("stopped");
        }
        const message = err instanceof Error ? err.message : String(err);
        send({ type: "error", message, retrying: false });
        send({ type: "turn_end", turn, stopReason: "error" });
        return finish("failed", message);
      }
      usage = addUsage(usage, response.usage);
      stopReason = response.stopReason;
      send({ type: "usage", usage: response.usage, model: response.model });
      if (response.content.length) append({ role: "assistant", content: response.content });
      const calls = response.content.filter((b) => b.type === "tool_use").map((b) => ({ id: b.id, name: b.name, input: b.input, inputError: response.inputErrors[b.id] }));
      if (calls.length) {
        toolUses += calls.length;
        const outcomes = await runToolCalls(calls, {
          tools,
          cwd: opts.cwd,
          agentId,
          signal,
          canUseTool: opts.canUseTool,
          emit: send,
          maxConcurrency: opts.maxToolConcurrency ?? Infinity
        });
        pending = outcomes.map((o) => ({ type: "tool_result", tool_use_id: o.id, content: o.content, ...o.isError ? { is_error: true } : {} }));
        send({ type: "turn_end", turn, stopReason });
        continue;
      }
      send({ type: "turn_end", turn, stopReason });
      if (stopReason === "max_tokens" && recoveries < MAX_TOKENS_RECOVERIES) {
        recoveries++;
        pending = [{ type: "text", text: MAX_TOKENS_NUDGE }];
        continue;
      }
      const late = inboxBlocks(opts.drainInbox?.() ?? []);
      if (late.length) {
        pending = late;
        continue;
      }
      const more = await opts.beforeFinish?.(lastAssistantText(messages.slice(historyLength)));
      if (more) {
        pending = [{ type: "text", text: more }];
        continue;
      }
      return finish("completed");
    }
  } catch (err) {
    const message = `Internal error in the agent loop: ${err instanceof Error ? err.message : String(err)}`;
    try {
      send({ type: "error", message, retrying: false });
    } catch {
    }
    return finish("failed", message);
  }
}

// src/main/runtime/loop/run-agent.ts
function firstLine(text2) {
  const line2 = text2.trim().split("\n", 1)[0] ?? "";
  return line2.length > 80 ? `${line2.slice(0, 79)}\u2026` : line2;
}
async function runAgent(opts, emit) {
  const base = () => ({ agentId: opts.agentId, parentAgentId: opts.parentAgentId, parentToolUseId: opts.parentToolUseId, sessionId: opts.sessionId, ts: Date.now() });
  const prompt = textOf(promptBlocks(opts.prompt));
  const start = {
    ...base(),
    type: "agent_start",
    agentType: opts.agentType,
    description: opts.description ?? firstLine(prompt),
    prompt,
    model: opts.model,
    cwd: opts.cwd,
    depth: opts.depth ?? 0,
    tools: opts.tools.filter((t) => !t.withheld).map((t) => t.name),
    ...opts.maxTurns !== void 0 ? { maxTurns: opts.maxTurns } : {},
    ...opts.color ? { color: opts.color } : {},
    ...opts.background ? { background: true } : {},
    ...opts.name ? { name: opts.name } : {},
    ...opts.worktree ? { worktree: opts.worktree } : {}
  };
  emit(start);
  const result = await runAgentLoop(opts, emit);
  let extra = void 0;
  if (opts.finalize) {
    try {
      extra = await opts.finalize(result);
    } catch (err) {
      const why = `Cleaning up after the agent failed: ${err instanceof Error ? err.message : String(err)}`;
      result.error = result.error ? `${result.error}
${why}` : why;
    }
  }
  const end = {
    ...base(),
    type: "agent_end",
    status: result.status,
    result: result.result,
    ...result.error !== void 0 ? { error: result.error } : {},
    numTurns: result.numTurns,
    toolUses: result.toolUses,
    durationMs: result.durationMs,
    usage: result.usage,
    ...extra?.worktree ? { worktree: extra.worktree } : {}
  };
  emit(end);
  return result;
}

// src/main/runtime/store/data-dir.ts
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, posix, resolve, win32 } from "node:path";
function resolveDataDir(env = process.env, opts = {}) {
  const platform = opts.platform ?? process.platform;
  const home = opts.homedir ?? homedir();
  const explicit = env.FANOUT_DATA_DIR?.trim();
  if (explicit) return resolve(opts.cwd ?? process.cwd(), explicit);
  if (platform === "win32") {
    const appData = env.APPDATA?.trim() || win32.join(home, "AppData", "Roaming");
    return win32.join(appData, "Fanout");
  }
  if (platform === "darwin") return posix.join(home, "Library", "Application Support", "Fanout");
  const xdg = env.XDG_DATA_HOME?.trim();
  if (xdg && isAbsolute(xdg)) return posix.join(xdg, "fanout");
  return posix.join(home, ".local", "share", "fanout");
}
var SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
var isSafeId = (id) => SAFE_ID.test(id);
function assertSafeId(id, what) {
  if (typeof id !== "string" || !isSafeId(id)) {
    throw new Error(
      `Invalid ${what} ${JSON.stringify(id)}: use 1-128 letters, digits, '.', '_' or '-', not starting with '.' or '-'.`
    );
  }
}
var sessionsDir = (dataDir) => join(dataDir, "sessions");
function sessionDir(dataDir, sessionId) {
  assertSafeId(sessionId, "session id");
  return join(sessionsDir(dataDir), sessionId);
}
var sessionIndexPath = (dataDir, sessionId) => join(sessionDir(dataDir, sessionId), "session.json");
var agentsDir = (dataDir, sessionId) => join(sessionDir(dataDir, sessionId), "agents");
function transcriptPath(dataDir, sessionId, agentId) {
  assertSafeId(agentId, "agent id");
  return join(agentsDir(dataDir, sessionId), `${agentId}.jsonl`);
}
function agentStatePath(dataDir, sessionId, agentId) {
  assertSafeId(agentId, "agent id");
  return join(agentsDir(dataDir, sessionId), `${agentId}.state.json`);
}
var mailboxDir = (dataDir, sessionId) => join(sessionDir(dataDir, sessionId), "mailbox");
var credentialsPath = (dataDir) => join(dataDir, "credentials");
async function ensureDataDir(dataDir) {
  await mkdir(dataDir, { recursive: true, mode: 448 });
}

// src/main/runtime/store/atomic-file.ts
import { randomBytes } from "node:crypto";
import { mkdir as mkdir2, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
var sleep2 = (ms) => new Promise((r) => setTimeout(r, ms));
async function writeFileAtomic(file, data, opts = {}) {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const write = () => writeFile(temp, data, { mode: opts.mode ?? 420, flush: opts.fsync !== false });
  try {
    try {
      await write();
    } catch (err) {
      if (errorCode(err) !== "ENOENT") throw err;
      await mkdir2(dirname(file), { recursive: true });
      await write();
    }
    await renameWithRetry(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => {
    });
    throw err;
  }
}
async function renameWithRetry(from, to) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await rename(from, to);
    } catch (err) {
      const code = err.code;
      if (attempt >= 5 || !(code === "EPERM" || code === "EACCES" || code === "EBUSY")) throw err;
      await sleep2(10 * 2 ** attempt);
    }
  }
}
var writeJsonAtomic = (file, value, opts) => writeFileAtomic(file, JSON.stringify(value, null, 2) + "\n", opts);
async function readJsonFile(file) {
  let text2;
  try {
    text2 = await readFile(file, "utf8");
  } catch (err) {
    if (err.code === "ENOENT") return null;
    throw err;
  }
  try {
    return JSON.parse(text2);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${err.message}`, { cause: err });
  }
}
function errorCode(err) {
  return err?.code;
}

// src/main/runtime/store/jsonl-writer.ts
import { mkdir as mkdir3, open } from "node:fs/promises";
import { dirname as dirname2 } from "node:path";
var DEFAULT_FLUSH_DELAY_MS = 16;
var JsonlWriter = class {
  constructor(file, opts = {}) {
    this.file = file;
    this.opts = opts;
    this.delay = opts.flushDelayMs ?? DEFAULT_FLUSH_DELAY_MS;
  }
  file;
  opts;
  pending = [];
  /** Serialized text of a batch whose write failed; written before anything newer. */
  unwritten = "";
  /** `unwritten` begins with the header: a file opened again (after release) must not get another. */
  headerUnwritten = false;
  timer = null;
  writing = null;
  handle = null;
  closed = false;
  lastError = null;
  /** A failure was reported and no write has succeeded since: repeats are not reported again. */
  failing = false;
  delay;
  get pendingCount() {
    return this.pending.length;
  }
  /**
   * Queues `value`; returns the line it will be written as: `value` itself, or the merged value that now
   * stands in for the previous unwritten line (see `merge`).
   */
  append(value) {
    if (this.closed) throw new Error(`Cannot append to ${this.file}: the writer is closed.`);
    const last = this.pending.length ? this.pending[this.pending.length - 1] : void 0;
    const merged = last !== void 0 && this.opts.merge ? this.opts.merge(last, value) : null;
    if (merged !== null) this.pending[this.pending.length - 1] = merged;
    else this.pending.push(value);
    this.schedule();
    return merged ?? value;
  }
  /** Resolves when everything appended so far is written; rejects with the write error if it could not be. */
  async flush() {
    this.cancelTimer();
    while (this.writing || this.pending.length || this.unwritten) {
      if (!this.writing) this.startDrain();
      await this.writing;
      if (this.lastError) {
        const err = this.lastError;
        this.lastError = null;
        throw err;
      }
    }
  }
  /** Flushes and closes the fd; a later append opens the file again. */
  async release() {
    try {
      await this.flush();
    } finally {
      const h = this.handle;
      this.handle = null;
      await h?.close().catch(() => {
      });
    }
  }
  /** Flushes and closes for good. */
  async close() {
    this.closed = true;
    await this.release();
  }
  schedule() {
    if (this.timer || this.writing) return;
    this.timer = setTimeout(() => this.onTimer(), this.delay);
  }
  cancelTimer() {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
  }
  onTimer() {
    this.timer = null;
    if (!this.writing) this.startDrain();
  }
  startDrain() {
    this.writing = this.drain().finally(() => {
      this.writing = null;
    });
  }
  async drain() {
    this.lastError = null;
    while (this.pending.length || this.unwritten) {
      const batch = this.pending;
      this.pending = [];
      let text2 = this.unwritten + this.serialize(batch);
      this.unwritten = "";
      let withHeader = this.headerUnwritten;
      try {
        const { handle, prefix, header } = this.handle ? { handle: this.handle, prefix: "", header: false } : await this.openFile();
        text2 = prefix + text2;
        withHeader ||= header;
        if (text2) await handle.appendFile(text2, "utf8");
        this.failing = false;
        this.headerUnwritten = false;
      } catch (err) {
        this.unwritten = text2;
        this.headerUnwritten = withHeader;
        this.lastError = new Error(`Could not write ${this.file}: ${err.message}`, { cause: err });
        if (!this.failing) (this.opts.onError ?? ((e) => console.error(e.message)))(this.lastError);
        this.failing = true;
        return;
      }
    }
  }
  serialize(batch) {
    let out = "";
    for (const value of batch) {
      try {
        out += JSON.stringify(value) + "\n";
      } catch (err) {
        const e = new Error(`Dropped a value that cannot be written to ${this.file} as JSON: ${err.message}`);
        (this.opts.onError ?? ((x) => console.error(x.message)))(e);
      }
    }
    return out;
  }
  /**
   * Opens the file for appending. A new file (the usual case: one per agent) is created exclusively, and
   * its header goes out with the first batch, in one write; an existing one is checked for a torn last line.
   * The folder is created only when the open says it is missing.
   */
  async openFile() {
    await this.opts.beforeOpen?.();
    const header = () => this.opts.header && !this.headerUnwritten ? JSON.stringify(this.opts.header()) + "\n" : "";
    const created = await this.tryOpen("ax");
    if (created) {
      const prefix2 = header();
      return { handle: this.handle = created, prefix: prefix2, header: prefix2 !== "" };
    }
    const handle = await this.tryOpen("a+");
    let prefix = "";
    try {
      const { size: size2 } = await handle.stat();
      if (size2 === 0) {
        prefix = header();
      } else {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size2 - 1);
        if (last[0] !== 10) prefix = "\n";
      }
    } catch (err) {
      await handle.close().catch(() => {
      });
      throw err;
    }
    this.handle = handle;
    return { handle, prefix, header: prefix !== "" && prefix !== "\n" };
  }
  /** Opens with `flags`; null when 'ax' finds the file already there. */
  async tryOpen(flags) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await open(this.file, flags);
      } catch (err) {
        const code = err.code;
        if (code === "EEXIST" && flags === "ax") return null;
        if (code !== "ENOENT" || attempt > 0) throw err;
        await mkdir3(dirname2(this.file), { recursive: true });
      }
    }
  }
};

// src/main/runtime/store/jsonl-reader.ts
import { createReadStream } from "node:fs";
var CHUNK = 1 << 20;
async function* readRawLines(file) {
  const stream = createReadStream(file, { highWaterMark: CHUNK });
  let rest = Buffer.alloc(0);
  let lineNo2 = 0;
  const linesOf = (text2, terminated) => {
    const lines2 = [];
    let start = 0;
    for (let nl = text2.indexOf("\n"); nl !== -1 || start < text2.length; nl = text2.indexOf("\n", start)) {
      const end = nl === -1 ? text2.length : nl;
      lineNo2++;
      const line2 = text2.slice(start, end);
      start = end + 1;
      if (line2.trim()) lines2.push({ line: lineNo2, text: line2, terminated: nl !== -1 || terminated });
      if (nl === -1) break;
    }
    return lines2;
  };
  for await (const chunk of stream) {
    const bytes = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const cut2 = bytes.lastIndexOf(10);
    if (cut2 === -1) {
      rest = bytes;
      continue;
    }
    rest = bytes.subarray(cut2 + 1);
    const lines2 = linesOf(bytes.toString("utf8", 0, cut2 + 1), true);
    if (lines2.length) yield lines2;
  }
  if (rest.length) {
    const lines2 = linesOf(rest.toString("utf8"), false);
    if (lines2.length) yield lines2;
  }
}
function parseLine({ line: line2, text: text2, terminated }) {
  try {
    return { line: line2, ok: true, value: JSON.parse(text2), terminated };
  } catch (err) {
    return { line: line2, ok: false, text: text2, error: err.message, terminated };
  }
}

// src/main/runtime/store/transcript-format.ts
var TRANSCRIPT_VERSION = 1;
function makeHeader(event) {
  return {
    type: "header",
    version: TRANSCRIPT_VERSION,
    agentId: event.agentId,
    sessionId: event.sessionId,
    parentAgentId: event.parentAgentId,
    createdAt: event.ts
  };
}
function mergeDeltas(prev, next) {
  if (prev.type !== next.type || prev.agentId !== next.agentId) return null;
  const seq = next.seq === void 0 ? {} : { seq: next.seq };
  if (prev.type === "text_delta" && next.type === "text_delta") return { ...prev, text: prev.text + next.text, ...seq };
  if (prev.type === "thinking_delta" && next.type === "thinking_delta") return { ...prev, text: prev.text + next.text, ...seq };
  if (prev.type === "tool_input_delta" && next.type === "tool_input_delta" && prev.toolUseId === next.toolUseId) {
    return { ...prev, partialJson: prev.partialJson + next.partialJson, ...seq };
  }
  return null;
}
function streamEnd(e) {
  switch (e.type) {
    case "message":
      return e.message.role === "assistant" ? "replaced" : "kept";
    case "error":
      return e.retrying ? "replaced" : null;
    case "turn_end":
    case "agent_end":
      return "kept";
    default:
      return null;
  }
}
function isHeader(value) {
  return typeof value === "object" && value !== null && value.type === "header";
}
function isEventLike(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value;
  return typeof v.type === "string" && v.type !== "header" && typeof v.agentId === "string";
}

// src/main/runtime/store/transcript-reader.ts
var DELTA_TYPES = /* @__PURE__ */ new Set(["text_delta", "thinking_delta", "tool_input_delta"]);
var DELTA_PREFIXES = [...DELTA_TYPES].map((t) => `{"type":"${t}"`);
var looksLikeDelta = (text2) => text2.startsWith('{"type":"') && DELTA_PREFIXES.some((p) => text2.startsWith(p));
async function readTranscript(file, options = {}) {
  const out = { file, header: null, events: [], issues: [] };
  const issue = (line2, kind, message) => out.issues.push({ line: line2, kind, message: `${file}:${line2}: ${message}` });
  let first = true;
  let since = [];
  const take = (raw) => {
    const entry = parseLine(raw);
    if (!entry.ok) {
      if (!entry.terminated) {
        issue(entry.line, "torn-last-line", `incomplete last line (${entry.text.length} characters) skipped: the writer stopped mid-line, probably a crash`);
      } else {
        issue(entry.line, "corrupt-line", `line is not valid JSON (${entry.error}), skipped`);
      }
      first = false;
      return null;
    }
    if (first && isHeader(entry.value)) {
      first = false;
      out.header = entry.value;
      if (entry.value.version !== TRANSCRIPT_VERSION) {
        issue(entry.line, "unsupported-version", `transcript format version ${String(entry.value.version)} is not ${TRANSCRIPT_VERSION}; events read as best effort`);
      }
      return null;
    }
    if (first) {
      first = false;
      issue(entry.line, "missing-header", "no header line; reading events without it");
    }
    if (isEventLike(entry.value)) return entry.value;
    issue(entry.line, "not-an-event", 'line is JSON but not an agent event (no "type" and "agentId"), skipped');
    return null;
  };
  const settle = (keepDeltas) => {
    for (const x of since) {
      const e = "type" in x ? x : keepDeltas ? take(x) : null;
      if (e && (keepDeltas || !DELTA_TYPES.has(e.type))) out.events.push(e);
    }
    since = [];
  };
  try {
    for await (const lines2 of readRawLines(file)) {
      for (const raw of lines2) {
        if (!options.skipSettledDeltas) {
          const e = take(raw);
          if (e) out.events.push(e);
        } else if (!first && looksLikeDelta(raw.text)) since.push(raw);
        else {
          const e = take(raw);
          if (!e) continue;
          const end = streamEnd(e);
          if (end) {
            settle(end === "kept");
            out.events.push(e);
          } else since.push(e);
        }
      }
    }
    settle(true);
  } catch (err) {
    if (err.code === "ENOENT") throw new Error(`Transcript not found: ${file}`, { cause: err });
    throw new Error(`Cannot read transcript ${file}: ${err.message}`, { cause: err });
  }
  return out;
}

// src/main/runtime/store/session-index.ts
import { z } from "zod";
var SESSION_INDEX_VERSION = 1;
var TERMINAL = /* @__PURE__ */ new Set(["completed", "failed", "stopped", "max_turns", "interrupted"]);
var isTerminalStatus = (status) => TERMINAL.has(status);
var TITLE_MAX = 120;
function titleFromPrompt(prompt) {
  const line2 = prompt.split("\n").find((l) => l.trim()) ?? "";
  const t = line2.trim();
  return t.length > TITLE_MAX ? t.slice(0, TITLE_MAX - 1) + "\u2026" : t;
}
function emptyIndex(sessionId, cwd2, now) {
  return {
    version: SESSION_INDEX_VERSION,
    sessionId,
    createdAt: now,
    updatedAt: now,
    cwd: cwd2,
    title: "",
    status: "queued",
    agents: {},
    usage: emptyUsage(),
    costUsd: 0,
    writer: null
  };
}
var SessionIndexBuilder = class {
  constructor(index) {
    this.index = index;
  }
  index;
  /** Usage counted from `usage` events since each agent's latest agent_start (see agent_end). */
  runUsage = /* @__PURE__ */ new Map();
  apply(e) {
    const idx = this.index;
    if (e.ts > idx.updatedAt) idx.updatedAt = e.ts;
    const a = idx.agents[e.agentId] ?? this.create(e);
    switch (e.type) {
      case "agent_start":
        if (a.runs > 0) a.runs++;
        else {
          a.runs = 1;
          a.startedAt = e.ts;
        }
        a.agentType = e.agentType;
        a.description = e.description;
        a.model = e.model;
        a.depth = e.depth;
        a.cwd = e.cwd;
        a.status = "running";
        a.parentToolUseId = e.parentToolUseId;
        delete a.endedAt;
        delete a.error;
        if (e.name) a.name = e.name;
        if (e.background) a.background = true;
        if (e.worktree) a.worktree = { ...e.worktree };
        this.runUsage.set(e.agentId, emptyUsage());
        if (e.parentAgentId === null) {
          if (!idx.title) idx.title = titleFromPrompt(e.prompt || e.description);
          if (!idx.cwd) idx.cwd = e.cwd;
        }
        break;
      case "status":
        a.status = e.status;
        break;
      case "turn_start":
        a.turnCount++;
        break;
      case "tool_run":
        a.toolUses++;
        break;
      case "usage": {
        a.usage = addUsage(a.usage, e.usage);
        const run = this.runUsage.get(e.agentId);
        if (run) this.runUsage.set(e.agentId, addUsage(run, e.usage));
        break;
      }
      case "agent_end": {
        a.status = e.status;
        a.endedAt = e.ts;
        if (e.error) a.error = e.error;
        if (e.worktree) a.worktree = { ...e.worktree };
        const counted = this.runUsage.get(e.agentId);
        if (e.usage && counted && sameUsage(counted, emptyUsage())) a.usage = addUsage(a.usage, e.usage);
        this.runUsage.delete(e.agentId);
        break;
      }
    }
  }
  /** A finished copy: totals, session status and title derived from the agents. */
  snapshot() {
    finalizeIndex(this.index);
    return structuredClone(this.index);
  }
  create(e) {
    const rec = {
      agentId: e.agentId,
      parentAgentId: e.parentAgentId,
      parentToolUseId: e.parentToolUseId,
      agentType: "unknown",
      description: "",
      status: "running",
      model: "",
      startedAt: e.ts,
      usage: emptyUsage(),
      depth: 0,
      turnCount: 0,
      toolUses: 0,
      runs: 0
    };
    this.index.agents[e.agentId] = rec;
    return rec;
  }
};
function finalizeIndex(idx) {
  let usage = emptyUsage();
  let root2;
  let lastInterrupted = -1;
  for (const a of Object.values(idx.agents)) {
    usage = addUsage(usage, a.usage);
    if (a.parentAgentId === null && (!root2 || a.startedAt >= root2.startedAt)) root2 = a;
    if (a.status === "interrupted") lastInterrupted = Math.max(lastInterrupted, a.endedAt ?? 0);
  }
  idx.usage = usage;
  idx.costUsd = usage.costUsd;
  if (!root2) return;
  idx.status = isTerminalStatus(root2.status) && lastInterrupted > (root2.endedAt ?? -1) ? "interrupted" : root2.status;
}
function sameUsage(a, b) {
  return a.inputTokens === b.inputTokens && a.outputTokens === b.outputTokens && a.cacheReadTokens === b.cacheReadTokens && a.cacheWriteTokens === b.cacheWriteTokens && Math.abs(a.costUsd - b.costUsd) < 1e-9;
}
var usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  costUsd: z.number()
});
var agentRecordSchema = z.looseObject({
  agentId: z.string(),
  parentAgentId: z.string().nullable(),
  parentToolUseId: z.string().nullable(),
  agentType: z.string(),
  description: z.string(),
  status: z.string(),
  model: z.string(),
  startedAt: z.number(),
  usage: usageSchema,
  depth: z.number().default(0),
  turnCount: z.number().default(0),
  toolUses: z.number().default(0),
  runs: z.number().default(1)
});
var sessionIndexSchema = z.looseObject({
  version: z.number(),
  sessionId: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  cwd: z.string(),
  title: z.string(),
  status: z.string(),
  agents: z.record(z.string(), agentRecordSchema),
  usage: usageSchema,
  costUsd: z.number(),
  writer: z.object({ pid: z.number(), hostname: z.string() }).nullable().default(null)
});
function parseSessionIndex(value, file) {
  const r = sessionIndexSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`${file}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  if (r.data.version > SESSION_INDEX_VERSION) {
    throw new Error(`${file}: session index version ${r.data.version} is newer than this Fanout understands (${SESSION_INDEX_VERSION})`);
  }
  return r.data;
}

// src/main/runtime/store/session-index-file.ts
import { hostname } from "node:os";
async function readSessionIndex(dataDir, sessionId) {
  const file = sessionIndexPath(dataDir, sessionId);
  const raw = await readJsonFile(file);
  return raw === null ? null : parseSessionIndex(raw, file);
}
async function writeSessionIndex(dataDir, index) {
  await writeJsonAtomic(sessionIndexPath(dataDir, index.sessionId), index, { fsync: false });
}
function isProcessAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
function writerGone(writer) {
  if (!writer) return true;
  return writer.hostname === hostname() && !isProcessAlive(writer.pid);
}
function effectiveStatus(index) {
  if (isTerminalStatus(index.status)) return index.status;
  return writerGone(index.writer) ? "interrupted" : index.status;
}
var currentWriter = () => ({ pid: process.pid, hostname: hostname() });

// src/main/runtime/store/session-recorder.ts
import { join as join4 } from "node:path";

// src/main/runtime/store/open-session.ts
import { readdir } from "node:fs/promises";
import { join as join2 } from "node:path";

// src/main/runtime/store/interruption.ts
var INTERRUPTED_AGENT_ERROR = "Fanout stopped (it was closed or crashed) while this agent was working.";
function interruptedEnd(events) {
  if (!events.length) return null;
  let start = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const type = events[i].type;
    if (type === "agent_end") return null;
    if (type === "agent_start") {
      start = i;
      break;
    }
  }
  let usage = emptyUsage();
  let numTurns = 0;
  let toolUses = 0;
  for (let i = start; i < events.length; i++) {
    const e = events[i];
    if (e.type === "usage") usage = addUsage(usage, e.usage);
    else if (e.type === "turn_start") numTurns = e.turn;
    else if (e.type === "tool_run") toolUses++;
  }
  const first = events[start];
  const last = events[events.length - 1];
  return {
    type: "agent_end",
    agentId: last.agentId,
    parentAgentId: first.parentAgentId,
    parentToolUseId: first.parentToolUseId,
    sessionId: last.sessionId,
    ts: last.ts,
    // Its place is right after the agent's last event (a replay orders events by seq where they have one).
    ...last.seq === void 0 ? {} : { seq: last.seq },
    status: "interrupted",
    result: "",
    error: INTERRUPTED_AGENT_ERROR,
    numTurns,
    toolUses,
    durationMs: Math.max(0, last.ts - first.ts),
    usage
  };
}

// src/main/runtime/store/map-limit.ts
async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// src/main/runtime/store/open-session.ts
var SessionNotFoundError = class extends Error {
  name = "SessionNotFoundError";
};
async function openSession(dataDir, sessionId, readOptions = {}) {
  const dir = sessionDir(dataDir, sessionId);
  const notes = [];
  let stored = null;
  let storedBroken = false;
  try {
    stored = await readSessionIndex(dataDir, sessionId);
  } catch (err) {
    storedBroken = true;
    notes.push(`session.json could not be read, rebuilt from transcripts: ${err.message}`);
  }
  const files = await listTranscripts(agentsDir(dataDir, sessionId));
  if (!stored && !files.length) {
    if (storedBroken) throw new Error(`Session ${sessionId} in ${dir} has a broken session.json and no transcripts: ${notes[0]}`);
    throw new SessionNotFoundError(`No session ${sessionId} in ${join2(dataDir, "sessions")}`);
  }
  if (!stored && !storedBroken) notes.push("session.json is missing; the session was rebuilt from its transcripts");
  const read = await mapLimit(
    files,
    16,
    (f) => readTranscript(f, readOptions).catch((err) => {
      notes.push(`${err.message}; that agent is left out`);
      return null;
    })
  );
  const transcripts = read.filter((t) => t !== null);
  const seen = new Map(Object.keys(stored?.agents ?? {}).map((id, i) => [id, i]));
  const place = (t) => seen.get(t.header?.agentId ?? t.events[0]?.agentId ?? "") ?? seen.size;
  transcripts.sort((a, b) => createdAt(a) - createdAt(b) || place(a) - place(b));
  const agents = {};
  const firstTs = transcripts.length ? createdAt(transcripts[0]) : Date.now();
  const builder = new SessionIndexBuilder(emptyIndex(sessionId, stored?.cwd ?? "", stored?.createdAt ?? firstTs));
  const gone = writerGone(stored?.writer ?? null);
  const interrupted = [];
  for (const t of transcripts) {
    const agentId = t.header?.agentId ?? t.events[0]?.agentId;
    if (!agentId) {
      notes.push(`${t.file} holds no readable events, skipped`);
      continue;
    }
    agents[agentId] = t;
    for (const issue of t.issues) notes.push(issue.message);
    const end = gone ? interruptedEnd(t.events) : null;
    if (end) {
      t.events.push(end);
      interrupted.push(end);
    }
    for (const e of t.events) builder.apply(e);
  }
  const index = builder.index;
  if (stored) {
    for (const [id, rec] of Object.entries(stored.agents)) {
      if (index.agents[id]) continue;
      index.agents[id] = gone && !isTerminalStatus(rec.status) ? { ...rec, status: "interrupted" } : rec;
      notes.push(`agent ${id} has no transcript; kept its entry from session.json`);
    }
    if (stored.title) index.title = stored.title;
    if (stored.updatedAt > index.updatedAt) index.updatedAt = stored.updatedAt;
    index.writer = stored.writer;
  }
  finalizeIndex(index);
  const rebuilt = !stored || storedBroken || differs(stored, index);
  index.status = effectiveStatus(index);
  return { index, agents, notes, rebuilt, interrupted };
}
async function listTranscripts(dir) {
  try {
    const names = await readdir(dir);
    return names.filter((n) => n.endsWith(".jsonl")).map((n) => join2(dir, n));
  } catch (err) {
    if (errorCode(err) === "ENOENT") return [];
    throw new Error(`Cannot list ${dir}: ${err.message}`, { cause: err });
  }
}
var createdAt = (t) => t.header?.createdAt ?? t.events[0]?.ts ?? 0;
function differs(stored, rebuilt) {
  const ids2 = Object.keys(rebuilt.agents);
  if (ids2.length !== Object.keys(stored.agents).length) return true;
  return ids2.some((id) => {
    const a = stored.agents[id];
    const b = rebuilt.agents[id];
    return !a || a.status !== b.status || a.turnCount !== b.turnCount || a.usage.costUsd !== b.usage.costUsd || a.usage.outputTokens !== b.usage.outputTokens;
  });
}

// src/shared/view/agent-status.ts
function waitKindOf(status) {
  return status === "queued" ? "queued" : status === "waiting_permission" ? "permission" : null;
}
function closeWaits(a, ts) {
  if (a.waits.some((w) => w.end === null)) a.waits = a.waits.map((w) => w.end === null ? { ...w, end: ts } : w);
}
function setStatus(a, status, ts) {
  if (a.status === status) return;
  closeWaits(a, ts);
  const kind = waitKindOf(status);
  if (kind) a.waits.push({ kind, start: ts, end: null });
  a.status = status;
}

// src/shared/view/inbox-message.ts
var unescapeAttr = (s) => s.replace(/&lt;/g, "<").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
function attrs(tag) {
  const out = {};
  for (const m of tag.matchAll(/([\w-]+)="([^"]*)"/g)) out[m[1]] = unescapeAttr(m[2]);
  return out;
}
function element(text2, tag) {
  const open5 = text2.indexOf(`<${tag}>`);
  if (open5 === -1) return null;
  const from = open5 + tag.length + 2;
  const close = text2.lastIndexOf(`</${tag}>`);
  return close < from ? null : text2.slice(from, close).replace(/^\n/, "").replace(/\n$/, "");
}
var ATTRS = String.raw`((?:\s+[\w-]+="[^"]*")*)\s*`;
var AGENT_MESSAGE = new RegExp(String.raw`^\s*<agent-message${ATTRS}>\n?([\s\S]*?)\n?<\/agent-message>\s*$`);
var TEAM_ENVELOPE = new RegExp(String.raw`^\s*<(team-request|team-response)${ATTRS}>\n?([\s\S]*?)\n?<\/\1>`);
function isEnvelope(text2) {
  return AGENT_MESSAGE.test(text2) || /^\s*<task-notification>[\s\S]*<\/task-notification>\s*$/.test(text2);
}
var openedByInbox = (prompt) => /^\s*<(task-notification|agent-message)[\s>]/.test(prompt);
function parseInbox(text2, from) {
  const report = parseReport(text2);
  if (report) return report;
  const m = AGENT_MESSAGE.exec(text2);
  if (!m) return from === "user" ? { type: "person", text: text2 } : { type: "note", text: text2.trim() };
  const a = attrs(m[1] ?? "");
  const body = m[2];
  if (a.from === "user" || from === "user" && !a.from) return { type: "person", text: body };
  return { type: "agent", fromName: a.from || from, ...a.summary ? { summary: a.summary } : {}, text: teamText(body) };
}
var REPORT_STATUSES = /* @__PURE__ */ new Set(["completed", "failed", "stopped", "max_turns"]);
function parseReport(text2) {
  const t = text2.trim();
  if (!t.startsWith("<task-notification>") || !t.endsWith("</task-notification>")) return null;
  const status = element(t, "status") ?? "";
  const name = element(t, "name");
  const note = element(t, "note");
  return {
    type: "report",
    agentId: element(t, "task-id") ?? "",
    agentType: element(t, "agent-type") ?? "agent",
    ...name ? { name } : {},
    status: REPORT_STATUSES.has(status) ? status : "completed",
    text: reportBody(element(t, "result") ?? ""),
    ...note ? { note } : {}
  };
}
function reportBody(result) {
  const meta = result.search(/\n*^agentId: \S+/m);
  return (meta === -1 ? result.replace(/<usage>[\s\S]*?<\/usage>/g, "") : result.slice(0, meta)).trim();
}
var REQUEST_LABEL = { shutdown: "Asks you to shut down", plan_approval: "Plan for approval" };
function teamText(body) {
  const m = TEAM_ENVELOPE.exec(body);
  if (!m) return body;
  const a = attrs(m[2] ?? "");
  const content = m[3].trim();
  let head;
  if (m[1] === "team-request") head = REQUEST_LABEL[a.type] ?? "Request";
  else if (a.type === "shutdown") head = a.approved === "true" ? "Agreed to shut down" : "Declined to shut down";
  else head = a.approved === "true" ? "Plan approved" : "Plan rejected";
  return content ? `${head}: ${content}` : head;
}
var ENDED = { completed: "finished", failed: "failed", stopped: "was stopped", max_turns: "hit its turn limit" };
var reportVerb = (status) => ENDED[status];
function inboxPreview(message, limit = 280) {
  let body;
  if (message.type === "report") {
    const first = message.text.split("\n").find((l) => l.trim()) ?? "";
    const verb = reportVerb(message.status);
    body = `${verb[0].toUpperCase()}${verb.slice(1)}${first ? ` \u2014 ${first}` : ""}`;
  } else body = message.text;
  const flat = body.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}\u2026` : flat;
}

// src/shared/view/session-draft.ts
var SessionDraft = class {
  s;
  agentsCopied = false;
  itemsCopied = false;
  toolsCopied = false;
  permissionsCopied = false;
  queueCopied = false;
  orderCopied = false;
  agentCopies = /* @__PURE__ */ new Set();
  itemCopies = /* @__PURE__ */ new Set();
  toolCopies = /* @__PURE__ */ new Set();
  permissionCopies = /* @__PURE__ */ new Set();
  constructor(base) {
    this.s = { ...base };
  }
  get state() {
    return this.s;
  }
  set(key, value) {
    this.s[key] = value;
  }
  addUsage(delta) {
    this.s.usage = addUsage(this.s.usage, delta);
  }
  hasAgent(id) {
    return id in this.s.agents;
  }
  /** The agent as it is now, not to be changed (it may be shared with the previous state). */
  peekAgent(id) {
    return this.s.agents[id];
  }
  /** A mutable copy of the agent for this batch. */
  agent(id) {
    if (!this.agentsCopied) {
      this.s.agents = { ...this.s.agents };
      this.agentsCopied = true;
    }
    if (!this.agentCopies.has(id)) {
      const a = this.s.agents[id];
      this.s.agents[id] = { ...a, usage: a.usage ?? emptyUsage(), toolIds: [...a.toolIds], children: [...a.children], waits: [...a.waits] };
      this.agentCopies.add(id);
    }
    return this.s.agents[id];
  }
  /** Adds a new agent (caller ensures it does not exist). */
  putAgent(agent) {
    if (!this.agentsCopied) {
      this.s.agents = { ...this.s.agents };
      this.agentsCopied = true;
    }
    this.s.agents[agent.id] = agent;
    this.agentCopies.add(agent.id);
    if (!this.orderCopied) {
      this.s.agentOrder = [...this.s.agentOrder];
      this.orderCopied = true;
    }
    this.s.agentOrder.push(agent.id);
  }
  /** The agent's mutable transcript for this batch. */
  items(agentId) {
    if (!this.itemsCopied) {
      this.s.items = { ...this.s.items };
      this.itemsCopied = true;
    }
    if (!this.itemCopies.has(agentId)) {
      this.s.items[agentId] = [...this.s.items[agentId] ?? []];
      this.itemCopies.add(agentId);
    }
    return this.s.items[agentId];
  }
  /** Replaces an item with an edited copy (items themselves are shared with the previous state). */
  replaceItem(agentId, index, item) {
    this.items(agentId)[index] = item;
  }
  peekItems(agentId) {
    return this.s.items[agentId] ?? [];
  }
  hasTool(id) {
    return id in this.s.tools;
  }
  tool(id) {
    if (!this.toolsCopied) {
      this.s.tools = { ...this.s.tools };
      this.toolsCopied = true;
    }
    if (!this.toolCopies.has(id)) {
      this.s.tools[id] = { ...this.s.tools[id] };
      this.toolCopies.add(id);
    }
    return this.s.tools[id];
  }
  putTool(tool) {
    if (!this.toolsCopied) {
      this.s.tools = { ...this.s.tools };
      this.toolsCopied = true;
    }
    if (!(tool.id in this.s.tools)) this.s.toolCount++;
    this.s.tools[tool.id] = tool;
    this.toolCopies.add(tool.id);
  }
  deleteTool(id) {
    if (!this.toolsCopied) {
      this.s.tools = { ...this.s.tools };
      this.toolsCopied = true;
    }
    if (id in this.s.tools) this.s.toolCount--;
    delete this.s.tools[id];
  }
  peekTool(id) {
    return this.s.tools[id];
  }
  permission(id) {
    if (!(id in this.s.permissions)) return void 0;
    if (!this.permissionsCopied) {
      this.s.permissions = { ...this.s.permissions };
      this.permissionsCopied = true;
    }
    if (!this.permissionCopies.has(id)) {
      this.s.permissions[id] = { ...this.s.permissions[id] };
      this.permissionCopies.add(id);
    }
    return this.s.permissions[id];
  }
  putPermission(p) {
    if (!this.permissionsCopied) {
      this.s.permissions = { ...this.s.permissions };
      this.permissionsCopied = true;
    }
    this.s.permissions[p.requestId] = p;
    this.permissionCopies.add(p.requestId);
  }
  queue() {
    if (!this.queueCopied) {
      this.s.permissionQueue = [...this.s.permissionQueue];
      this.queueCopied = true;
    }
    return this.s.permissionQueue;
  }
  finish() {
    return this.s;
  }
};

// src/shared/view/transcript-items.ts
function pushItem(d, a, item) {
  a.itemSeq += 1;
  d.items(a.id).push({ ...item, key: `${a.id}:${a.itemSeq}` });
}

// src/shared/view/permission-reducer.ts
function permissionRequest(d, e) {
  if (d.state.permissions[e.requestId]) return;
  d.putPermission({
    requestId: e.requestId,
    sessionId: e.sessionId,
    agentId: e.agentId,
    requestingAgentId: e.requestingAgentId,
    toolName: e.toolName,
    toolUseId: e.toolUseId,
    input: e.input,
    reason: e.reason,
    suggestedRules: e.suggestedRules ?? [],
    ts: e.ts
  });
  d.queue().push(e.requestId);
  const requester = d.hasAgent(e.requestingAgentId) ? d.agent(e.requestingAgentId) : null;
  if (requester) setStatus(requester, "waiting_permission", e.ts);
  if (e.toolUseId && d.hasTool(e.toolUseId)) d.tool(e.toolUseId).permissionRequestId = e.requestId;
}
function expirePermission(d, requestId, ts, decision) {
  const p = d.permission(requestId);
  if (!p) return;
  p.decision = decision ?? "expired";
  p.respondedAt = ts;
  const q = d.queue();
  const i = q.indexOf(requestId);
  if (i !== -1) q.splice(i, 1);
  if (p.toolUseId && d.hasTool(p.toolUseId) && d.peekTool(p.toolUseId).permissionRequestId === requestId) d.tool(p.toolUseId).permissionRequestId = void 0;
}
function permissionResponse(d, e) {
  const p = d.state.permissions[e.requestId];
  if (!p) return;
  expirePermission(d, e.requestId, e.ts, e.decision);
  if (!d.hasAgent(p.requestingAgentId)) return;
  const stillWaiting = d.state.permissionQueue.some((id) => d.state.permissions[id].requestingAgentId === p.requestingAgentId);
  const requester = d.agent(p.requestingAgentId);
  if (!stillWaiting && requester.status === "waiting_permission") setStatus(requester, "running", e.ts);
  if (e.decision === "deny") pushItem(d, requester, { kind: "notice", text: `Denied ${p.toolName}${e.reason ? `: ${e.reason}` : ""}`, ts: e.ts });
}

// src/shared/view/inbox-reducer.ts
function inboxItem(d, from, text2, ts) {
  const message = parseInbox(text2, from);
  const sender = message.type === "agent" && d.hasAgent(from) ? d.peekAgent(from) : void 0;
  const fromName = sender ? sender.name ?? sender.agentType : void 0;
  return { kind: "inbox", from, ...fromName ? { fromName } : {}, message, ts };
}
function messageReceived(d, a, e) {
  a.unread = [...a.unread ?? [], e.text];
  const item = inboxItem(d, e.from, e.text, e.ts);
  if (a.streamFrom !== null) a.held = [...a.held ?? [], item];
  else pushItem(d, a, item);
}
function endStream(d, a) {
  a.streamFrom = null;
  if (!a.held?.length) return;
  const held = a.held;
  a.held = void 0;
  for (const item of held) pushItem(d, a, item);
}
function userText(d, a, text2, ts) {
  const i = a.unread?.indexOf(text2) ?? -1;
  if (i !== -1) {
    a.unread = a.unread.filter((_, j) => j !== i);
    return;
  }
  pushItem(d, a, isEnvelope(text2) ? inboxItem(d, "", text2, ts) : { kind: "user", text: text2, ts });
}

// src/shared/view/stream-reducer.ts
function beginStream(d, a) {
  if (a.streamFrom === null) a.streamFrom = d.peekItems(a.id).length;
}
function appendDelta(d, agentId, kind, text2, ts) {
  if (d.peekAgent(agentId).streamFrom === null) beginStream(d, d.agent(agentId));
  const streamFrom = d.peekAgent(agentId).streamFrom;
  const items = d.peekItems(agentId);
  const last = items[items.length - 1];
  if (last && last.kind === kind && last.streaming && items.length - 1 >= streamFrom) {
    d.replaceItem(agentId, items.length - 1, { ...last, text: last.text + text2 });
  } else pushItem(d, d.agent(agentId), { kind, text: text2, ts, streaming: true });
}
function settleStreaming(d, a) {
  if (a.streamFrom === null) return;
  const items = d.peekItems(a.id);
  for (let i = items.length - 1; i >= a.streamFrom; i--) {
    const it = items[i];
    if ((it.kind === "text" || it.kind === "thinking") && it.streaming) d.replaceItem(a.id, i, { ...it, streaming: false });
    else if (it.kind === "user") break;
  }
  endStream(d, a);
}
function agentError(d, a, e) {
  if (e.notice) return pushItem(d, a, { kind: "notice", text: e.message, ts: e.ts });
  a.lastError = { message: e.message, retrying: e.retrying, ts: e.ts };
  if (e.retrying) {
    if (a.streamFrom !== null) {
      const dropped = d.items(a.id).splice(a.streamFrom);
      for (const it of dropped) {
        if (it.kind === "tool" && d.peekTool(it.toolUseId)?.status === "streaming") {
          d.deleteTool(it.toolUseId);
          a.toolIds = a.toolIds.filter((id) => id !== it.toolUseId);
        }
      }
      endStream(d, a);
    }
    const items = d.peekItems(a.id);
    const last = items[items.length - 1];
    if (last?.kind === "error" && last.retrying) d.replaceItem(a.id, items.length - 1, { ...last, message: e.message, ts: e.ts });
    else {
      resolveRetry(d, a);
      pushItem(d, a, { kind: "error", message: e.message, retrying: true, ts: e.ts });
      a.retryKey = d.peekItems(a.id).at(-1).key;
    }
    return;
  }
  resolveRetry(d, a);
  a.error = e.message;
  pushItem(d, a, { kind: "error", message: e.message, retrying: false, ts: e.ts });
}
function resolveRetry(d, a) {
  if (a.retryKey === void 0) return;
  const items = d.peekItems(a.id);
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i].key !== a.retryKey) continue;
    d.items(a.id).splice(i, 1);
    if (a.streamFrom !== null && a.streamFrom > i) a.streamFrom--;
    break;
  }
  a.retryKey = void 0;
  if (a.lastError?.retrying) a.lastError = void 0;
}

// src/shared/view/team-reducer.ts
var TEAM_MESSAGE_LIMIT = 300;
function applyPhase(d, e) {
  d.set("phases", [...d.state.phases, { phase: e.phase, ...e.note ? { note: e.note } : {}, ts: e.ts }]);
}
function currentPhase(s) {
  return s.phases.length ? s.phases[s.phases.length - 1].phase : null;
}
function phaseForStart(d, parentId) {
  if (parentId === null) return void 0;
  return currentPhase(d.state) ?? void 0;
}
function applyTeam(d, e) {
  d.set("team", e.team);
}
function nameOf(team, agentId) {
  if (agentId === team.leadAgentId) return "lead";
  return team.members.find((m) => m.agentId === agentId)?.name ?? null;
}
function teamMessage(d, e) {
  const team = d.state.team;
  if (!team) return;
  const to = nameOf(team, e.agentId);
  const from = nameOf(team, e.from);
  if (!to || !from) return;
  const list = d.state.teamMessages;
  const message = parseInbox(e.text, e.from);
  const summary = e.summary && message.type !== "report" ? e.summary : void 0;
  const msg = { key: `m${d.state.eventCount}`, ts: e.ts, from, to, ...summary ? { summary } : {}, text: inboxPreview(message) };
  d.set("teamMessages", list.length >= TEAM_MESSAGE_LIMIT ? [...list.slice(list.length - TEAM_MESSAGE_LIMIT + 1), msg] : [...list, msg]);
}

// src/shared/view/agent-reducer.ts
function newAgent(e) {
  return {
    id: e.agentId,
    sessionId: e.sessionId,
    parentId: e.parentAgentId,
    parentToolUseId: e.parentToolUseId,
    agentType: "agent",
    description: "",
    prompt: "",
    model: "",
    cwd: "",
    depth: 0,
    background: false,
    tools: [],
    status: "running",
    startedAt: e.ts,
    endedAt: null,
    turn: 0,
    toolUses: 0,
    usage: emptyUsage(),
    children: [],
    toolIds: [],
    currentToolId: null,
    waits: [],
    runs: 0,
    itemSeq: 0,
    streamFrom: null,
    usageAtRunStart: emptyUsage()
  };
}
function linkToParent(d, a) {
  if (a.parentId === null) {
    if (d.state.rootAgentId === null) d.set("rootAgentId", a.id);
    return;
  }
  if (d.hasAgent(a.parentId)) {
    const parent = d.agent(a.parentId);
    if (!parent.children.includes(a.id)) parent.children.push(a.id);
  }
  if (a.parentToolUseId && d.hasTool(a.parentToolUseId)) d.tool(a.parentToolUseId).childAgentId = a.id;
}
function ensureAgent(d, e) {
  if (d.hasAgent(e.agentId)) return d.agent(e.agentId);
  const a = { ...newAgent(e), unknown: true, description: "(agent start not recorded)" };
  d.putAgent(a);
  linkToParent(d, a);
  return a;
}
function agentStart(d, e) {
  const existing = d.hasAgent(e.agentId);
  const a = existing ? d.agent(e.agentId) : newAgent(e);
  const keepTask = existing && !!a.description && openedByInbox(e.prompt);
  Object.assign(a, {
    agentType: e.agentType,
    description: keepTask ? a.description : e.description,
    prompt: keepTask ? a.prompt : e.prompt,
    model: e.model,
    cwd: e.cwd,
    depth: e.depth,
    maxTurns: e.maxTurns,
    color: e.color,
    background: e.background ?? false,
    name: e.name,
    tools: e.tools,
    worktree: e.worktree ?? a.worktree,
    status: "running",
    statusDetail: void 0,
    endedAt: null,
    turn: 0,
    runs: a.runs + 1,
    usageAtRunStart: a.usage,
    unknown: void 0,
    phase: phaseForStart(d, e.parentAgentId)
  });
  if (!existing) {
    d.putAgent(a);
    linkToParent(d, a);
  } else if (a.parentToolUseId !== e.parentToolUseId && e.parentToolUseId) {
    a.parentToolUseId = e.parentToolUseId;
    linkToParent(d, a);
  }
}
function agentEnd(d, a, e) {
  closeWaits(a, e.ts);
  a.status = e.status;
  a.statusDetail = void 0;
  a.endedAt = e.ts;
  a.result = e.result;
  a.error = e.error;
  a.turn = e.numTurns;
  a.toolUses = e.toolUses;
  a.currentToolId = null;
  if (e.usage) {
    const target2 = addUsage(a.usageAtRunStart, e.usage);
    d.addUsage(diff(target2, a.usage));
    a.usage = target2;
  }
  if (e.worktree) a.worktree = e.worktree;
  settleStreaming(d, a);
  for (const id of a.toolIds) {
    const t = d.peekTool(id);
    if (t && (t.status === "running" || t.status === "streaming" || t.status === "pending")) {
      const tool = d.tool(id);
      tool.status = "cancelled";
      tool.endedAt = e.ts;
    }
  }
  for (const id of [...d.state.permissionQueue]) {
    const p = d.state.permissions[id];
    if (p.requestingAgentId === a.id) expirePermission(d, id, e.ts);
  }
  resolveRetry(d, a);
  if (e.error && e.status === "failed" && !d.peekItems(a.id).some((i) => i.kind === "error" && i.message === e.error)) {
    pushItem(d, a, { kind: "error", message: e.error, retrying: false, ts: e.ts });
  }
  if (e.status === "interrupted") pushItem(d, a, { kind: "notice", text: e.error ?? "Interrupted.", ts: e.ts });
}
var diff = (a, b) => ({
  inputTokens: a.inputTokens - b.inputTokens,
  outputTokens: a.outputTokens - b.outputTokens,
  cacheReadTokens: a.cacheReadTokens - b.cacheReadTokens,
  cacheWriteTokens: a.cacheWriteTokens - b.cacheWriteTokens,
  costUsd: a.costUsd - b.costUsd
});

// src/shared/view/session-state.ts
var emptyEventsState = () => ({ sessions: {} });
function emptySession(id) {
  return {
    id,
    rootAgentId: null,
    agents: {},
    agentOrder: [],
    items: {},
    tools: {},
    toolCount: 0,
    permissions: {},
    permissionQueue: [],
    usage: emptyUsage(),
    startedAt: null,
    lastEventTs: 0,
    eventCount: 0,
    phases: [],
    team: null,
    teamMessages: []
  };
}
var AGENT_TOOL_NAMES = /* @__PURE__ */ new Set(["Agent", "Task"]);

// src/shared/view/tool-reducer.ts
function toolInputDelta(d, e) {
  if (d.hasTool(e.toolUseId)) d.tool(e.toolUseId).inputJson += e.partialJson;
}
function toolUpdate(d, e) {
  if (d.hasTool(e.toolUseId)) d.tool(e.toolUseId).progress = e.details;
}
function startTool(d, a, id, name, ts, status) {
  if (d.hasTool(id)) return;
  d.putTool({ id, agentId: a.id, name, status, inputJson: "", input: void 0, startedAt: ts });
  a.toolIds.push(id);
  pushItem(d, a, { kind: "tool", toolUseId: id, ts });
  if (AGENT_TOOL_NAMES.has(name)) {
    const child2 = Object.values(d.state.agents).find((x) => x.parentToolUseId === id);
    if (child2) d.tool(id).childAgentId = child2.id;
  }
}
function toolRun(d, a, e) {
  startTool(d, a, e.toolUseId, e.name, e.ts, "running");
  const t = d.tool(e.toolUseId);
  t.status = "running";
  t.input = e.input;
  t.runStartedAt = e.ts;
  if (!t.inputJson) t.inputJson = safeJson(e.input);
  a.currentToolId = e.toolUseId;
}
function toolEnd(d, a, e) {
  startTool(d, a, e.toolUseId, e.name, e.ts - (e.durationMs ?? 0), "running");
  const t = d.tool(e.toolUseId);
  t.status = e.isError ? "error" : "done";
  t.output = e.output;
  t.details = e.details;
  t.durationMs = e.durationMs;
  t.endedAt = e.ts;
  if (t.runStartedAt === void 0) t.runStartedAt = e.ts - (e.durationMs ?? 0);
  t.permissionRequestId = void 0;
  const childId = e.details?.agentId;
  if (AGENT_TOOL_NAMES.has(t.name) && typeof childId === "string" && !t.childAgentId) t.childAgentId = childId;
  a.toolUses = Math.max(a.toolUses, a.toolIds.length);
  if (a.currentToolId === e.toolUseId) {
    a.currentToolId = null;
    for (let i = a.toolIds.length - 1; i >= 0 && i >= a.toolIds.length - 50; i--) {
      if (d.peekTool(a.toolIds[i])?.status === "running") {
        a.currentToolId = a.toolIds[i];
        break;
      }
    }
  }
}
function safeJson(v) {
  try {
    return JSON.stringify(v) ?? "";
  } catch {
    return "";
  }
}

// src/shared/view/message-reducer.ts
function assistantMessage(d, a, message, ts) {
  const from = a.streamFrom ?? d.peekItems(a.id).length;
  const items = d.items(a.id);
  const streamed = items.splice(from);
  const reuse = (kind) => {
    const i = streamed.findIndex((s) => s.kind === kind);
    return i === -1 ? null : streamed.splice(i, 1)[0];
  };
  for (const b of contentBlocks(message)) {
    if (b.type === "text" || b.type === "thinking") {
      const kind = b.type;
      const text2 = b.type === "text" ? b.text : b.thinking;
      if (!text2.trim()) continue;
      const old = reuse(kind);
      if (old) items.push({ ...old, kind, text: text2, streaming: false });
      else pushItem(d, a, { kind, text: text2, ts, streaming: false });
    } else if (b.type === "tool_use") {
      const old = streamed.find((s) => s.kind === "tool" && s.toolUseId === b.id);
      if (old) {
        streamed.splice(streamed.indexOf(old), 1);
        items.push(old);
      }
      if (!d.hasTool(b.id)) startTool(d, a, b.id, b.name, ts, "pending");
      else if (!old && !hasToolItem(items, b.id)) items.push({ kind: "tool", key: `${a.id}:t:${b.id}`, toolUseId: b.id, ts });
      const t = d.tool(b.id);
      if (t.status === "streaming") t.status = "pending";
      if (t.input === void 0) t.input = b.input;
      if (!t.inputJson) t.inputJson = safeJson(b.input);
    }
  }
  for (const s of streamed) if (s.kind === "tool") items.push(s);
  endStream(d, a);
}
function hasToolItem(items, toolUseId) {
  for (let i = items.length - 1; i >= Math.max(0, items.length - 200); i--) {
    const it = items[i];
    if (it.kind === "tool" && it.toolUseId === toolUseId) return true;
  }
  return false;
}
function isReminder(text2) {
  return /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/.test(text2);
}
function userMessage(d, a, message, ts) {
  settleStreaming(d, a);
  for (const b of contentBlocks(message)) {
    if (b.type === "text") {
      if (!b.text.trim() || isReminder(b.text)) continue;
      userText(d, a, b.text, ts);
    } else if (b.type === "tool_result" && d.hasTool(b.tool_use_id)) {
      const t = d.peekTool(b.tool_use_id);
      if (t.output === void 0) {
        const tool = d.tool(b.tool_use_id);
        tool.output = typeof b.content === "string" ? b.content : b.content.map((c) => c.text).join("\n");
        tool.status = b.is_error ? "error" : "done";
        tool.endedAt = ts;
      }
    }
  }
}

// src/shared/view/reducer.ts
function applyEvents(state, events) {
  if (!events.length) return state;
  const drafts = /* @__PURE__ */ new Map();
  for (const e of events) {
    let d = drafts.get(e.sessionId);
    if (!d) {
      d = new SessionDraft(state.sessions[e.sessionId] ?? emptySession(e.sessionId));
      drafts.set(e.sessionId, d);
    }
    applyOne(d, e);
  }
  const sessions = { ...state.sessions };
  for (const [id, d] of drafts) sessions[id] = d.finish();
  return { ...state, sessions };
}
function applyOne(d, e) {
  d.set("eventCount", d.state.eventCount + 1);
  d.set("lastEventTs", Math.max(d.state.lastEventTs, e.ts));
  if (d.state.startedAt === null || e.ts < d.state.startedAt) d.set("startedAt", e.ts);
  if (e.type === "agent_start") return agentStart(d, e);
  if (d.hasAgent(e.agentId)) {
    if (e.type === "text_delta" || e.type === "thinking_delta") return appendDelta(d, e.agentId, e.type === "text_delta" ? "text" : "thinking", e.text, e.ts);
    if (e.type === "tool_input_delta") return toolInputDelta(d, e);
    if (e.type === "tool_update") return toolUpdate(d, e);
  }
  const a = ensureAgent(d, e);
  switch (e.type) {
    case "agent_end":
      return agentEnd(d, a, e);
    case "status":
      setStatus(a, e.status, e.ts);
      a.statusDetail = e.detail;
      return;
    case "turn_start":
      a.turn = e.turn;
      return;
    case "turn_end":
      settleStreaming(d, a);
      return;
    case "text_delta":
    case "thinking_delta":
      return appendDelta(d, a.id, e.type === "text_delta" ? "text" : "thinking", e.text, e.ts);
    case "message":
      return e.message.role === "assistant" ? assistantMessage(d, a, e.message, e.ts) : userMessage(d, a, e.message, e.ts);
    case "tool_start":
      beginStream(d, a);
      return startTool(d, a, e.toolUseId, e.name, e.ts, "streaming");
    case "tool_input_delta":
      return toolInputDelta(d, e);
    case "tool_run":
      return toolRun(d, a, e);
    case "tool_update":
      return toolUpdate(d, e);
    case "tool_end":
      return toolEnd(d, a, e);
    case "usage":
      resolveRetry(d, a);
      a.usage = addUsage(a.usage, e.usage);
      a.resolvedModel = e.model;
      d.addUsage(e.usage);
      return;
    case "error":
      return agentError(d, a, e);
    case "permission_request":
      return permissionRequest(d, e);
    case "permission_response":
      return permissionResponse(d, e);
    case "message_received":
      messageReceived(d, a, e);
      teamMessage(d, e);
      return;
    case "phase":
      return applyPhase(d, e);
    case "team":
      return applyTeam(d, e);
  }
}

// src/main/runtime/store/view-checkpoint.ts
import { readdir as readdir2, stat } from "node:fs/promises";
import { join as join3 } from "node:path";
var VIEW_CHECKPOINT_FORMAT = 4;
var viewCheckpointPath = (dataDir, sessionId) => join3(sessionDir(dataDir, sessionId), "view.json");
async function transcriptSizes(dataDir, sessionId) {
  const dir = agentsDir(dataDir, sessionId);
  let names;
  try {
    names = (await readdir2(dir)).filter((n) => n.endsWith(".jsonl"));
  } catch (err) {
    if (errorCode(err) === "ENOENT") return {};
    throw err;
  }
  const sizes = await Promise.all(names.map(async (n) => [n, (await stat(join3(dir, n))).size]));
  return Object.fromEntries(sizes);
}
var sameSizes = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, size2]) => b[name] === size2);
async function readViewCheckpoint(dataDir, sessionId) {
  const [raw, sizes] = await Promise.all([readJsonFile(viewCheckpointPath(dataDir, sessionId)).catch(() => null), transcriptSizes(dataDir, sessionId)]);
  const cp = raw;
  if (!cp || cp.format !== VIEW_CHECKPOINT_FORMAT || typeof cp.sizes !== "object" || !cp.index || !cp.state) return null;
  return sameSizes(cp.sizes, sizes) ? cp : null;
}
async function writeViewCheckpoint(dataDir, sessionId, cp) {
  await writeFileAtomic(viewCheckpointPath(dataDir, sessionId), JSON.stringify({ format: VIEW_CHECKPOINT_FORMAT, ...cp }), { fsync: false });
}

// src/main/runtime/store/session-fold.ts
var eventPlace = (e) => e.seq ?? e.ts * 1e3;
function mergedEvents(o) {
  const all2 = [];
  for (const t of Object.values(o.agents)) for (const e of t.events) all2.push(e);
  return all2.sort((a, b) => eventPlace(a) - eventPlace(b));
}
function lastSeqs(o) {
  const seen = {};
  for (const [id, t] of Object.entries(o.agents)) {
    for (let i = t.events.length - 1; i >= 0; i--) {
      const seq = t.events[i].seq;
      if (seq !== void 0) {
        seen[id] = seq;
        break;
      }
    }
  }
  return seen;
}
function foldSession(o) {
  const id = o.index.sessionId;
  return applyEvents(emptyEventsState(), mergedEvents(o)).sessions[id] ?? emptySession(id);
}
async function replaySession(dataDir, sessionId, opts = {}) {
  const checkpoint = opts.checkpoint ?? true;
  if (checkpoint && !opts.refresh) {
    const cp = await readViewCheckpoint(dataDir, sessionId);
    const index = cp ? await withCurrentStatus(dataDir, cp.index) : null;
    if (cp && index && !(writerGone(index.writer) && Object.values(cp.index.agents).some((a) => !isTerminalStatus(a.status)))) return { index, state: cp.state };
  }
  const sizes = checkpoint ? await transcriptSizes(dataDir, sessionId) : {};
  const opened = await openSession(dataDir, sessionId, { skipSettledDeltas: true });
  const state = foldSession(opened);
  if (checkpoint) {
    const write = () => writeViewCheckpoint(dataDir, sessionId, { sizes, index: opened.index, state }).catch(() => void 0);
    if (opts.refresh) await write();
    else setImmediate(() => void write());
  }
  return { index: opened.index, state, seen: lastSeqs(opened) };
}
async function withCurrentStatus(dataDir, index) {
  const stored = await readSessionIndex(dataDir, index.sessionId).catch(() => null);
  const now = { ...index, writer: stored ? stored.writer : index.writer };
  finalizeIndex(now);
  now.status = effectiveStatus(now);
  return now;
}

// src/main/runtime/store/view-fold.ts
var DELTA_TYPES2 = /* @__PURE__ */ new Set(["text_delta", "thinking_delta", "tool_input_delta"]);
var byPlace = (a, b) => eventPlace(a.e) - eventPlace(b.e) || a.agent - b.agent || a.n - b.n;
var ViewFold = class {
  constructor(sessionId) {
    this.sessionId = sessionId;
    this.state = emptySession(sessionId);
  }
  sessionId;
  state;
  agents = /* @__PURE__ */ new Map();
  ready = [];
  lines = 0;
  /** Lines known but not folded yet. */
  get pending() {
    return this.ready.length;
  }
  /** Some agent's last run has no agent_end: a replay would end it as `interrupted` (interruption.ts). */
  get runsOpen() {
    for (const a of this.agents.values()) if (a.run === "open") return true;
    return false;
  }
  /**
   * The next line of an agent's transcript. `merged`: the writer folded it into that agent's previous,
   * still unwritten line (consecutive deltas of one stream), so it replaces that line.
   */
  line(e, merged = false) {
    const a = this.agentLines(e.agentId);
    if (e.type === "agent_start") a.run = "open";
    else if (e.type === "agent_end") a.run = "ended";
    else if (a.run === "none") a.run = "open";
    if (DELTA_TYPES2.has(e.type)) {
      const last = a.held[a.held.length - 1];
      if (merged && last) last.e = e;
      else a.held.push({ e, agent: a.ordinal, n: this.lines++ });
      return;
    }
    const end = streamEnd(e);
    if (end) {
      if (end === "kept") for (const l of a.held) this.ready.push(l);
      a.held = [];
    }
    this.ready.push({ e, agent: a.ordinal, n: this.lines++ });
  }
  /** Folds the lines whose place is settled: those before the first delta still undecided. */
  fold() {
    if (!this.ready.length) return;
    let barrier = Infinity;
    for (const a of this.agents.values()) if (a.held.length) barrier = Math.min(barrier, eventPlace(a.held[0].e));
    this.ready.sort(byPlace);
    let n = 0;
    while (n < this.ready.length && eventPlace(this.ready[n].e) < barrier) n++;
    if (!n) return;
    const batch = this.ready.slice(0, n).map((l) => l.e);
    this.ready = this.ready.slice(n);
    this.state = applyEvents({ sessions: { [this.sessionId]: this.state } }, batch).sessions[this.sessionId] ?? this.state;
  }
  /**
   * The state a replay of the transcripts as they now end folds: deltas still undecided are kept, as a
   * reader keeps those at the end of a file. For a recorder that is done: a later line would be folded
   * as if these deltas had been kept.
   */
  finish() {
    for (const a of this.agents.values()) {
      for (const l of a.held) this.ready.push(l);
      a.held = [];
    }
    this.fold();
    return this.state;
  }
  agentLines(agentId) {
    let a = this.agents.get(agentId);
    if (!a) {
      a = { ordinal: this.agents.size, held: [], run: "none" };
      this.agents.set(agentId, a);
    }
    return a;
  }
};

// src/main/runtime/store/session-recorder.ts
var FOLD_BACKLOG = 2048;
var INDEX_EVENTS = /* @__PURE__ */ new Set(["agent_start", "agent_end", "status", "usage", "turn_start", "tool_run"]);
function createSessionRecorder(opts) {
  const { dataDir, sessionId } = opts;
  const dir = sessionDir(dataDir, sessionId);
  const onError = opts.onError ?? ((err) => console.error(`fanout: ${err.message}`));
  const interval = opts.indexIntervalMs ?? 250;
  const writers = /* @__PURE__ */ new Map();
  let builder = new SessionIndexBuilder({ ...emptyIndex(sessionId, opts.cwd, Date.now()), title: opts.title ?? "", writer: currentWriter() });
  let loaded = false;
  const early = [];
  let closed = false;
  let timer = null;
  let indexWrite = null;
  const fold = new ViewFold(sessionId);
  let foldable = true;
  const loading = (async () => {
    await ensureDataDir(dataDir);
    try {
      const existing = await openSession(dataDir, sessionId);
      const idx = existing.index;
      idx.writer = currentWriter();
      if (!idx.cwd) idx.cwd = opts.cwd;
      if (!idx.title && opts.title) idx.title = opts.title;
      builder = new SessionIndexBuilder(idx);
      for (const t of Object.values(existing.agents)) for (const e of t.events) fold.line(e);
      for (const end of existing.interrupted) {
        const w = writerFor(end);
        w.append(end);
        w.release().catch(() => {
        });
      }
    } catch (err) {
      if (!(err instanceof SessionNotFoundError)) {
        foldable = false;
        onError(err);
      }
    }
  })();
  const ready = loading.then(async () => {
    loaded = true;
    for (const e of early.splice(0)) write(e);
    await writeIndexNow();
  }).catch((err) => {
    loaded = true;
    foldable = false;
    for (const e of early.splice(0)) write(e);
    onError(new Error(`Could not prepare session folder ${dir}: ${err.message}`));
  });
  function writerFor(e) {
    let w = writers.get(e.agentId);
    if (!w) {
      w = new JsonlWriter(transcriptPath(dataDir, sessionId, e.agentId), {
        flushDelayMs: opts.flushDelayMs,
        header: () => makeHeader(e),
        merge: mergeDeltas,
        beforeOpen: () => loading,
        onError
      });
      writers.set(e.agentId, w);
    }
    return w;
  }
  function scheduleIndex() {
    if (timer || !loaded) return;
    timer = setTimeout(() => {
      timer = null;
      fold.fold();
      void writeIndexNow().catch(onError);
    }, interval);
  }
  async function writeIndexNow() {
    if (timer) clearTimeout(timer);
    timer = null;
    while (indexWrite) await indexWrite;
    const snap = builder.snapshot();
    indexWrite = writeSessionIndex(dataDir, snap).catch((err) => {
      throw new Error(`Could not write ${join4(dir, "session.json")}: ${err.message}`);
    }).finally(() => {
      indexWrite = null;
    });
    await indexWrite;
  }
  function record2(e) {
    if (closed) {
      onError(new Error(`Session ${sessionId} recorder is closed; dropped a ${e.type} event of agent ${e.agentId}`));
      return;
    }
    if (loaded) write(e);
    else early.push(e);
  }
  function write(e) {
    let w;
    try {
      w = writerFor(e);
    } catch (err) {
      onError(err);
      return;
    }
    const line2 = w.append(e);
    fold.line(line2, line2 !== e);
    if (fold.pending >= FOLD_BACKLOG) fold.fold();
    if (e.type === "agent_end") w.release().catch(() => {
    });
    builder.apply(e);
    if (INDEX_EVENTS.has(e.type)) scheduleIndex();
  }
  async function flushAll() {
    await ready;
    const results = await Promise.allSettled([...writers.values()].map((w) => w.flush()));
    await writeIndexNow();
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  }
  async function writeCheckpoint() {
    if (!foldable || fold.runsOpen) {
      await replaySession(dataDir, sessionId, { refresh: true });
      return;
    }
    const state = fold.finish();
    const index = builder.snapshot();
    index.status = effectiveStatus(index);
    await writeViewCheckpoint(dataDir, sessionId, { sizes: await transcriptSizes(dataDir, sessionId), index, state });
  }
  return {
    sessionId,
    dir,
    ready,
    record: record2,
    index: () => builder.snapshot(),
    transcriptFile: (agentId) => transcriptPath(dataDir, sessionId, agentId),
    flush: flushAll,
    async close() {
      if (closed) return;
      closed = true;
      await ready;
      const results = await Promise.allSettled([...writers.values()].map((w) => w.close()));
      builder.index.writer = null;
      await writeIndexNow();
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
      await writeCheckpoint().catch(() => void 0);
    }
  };
}

// src/main/runtime/store/agent-state.ts
import { readdir as readdir3 } from "node:fs/promises";
import { z as z2 } from "zod";

// src/shared/agent-definition.ts
var AGENT_SOURCES = ["built-in", "plugin", "user", "project", "cli", "managed"];
var PERMISSION_MODES = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", "bubble"];
var MEMORY_SCOPES = ["user", "project", "local"];

// src/main/runtime/store/agent-state.ts
var AGENT_STATE_VERSION = 1;
var agentStateSchema = z2.object({
  version: z2.literal(AGENT_STATE_VERSION).default(AGENT_STATE_VERSION),
  agentId: z2.string().min(1),
  sessionId: z2.string().min(1),
  agentType: z2.string(),
  /** Where the definition came from, so a resume finds the same one (or says it changed). */
  definition: z2.object({ name: z2.string(), source: z2.enum(AGENT_SOURCES), file: z2.string().optional() }),
  model: z2.string(),
  turnCount: z2.number().int().nonnegative(),
  status: z2.enum(["queued", "running", "waiting_permission", "completed", "failed", "stopped", "max_turns", "interrupted"]),
  /** The user stopped it: never resumed automatically after a restart. */
  stoppedByUser: z2.boolean(),
  worktree: z2.object({ path: z2.string(), branch: z2.string() }).optional(),
  cwd: z2.string(),
  parentAgentId: z2.string().nullable(),
  parentToolUseId: z2.string().nullable().optional(),
  name: z2.string().optional(),
  background: z2.boolean().optional(),
  updatedAt: z2.number()
});
async function writeAgentState(dataDir, state) {
  const file = agentStatePath(dataDir, state.sessionId, state.agentId);
  const r = agentStateSchema.safeParse({ ...state, version: AGENT_STATE_VERSION, updatedAt: state.updatedAt ?? Date.now() });
  if (!r.success) throw new Error(`Refusing to write an invalid agent state to ${file}: ${describe(r.error)}`);
  await writeJsonAtomic(file, r.data);
  return r.data;
}
async function readAgentState(dataDir, sessionId, agentId) {
  const file = agentStatePath(dataDir, sessionId, agentId);
  const raw = await readJsonFile(file);
  if (raw === null) return null;
  const r = agentStateSchema.safeParse(raw);
  if (!r.success) throw new Error(`${file}: ${describe(r.error)}`);
  return r.data;
}
async function listAgentStates(dataDir, sessionId) {
  const dir = agentsDir(dataDir, sessionId);
  let names;
  try {
    names = (await readdir3(dir)).filter((n) => n.endsWith(".state.json"));
  } catch (err) {
    if (errorCode(err) === "ENOENT") return { states: [], problems: [] };
    throw err;
  }
  const problems = [];
  const states = await mapLimit(
    names,
    16,
    (n) => readAgentState(dataDir, sessionId, n.slice(0, -".state.json".length)).catch((err) => {
      problems.push(err.message);
      return null;
    })
  );
  return { states: states.filter((s) => s !== null), problems };
}
function describe(error) {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

// src/main/runtime/store/rebuild-conversation.ts
var INTERRUPTED_TOOL_RESULT = "This tool call did not finish: the agent was interrupted (stopped or the app exited) before it returned a result. Run it again if it is still needed.";
function rebuildConversation(events, opts = {}) {
  const messages = [];
  for (const e of events) if (e.type === "message") messages.push(e.message);
  const { messages: repaired, repairs } = repairConversation(messages);
  if (opts.onRepair) for (const r of repairs) opts.onRepair(r);
  return repaired;
}
var blocksOf = (m) => typeof m.content === "string" ? m.content ? [{ type: "text", text: m.content }] : [] : m.content;
var syntheticResult = (id) => ({ type: "tool_result", tool_use_id: id, content: INTERRUPTED_TOOL_RESULT, is_error: true });
function repairConversation(input) {
  const out = [];
  const repairs = [];
  let pending = [];
  const answerPending = (at) => {
    if (!pending.length) return;
    repairs.push(`message ${at}: added interrupted results for unanswered tool calls ${pending.join(", ")}`);
    out.push({ role: "user", content: pending.map(syntheticResult) });
    pending = [];
  };
  input.forEach((msg, i) => {
    const blocks = blocksOf(msg);
    if (msg.role === "assistant") {
      answerPending(i);
      if (!blocks.length) {
        repairs.push(`message ${i}: dropped an empty assistant message`);
        return;
      }
      out.push(msg);
      pending = blocks.filter((b) => b.type === "tool_use").map((b) => b.id);
      return;
    }
    const expected = new Set(pending);
    const results = /* @__PURE__ */ new Map();
    const rest = [];
    for (const b of blocks) {
      if (b.type !== "tool_result") {
        rest.push(b);
        continue;
      }
      if (!expected.has(b.tool_use_id) || results.has(b.tool_use_id)) {
        repairs.push(`message ${i}: dropped a tool_result for ${b.tool_use_id}, which no preceding tool call asked for`);
        continue;
      }
      results.set(b.tool_use_id, b);
    }
    const missing2 = pending.filter((id) => !results.has(id));
    if (missing2.length) repairs.push(`message ${i}: added interrupted results for unanswered tool calls ${missing2.join(", ")}`);
    const content = [...pending.map((id) => results.get(id) ?? syntheticResult(id)), ...rest];
    pending = [];
    if (!content.length) {
      repairs.push(`message ${i}: dropped an empty user message`);
      return;
    }
    const changed = content.length !== blocks.length || content.some((b, k) => b !== blocks[k]);
    out.push(changed ? { role: "user", content } : msg);
  });
  answerPending(input.length);
  return { messages: out, repairs };
}

// src/main/runtime/store/settings.ts
import { z as z3 } from "zod";

// src/main/runtime/orchestration/limits.ts
var DEFAULT_LIMITS = { maxConcurrent: 20, maxDepth: 3, maxAgentsPerSession: 200, budgetUsd: 0 };
var Semaphore = class {
  constructor(capacity) {
    this.capacity = capacity;
  }
  capacity;
  active = 0;
  waiters = [];
  get running() {
    return this.active;
  }
  get queued() {
    return this.waiters.length;
  }
  /** Resolves with a release function once a slot is free. */
  async acquire(signal) {
    if (signal?.aborted) throw new Error("stopped before it started");
    if (this.active < this.capacity) {
      this.active++;
      return this.releaser();
    }
    await new Promise((resolve24, reject) => {
      const waiter = { resolve: resolve24, reject };
      this.waiters.push(waiter);
      signal?.addEventListener(
        "abort",
        () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) {
            this.waiters.splice(i, 1);
            reject(new Error("stopped while queued"));
          }
        },
        { once: true }
      );
    });
    return this.releaser();
  }
  releaser() {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next.resolve();
      else this.active--;
    };
  }
};
var SpawnGate = class {
  constructor(limits, spentUsd) {
    this.limits = limits;
    this.spentUsd = spentUsd;
    this.slots = new Semaphore(Math.max(1, limits.maxConcurrent));
  }
  limits;
  spentUsd;
  spawned = 0;
  slots;
  get totalSpawned() {
    return this.spawned;
  }
  /** Checks depth, count and budget for a new subagent at `depth`; returns a refusal sentence or null. */
  refusal(depth) {
    const { maxDepth, maxAgentsPerSession, budgetUsd } = this.limits;
    if (depth > maxDepth)
      return `Subagent not started: nesting depth ${depth} would exceed the limit of ${maxDepth}. Do this work yourself instead of delegating it further.`;
    if (this.spawned >= maxAgentsPerSession)
      return `Subagent not started: this session already created ${this.spawned} subagents, the limit is ${maxAgentsPerSession}. Finish with the results you have.`;
    if (this.overBudget())
      return `Subagent not started: the session has spent $${this.spentUsd().toFixed(4)} of its $${budgetUsd.toFixed(2)} budget. Finish with the results you have.`;
    return null;
  }
  overBudget() {
    const { budgetUsd } = this.limits;
    return budgetUsd > 0 && Number.isFinite(budgetUsd) && this.spentUsd() >= budgetUsd;
  }
  /** Counts a spawn that passed `refusal`. */
  admit() {
    this.spawned++;
  }
};

// src/main/runtime/store/settings.ts
var THEMES = ["system", "light", "dark"];
var modelId = z3.string().trim().min(1, "must be a model id");
var baseURL = z3.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
var limitFields = {
  maxConcurrent: z3.int().min(1).max(1e3),
  maxDepth: z3.int().min(0).max(50),
  maxAgentsPerSession: z3.int().min(1).max(1e5),
  /** USD; 0 means no ceiling. */
  budgetUsd: z3.number().min(0),
  /** Turns of the main agent per prompt (subagents use their definition's maxTurns). */
  maxTurns: z3.int().min(1).max(1e4)
};
var DEFAULT_MAIN_MAX_TURNS = 200;
var DEFAULT_MODEL = "sonnet";
var aliasesSchema = z3.strictObject({
  haiku: modelId.default(DEFAULT_MODEL_ALIASES.haiku),
  sonnet: modelId.default(DEFAULT_MODEL_ALIASES.sonnet),
  opus: modelId.default(DEFAULT_MODEL_ALIASES.opus)
});
var limitsSchema = z3.strictObject({
  maxConcurrent: limitFields.maxConcurrent.default(DEFAULT_LIMITS.maxConcurrent),
  maxDepth: limitFields.maxDepth.default(DEFAULT_LIMITS.maxDepth),
  maxAgentsPerSession: limitFields.maxAgentsPerSession.default(DEFAULT_LIMITS.maxAgentsPerSession),
  budgetUsd: limitFields.budgetUsd.default(DEFAULT_LIMITS.budgetUsd),
  maxTurns: limitFields.maxTurns.default(DEFAULT_MAIN_MAX_TURNS)
});
var permissionMode = z3.enum(PERMISSION_MODES);
var theme = z3.enum(THEMES);
var settingsSchema = z3.strictObject({
  /** Anthropic-compatible endpoint; absent = the SDK default (or ANTHROPIC_BASE_URL). */
  baseURL: baseURL.optional(),
  /** The main agent's model: an alias or a full id. */
  defaultModel: modelId.default(DEFAULT_MODEL),
  modelAliases: aliasesSchema.prefault({}),
  limits: limitsSchema.prefault({}),
  defaultPermissionMode: permissionMode.default("default"),
  theme: theme.default("system"),
  /** Coordinator mode for new sessions: the main agent directs agents in phases, with orchestration tools only. */
  coordinator: z3.boolean().default(false),
  /** Agent teams for new sessions: the main agent can create a team with a shared task list. */
  agentTeams: z3.boolean().default(false),
  /** The person chose "Skip for now" on the first-run screen: it is not shown again. */
  firstRunSkipped: z3.boolean().default(false),
  /** MCP servers for every session, as in `.mcp.json`'s `mcpServers` (each entry is checked when a session loads it). */
  mcpServers: z3.record(z3.string(), z3.unknown()).optional(),
  /**
   * Environment variables that look like credentials but that Bash commands, hooks and MCP servers should get
   * anyway (names, or `PREFIX_*`). Everything else that carries a credential is kept from them.
   */
  passEnvironment: z3.array(z3.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, "must be a variable name, or a prefix ending in *")).optional()
});
var patchSchema = z3.strictObject({
  baseURL: baseURL.nullable().optional(),
  defaultModel: modelId.optional(),
  /** null takes an alias back to its default. */
  modelAliases: z3.strictObject({ haiku: modelId.nullable(), sonnet: modelId.nullable(), opus: modelId.nullable() }).partial().optional(),
  limits: z3.strictObject(limitFields).partial().optional(),
  defaultPermissionMode: permissionMode.optional(),
  theme: theme.optional(),
  coordinator: z3.boolean().optional(),
  agentTeams: z3.boolean().optional(),
  firstRunSkipped: z3.boolean().optional()
});
var DEFAULT_SETTINGS = Object.freeze(settingsSchema.parse({}));

// src/main/runtime/store/mailbox.ts
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, link, mkdir as mkdir4, open as open2, readFile as readFile2, unlink as unlink2, writeFile as writeFile2 } from "node:fs/promises";
import { join as join5 } from "node:path";
function paths(dataDir, sessionId, agentId) {
  assertSafeId(agentId, "agent id");
  const dir = mailboxDir(dataDir, sessionId);
  return { file: join5(dir, `${agentId}.jsonl`), claims: join5(dir, `${agentId}.claims`), hint: join5(dir, `${agentId}.cursor`) };
}
async function postMessage(dataDir, sessionId, to, message) {
  const p = paths(dataDir, sessionId, to);
  const msg = { id: randomUUID(), to, from: message.from, text: message.text, ts: Date.now() };
  if (message.summary !== void 0) msg.summary = message.summary;
  await mkdir4(join5(p.file, ".."), { recursive: true });
  await appendFile(p.file, "\n" + JSON.stringify(msg) + "\n", { encoding: "utf8", flush: true });
  return msg;
}
async function claimMessages(dataDir, sessionId, agentId, opts = {}) {
  const p = paths(dataDir, sessionId, agentId);
  if (!existsSync(p.file)) return [];
  const hint = await readHint(p);
  let offset = hint;
  for (; ; ) {
    offset = await followChain(p, offset);
    const { end, text: text2 } = await readCompleteLines(p.file, offset);
    if (end === offset) {
      if (offset !== hint) await writeHint(p, offset);
      return [];
    }
    if (!await tryClaim(p, offset, end)) continue;
    await writeHint(p, end);
    return parseMessages(text2, p.file, opts);
  }
}
var claimName = (offset) => String(offset).padStart(16, "0") + ".json";
async function followChain(p, from) {
  let offset = from;
  for (; ; ) {
    let raw;
    try {
      raw = await readFile2(join5(p.claims, claimName(offset)), "utf8");
    } catch (err) {
      if (errorCode(err) === "ENOENT") return offset;
      throw err;
    }
    const end = JSON.parse(raw).end;
    if (!(end > offset)) throw new Error(`Mailbox claim ${join5(p.claims, claimName(offset))} is malformed (end ${end})`);
    offset = end;
  }
}
async function tryClaim(p, start, end) {
  await mkdir4(p.claims, { recursive: true });
  const temp = join5(p.claims, `.${randomUUID()}.tmp`);
  await writeFile2(temp, JSON.stringify({ start, end, pid: process.pid, claimedAt: Date.now() }));
  try {
    await link(temp, join5(p.claims, claimName(start)));
    return true;
  } catch (err) {
    if (errorCode(err) === "EEXIST") return false;
    throw err;
  } finally {
    await unlink2(temp).catch(() => {
    });
  }
}
async function readCompleteLines(file, offset) {
  let handle;
  try {
    handle = await open2(file, "r");
  } catch (err) {
    if (errorCode(err) === "ENOENT") return { end: offset, text: "" };
    throw err;
  }
  try {
    const { size: size2 } = await handle.stat();
    if (size2 <= offset) return { end: offset, text: "" };
    const buf = Buffer.alloc(size2 - offset);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, offset + got);
      if (!bytesRead) break;
      got += bytesRead;
    }
    const last = buf.lastIndexOf(10, got - 1);
    if (last < 0) return { end: offset, text: "" };
    return { end: offset + last + 1, text: buf.toString("utf8", 0, last + 1) };
  } finally {
    await handle.close();
  }
}
function parseMessages(text2, file, opts) {
  const out = [];
  for (const line2 of text2.split("\n")) {
    if (!line2.trim()) continue;
    try {
      const m = JSON.parse(line2);
      if (typeof m?.id !== "string" || typeof m.text !== "string") throw new Error("not a message");
      out.push(m);
    } catch (err) {
      opts.onProblem?.(`${file}: skipped a line that is not a message (${err.message}): ${line2.slice(0, 80)}`);
    }
  }
  return out;
}
async function readHint(p) {
  try {
    const n = Number(JSON.parse(await readFile2(p.hint, "utf8")).offset);
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  } catch {
    return 0;
  }
}
async function writeHint(p, offset) {
  await writeJsonAtomic(p.hint, { offset }, { fsync: false }).catch(() => {
  });
}

// src/main/runtime/store/resume.ts
async function loadAgentForResume(dataDir, sessionId, agentId) {
  const file = transcriptPath(dataDir, sessionId, agentId);
  const [transcript, state] = await Promise.all([readTranscript(file), readAgentState(dataDir, sessionId, agentId)]);
  const notes = transcript.issues.map((i) => i.message);
  const messages = rebuildConversation(transcript.events, { onRepair: (n) => notes.push(`${file}: ${n}`) });
  if (!state) notes.push(`agent ${agentId} has no saved state; its definition and model must be chosen again`);
  return { state, messages, notes, transcriptFile: file };
}
async function agentsToResume(dataDir, sessionId) {
  const { states, problems } = await listAgentStates(dataDir, sessionId);
  return { states: states.filter((s) => !s.stoppedByUser && (s.status === "interrupted" || !isTerminalStatus(s.status))), problems };
}

// src/main/runtime/permissions/decide.ts
import { join as join13, relative as relative4 } from "node:path";

// src/main/runtime/security/path-policy.ts
import { statSync } from "node:fs";
import { homedir as homedir4 } from "node:os";
import { join as join7, relative as relative3, resolve as resolve5 } from "node:path";

// src/main/runtime/permissions/path-rules.ts
import { homedir as homedir3 } from "node:os";
import { relative as relative2, resolve as resolve4 } from "node:path";

// src/main/runtime/security/real-target.ts
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname as dirname3, join as join6, resolve as resolve2 } from "node:path";
var MAX_LINKS = 40;
function realTarget(p) {
  return follow(resolve2(p), 0);
}
function follow(abs, links) {
  if (links > MAX_LINKS) return null;
  try {
    return realpathSync.native(abs);
  } catch {
  }
  const parent = dirname3(abs);
  if (parent === abs) return abs;
  const realParent = follow(parent, links);
  if (realParent === null) return null;
  const here = join6(realParent, basename(abs));
  let isLink;
  try {
    isLink = lstatSync(here).isSymbolicLink();
  } catch {
    return here;
  }
  if (!isLink) return here;
  let target2;
  try {
    target2 = readlinkSync(here);
  } catch {
    return null;
  }
  return follow(resolve2(realParent, target2), links + 1);
}

// src/main/runtime/tools/glob-pattern.ts
var GlobSyntaxError = class extends Error {
};
var REGEX_SPECIAL = /[.+^${}()|[\]\\*?]/;
function escapeChar(c) {
  return REGEX_SPECIAL.test(c) || c === "/" ? `\\${c}` : c;
}
function translate(p) {
  let re = "";
  let braces = 0;
  for (let i = 0; i < p.length; ) {
    const c = p[i];
    if (c === "*") {
      if (p[i + 1] === "*") {
        const atSegmentStart = i === 0 || p[i - 1] === "/";
        const j = i + 2;
        if (atSegmentStart && j === p.length) {
          re += ".*";
          i = j;
          continue;
        }
        if (atSegmentStart && p[j] === "/") {
          re += "(?:.*/)?";
          i = j + 1;
          continue;
        }
        re += "[^/]*";
        i = j;
        continue;
      }
      re += "[^/]*";
      i++;
    } else if (c === "?") {
      re += "[^/]";
      i++;
    } else if (c === "[") {
      let j = i + 1;
      if (p[j] === "!" || p[j] === "^") j++;
      if (p[j] === "]") j++;
      while (j < p.length && p[j] !== "]") j++;
      if (j >= p.length) {
        re += "\\[";
        i++;
        continue;
      }
      let body = p.slice(i + 1, j);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      body = body.replace(/\\/g, "\\\\").replace(/^\]/, "\\]");
      re += negate ? `[^/${body}]` : `[${body}]`;
      i = j + 1;
    } else if (c === "{") {
      braces++;
      re += "(?:";
      i++;
    } else if (c === "," && braces > 0) {
      re += "|";
      i++;
    } else if (c === "}" && braces > 0) {
      braces--;
      re += ")";
      i++;
    } else if (c === "\\" && i + 1 < p.length) {
      re += escapeChar(p[i + 1]);
      i += 2;
    } else {
      re += escapeChar(c);
      i++;
    }
  }
  if (braces > 0) throw new GlobSyntaxError(`unclosed '{' in glob pattern '${p}'`);
  return re;
}
function compileGlob(pattern, opts = {}) {
  let p = pattern;
  const negated = p.startsWith("!");
  if (negated) p = p.slice(1);
  if (p.startsWith("./")) p = p.slice(2);
  const dirOnly = p.length > 1 && p.endsWith("/");
  if (dirOnly) p = p.slice(0, -1);
  const anchored = p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  if (p === "") throw new GlobSyntaxError(`empty glob pattern '${pattern}'`);
  const body = translate(p);
  const prefix = anchored ? "^" : "^(?:.*/)?";
  return { source: pattern, regex: new RegExp(`${prefix}${body}$`, opts.caseInsensitive ? "i" : ""), negated, dirOnly, anchored };
}
function matchGlob(glob, relPath, isDir = false) {
  if (glob.dirOnly && !isDir) return false;
  return glob.regex.test(relPath);
}
function hasGlobChars(segment) {
  return /[*?[{\\]/.test(segment);
}
function splitGlobBase(pattern) {
  let p = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  const absolute = p.startsWith("/");
  if (absolute) p = p.slice(1);
  const segments = p.split("/");
  if (segments.length < 2 && !absolute) return { base: "", rest: pattern };
  let i = 0;
  while (i < segments.length - 1 && !hasGlobChars(segments[i]) && segments[i] !== "") i++;
  const base = segments.slice(0, i).join("/");
  const rest = segments.slice(i).join("/");
  return { base: absolute ? `/${base}` : base, rest: `/${rest}` };
}

// src/main/runtime/tools/paths.ts
import { homedir as homedir2 } from "node:os";
import { isAbsolute as isAbsolute2, relative, resolve as resolve3, sep } from "node:path";
function resolveToolPath(cwd2, p) {
  const trimmed = p.trim();
  if (trimmed === "~") return homedir2();
  if (trimmed.startsWith("~/")) return resolve3(homedir2(), trimmed.slice(2));
  return isAbsolute2(trimmed) ? resolve3(trimmed) : resolve3(cwd2, trimmed);
}
function isInside(parent, child2) {
  const rel = relative(parent, child2);
  return rel === "" || !rel.startsWith("..") && !isAbsolute2(rel);
}
function displayPath(cwd2, abs) {
  if (!isInside(cwd2, abs)) return abs;
  const rel = relative(cwd2, abs);
  return rel === "" ? "." : rel;
}
function toPosix(p) {
  return sep === "/" ? p : p.split(sep).join("/");
}

// src/main/runtime/permissions/path-rules.ts
function resolvePattern(content, root2, ctx) {
  const home = ctx.home ?? homedir3();
  if (content.startsWith("//")) return { base: "/", pattern: content.slice(1) };
  if (content.startsWith("~/")) return { base: home, pattern: content.slice(1) };
  if (content.startsWith("/")) return { base: root2 ?? ctx.cwd, pattern: content };
  if (content.startsWith("./")) return { base: ctx.cwd, pattern: content.slice(1) };
  return { base: ctx.cwd, pattern: content };
}
function pathCandidates(p) {
  const real = realTarget(p);
  if (real === null) return [p, UNKNOWABLE];
  return real === p ? [p] : [p, real];
}
var UNKNOWABLE = "\0unknowable";
function matchesOne(content, root2, ctx, path) {
  if (path === UNKNOWABLE) return false;
  const { base: written, pattern } = resolvePattern(content, root2, ctx);
  const base = isInside(written, path) ? written : realTarget(written) ?? written;
  if (!isInside(base, path)) return false;
  const rel = toPosix(relative2(base, path));
  let glob;
  try {
    glob = compileGlob(pattern);
  } catch {
    return false;
  }
  if (rel === "") return matchGlob(glob, "", true);
  const parts = rel.split("/");
  for (let i = parts.length; i >= 1; i--) if (matchGlob(glob, parts.slice(0, i).join("/"), i < parts.length)) return true;
  return false;
}
function pathRuleMatches(content, root2, ctx, filePath, mode2) {
  const candidates = pathCandidates(resolve4(filePath));
  if (candidates.includes(UNKNOWABLE)) return mode2 === "deny";
  return mode2 === "deny" ? candidates.some((p) => matchesOne(content, root2, ctx, p)) : candidates.every((p) => matchesOne(content, root2, ctx, p));
}
function insideWorkingDirs(filePath, dirs) {
  const realDirs = dirs.flatMap((d) => pathCandidates(resolve4(d))).filter((d) => d !== UNKNOWABLE);
  return pathCandidates(resolve4(filePath)).every((p) => realDirs.some((d) => isInside(d, p)));
}

// src/main/runtime/tools/tool-names.ts
var BUILTIN_TOOL_NAMES = ["Bash", "Glob", "Grep", "Read", "Edit", "Write", "NotebookEdit", "WebFetch", "TodoWrite"];
var BUILTIN_TOOL_META = {
  Bash: { readOnly: false, concurrencySafe: false },
  Glob: { readOnly: true, concurrencySafe: true },
  Grep: { readOnly: true, concurrencySafe: true },
  Read: { readOnly: true, concurrencySafe: true },
  Edit: { readOnly: false, concurrencySafe: false },
  Write: { readOnly: false, concurrencySafe: false },
  NotebookEdit: { readOnly: false, concurrencySafe: false },
  WebFetch: { readOnly: true, concurrencySafe: true },
  TodoWrite: { readOnly: true, concurrencySafe: false }
};
var FILE_EDIT_TOOL_NAMES = ["Edit", "Write", "NotebookEdit", "MultiEdit"];
var FILE_READ_TOOL_NAMES = ["Read", "Glob", "Grep", "NotebookRead", "LS"];

// src/main/runtime/security/path-policy.ts
var RUNS_LATER = /(^|\/)(\.git(\/|$)|\.claude\/settings(\.local)?\.json$|\.mcp\.json$|\.vscode(\/|$)|\.idea(\/|$)|\.gitmodules$|\.(bashrc|bash_profile|zshrc|zprofile|profile)$)/;
var PathPolicy = class {
  constructor(opts) {
    this.opts = opts;
    this.cwd = resolve5(opts.cwd);
    this.home = opts.home ?? homedir4();
    this.ctx = { cwd: this.cwd, home: this.home };
  }
  opts;
  ctx;
  cwd;
  home;
  /** A model-supplied path, absolute (`~` expanded, relative to cwd). */
  absolute(p) {
    return p.startsWith("~/") || p === "~" ? join7(this.home, p.slice(2)) : resolveToolPath(this.cwd, p);
  }
  /** The working directories: cwd first. */
  roots() {
    const extra = typeof this.opts.roots === "function" ? this.opts.roots() : this.opts.roots ?? [];
    return [this.cwd, ...extra.map((r) => resolve5(r))];
  }
  /** The path as written and where it really leads. */
  candidates(abs) {
    return pathCandidates(resolve5(abs));
  }
  /** Inside the working directories, both as written and where it really leads. */
  inBounds(abs) {
    return insideWorkingDirs(abs, this.roots());
  }
  /** The path deny rules binding this access (and this tool). */
  rulesFor(access, toolName) {
    const deny = this.opts.rules?.().deny ?? [];
    return deny.filter((r) => {
      if (r.content === void 0) return false;
      if (access === "read") return r.toolName === "Read" || toolName !== void 0 && toolName !== "Bash" && r.toolName === toolName;
      return r.toolName === "Edit" || toolName !== void 0 && r.toolName === toolName && FILE_EDIT_TOOL_NAMES.includes(toolName);
    });
  }
  /** The deny rule protecting this path from this access, if any (written or real path matching). */
  deniedBy(abs, access, toolName) {
    const ctx = { cwd: this.cwd, home: this.home };
    return this.rulesFor(access, toolName).find((r) => pathRuleMatches(r.content, r.root, ctx, abs, "deny"));
  }
  /**
   * A deny rule that could protect something below this directory: a search from here could reach it.
   * Errs on the side of "could": a name pattern (`.env`, `*.pem`) reaches every folder under its base.
   */
  protectedUnder(dir, toolName) {
    const ctx = { cwd: this.cwd, home: this.home };
    const dirs = this.candidates(dir);
    if (dirs.includes(UNKNOWABLE)) return this.rulesFor("read", toolName)[0];
    return this.rulesFor("read", toolName).find((r) => {
      const { base, pattern } = resolvePattern(r.content, r.root, ctx);
      const bases = [.../* @__PURE__ */ new Set([base, ...this.candidates(base).filter((b) => b !== UNKNOWABLE)])];
      const body = pattern.replace(/^\//, "").replace(/\/$/, "");
      const anchored = pattern.replace(/\/$/, "").slice(1).includes("/") || pattern.startsWith("/");
      let prefix = "";
      if (anchored) {
        try {
          compileGlob(pattern);
        } catch {
          return false;
        }
        const literal2 = [];
        for (const seg of body.split("/")) {
          if (/[*?[\]{}\\]/.test(seg)) break;
          literal2.push(seg);
        }
        prefix = literal2.join("/");
      }
      return bases.some((b) => {
        const area = prefix ? join7(b, prefix) : b;
        return dirs.some((d) => isInside(d, area) || isInside(area, d) || matchesOne(r.content, r.root, ctx, d));
      });
    });
  }
  /** A file other programs will run or obey later (see RUNS_LATER): never written without asking. */
  runsLater(abs) {
    return this.candidates(abs).some((c) => c === UNKNOWABLE || this.roots().some((r) => isInside(r, c) && RUNS_LATER.test(relative3(r, c))));
  }
  /** For a tool about to touch a file: null when it may, else the message the model sees. */
  check(toolName, abs, access) {
    const rule = this.deniedBy(abs, access, toolName);
    if (!rule) return null;
    const verb = access === "read" ? "read" : "change";
    return `${toolName} may not ${verb} ${abs}: it is protected by the permission rule "${rule.raw}" (${rule.source} settings). Do not try to reach it another way.`;
  }
  /**
   * For searches (Glob, Grep): whether a file found under `root` may be shown. Protected files are skipped,
   * and so is a file whose real location is outside both the searched folder and the working directories
   * (an in-repo symlink pointing out).
   */
  searchFilter(root2, toolName) {
    const rootReal = this.candidates(root2).filter((c) => c !== UNKNOWABLE);
    return (file) => {
      if (this.deniedBy(file, "read", toolName)) return false;
      const real = this.candidates(file);
      if (real.includes(UNKNOWABLE)) return false;
      return real.every((c) => rootReal.some((r) => isInside(r, c))) || this.inBounds(file);
    };
  }
  /** Why Bash may not read this path without asking (the classifier's check), or null. */
  bashReadRefusal(abs) {
    const rule = this.deniedBy(abs, "read", "Bash");
    if (rule) return `it reads ${abs}, protected by the rule "${rule.raw}"`;
    if (!this.inBounds(abs)) return `it reads ${abs}, outside the working directories`;
    return null;
  }
  /** Why a recursive Bash read from this directory is not read-only, or null. */
  bashRecursiveRefusal(dir) {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return null;
    const rule = this.protectedUnder(dir, "Bash");
    return rule ? `it searches ${dir}, which can hold files protected by the rule "${rule.raw}"` : null;
  }
};

// src/main/runtime/permissions/shell/parse-shell.ts
import { createRequire } from "node:module";
var api;
function learnOps(syntax, parser) {
  const redirOps = /* @__PURE__ */ new Map();
  for (const op of [">", ">>", "<", "<>", "<&", ">&", ">|", "<<", "<<-", "<<<", "&>", "&>>"]) {
    const src = op.startsWith("<<") && op !== "<<<" ? `a ${op}E
x
E
` : `a ${op}1`;
    const stmt = parser.Parse(src, "").Stmts[0];
    redirOps.set(stmt.Redirs[0].Op, op);
  }
  const binOps = /* @__PURE__ */ new Map();
  for (const op of ["&&", "||", "|", "|&"]) binOps.set(parser.Parse(`a ${op} b`, "").Stmts[0].Cmd.Op, op);
  return { redirOps, binOps };
}
function load() {
  if (!api) {
    const { syntax } = createRequire(import.meta.url)("mvdan-sh");
    const parser = syntax.NewParser();
    api = { syntax, parser, ...learnOps(syntax, parser) };
  }
  return api;
}
function parseShell(source) {
  const { parser } = load();
  try {
    return { ok: true, file: parser.Parse(source, ""), source };
  } catch (err) {
    const e = err;
    return { ok: false, error: typeof e?.Error === "function" ? e.Error() : e?.message ?? String(err) };
  }
}
function nodeType(node) {
  return load().syntax.NodeType(node);
}
function walkNodes(node, visit2) {
  load().syntax.Walk(node, (n) => n ? visit2(n) !== false : true);
}
function redirOp(redirect) {
  return load().redirOps.get(redirect.Op) ?? "?";
}
function binOp(cmd) {
  return load().binOps.get(cmd.Op) ?? "?";
}
function sourceOf(source, node) {
  const bytes = Buffer.from(source, "utf8");
  return bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString("utf8");
}

// src/main/runtime/permissions/shell/word-value.ts
var GLOB_CHARS = /* @__PURE__ */ new Set(["*", "?", "["]);
function unquoted(raw, out) {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === "\\") {
      const next = raw[++i];
      if (next === void 0 || next === "\n") continue;
      out.value += next;
      out.pattern += GLOB_CHARS.has(next) || next === "\\" ? `\\${next}` : next;
      continue;
    }
    if (c === "{" && /^[^}]*(,|\.\.)[^}]*\}/.test(raw.slice(i + 1))) return "brace expansion";
    if (GLOB_CHARS.has(c)) out.glob = true;
    out.value += c;
    out.pattern += c;
  }
  return null;
}
function literal(text2, out) {
  out.value += text2;
  out.pattern += text2.replace(/[\\*?[]/g, "\\$&");
}
function doubleQuoted(raw) {
  return raw.replace(/\\([$`"\\\n])/g, (_, c) => c === "\n" ? "" : c);
}
var EXPANSION_NAMES = {
  ParamExp: "a variable expansion",
  CmdSubst: "command substitution",
  ProcSubst: "process substitution",
  ArithmExp: "arithmetic expansion",
  ExtGlob: "an extended glob"
};
function wordValue(word, home) {
  const out = { value: "", pattern: "", glob: false };
  const parts = word.Parts;
  let tilde = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const type = nodeType(part);
    if (type === "Lit") {
      let raw = part.Value;
      if (i === 0 && raw.startsWith("~")) {
        const m = /^~(\/|$)/.exec(raw);
        if (!m) return { ok: false, why: "a ~user path" };
        if (raw.length === 1 && parts.length > 1) return { ok: false, why: "a ~ followed by quoted text" };
        literal(home, out);
        raw = raw.slice(1);
        tilde = true;
      }
      const why = unquoted(raw, out);
      if (why) return { ok: false, why };
    } else if (type === "SglQuoted") {
      if (part.Dollar) return { ok: false, why: "ANSI-C quoting ($'\u2026')" };
      literal(part.Value, out);
    } else if (type === "DblQuoted") {
      if (part.Dollar) return { ok: false, why: 'locale quoting ($"\u2026")' };
      for (const inner of part.Parts) {
        const t = nodeType(inner);
        if (t !== "Lit") return { ok: false, why: EXPANSION_NAMES[t] ?? `shell syntax ${t}` };
        literal(doubleQuoted(inner.Value), out);
      }
    } else return { ok: false, why: EXPANSION_NAMES[type] ?? `shell syntax ${type}` };
  }
  return { ok: true, value: out.value, ...out.glob ? { glob: out.pattern } : {}, ...tilde ? { tilde } : {} };
}

// src/main/runtime/permissions/bash-command.ts
var SAFE_REDIRECT_TARGET = /^(\d+|-|\/dev\/null)$/;
var SHELLS = /* @__PURE__ */ new Set(["bash", "sh", "zsh", "dash", "ksh"]);
var COMPOUND = {
  Subshell: "subshell or command group",
  Block: "subshell or command group",
  IfClause: "an if statement",
  WhileClause: "a loop",
  ForClause: "a loop",
  CaseClause: "a case statement",
  FuncDecl: "a function definition",
  DeclClause: "declare/export/local",
  TestClause: "a [[ \u2026 ]] test",
  ArithmCmd: "arithmetic",
  LetClause: "let",
  TimeClause: "time",
  CoprocClause: "a coprocess"
};
var CommandSplitter = class _CommandSplitter {
  constructor(source) {
    this.source = source;
  }
  source;
  segments = [];
  nested = [];
  unsure = /* @__PURE__ */ new Set();
  /** Substitutions anywhere in a node: their commands are nested, and allow rules step aside. */
  substitutions(node) {
    walkNodes(node, (n) => {
      const t = nodeType(n);
      if (t !== "CmdSubst" && t !== "ProcSubst") return true;
      this.unsure.add(t === "CmdSubst" ? "command substitution" : "process substitution");
      const inner = new _CommandSplitter(this.source);
      for (const st of n.Stmts) inner.stmt(st);
      this.nested.push(...inner.segments, ...inner.nested);
      return false;
    });
  }
  redirect(r) {
    const op = redirOp(r);
    if (op === "<<" || op === "<<-" || op === "<<<") {
      this.unsure.add("heredoc or here-string");
      if (r.Hdoc) this.substitutions(r.Hdoc);
      this.substitutions(r.Word);
      return;
    }
    this.substitutions(r.Word);
    const target2 = sourceOf(this.source, r.Word);
    if (SAFE_REDIRECT_TARGET.test(target2) && op !== "<>") return;
    this.unsure.add(op.includes("<") && op !== "<>" ? `input redirection from ${target2}` : `output redirection to ${target2}`);
  }
  call(cmd) {
    const words = [...cmd.Assigns, ...cmd.Args];
    for (const w of words) this.substitutions(w);
    if (!cmd.Args.length) {
      if (cmd.Assigns.length) this.segments.push(words.map((w) => sourceOf(this.source, w)).join(" "));
      return;
    }
    const text2 = words.map((w) => sourceOf(this.source, w)).join(" ");
    this.segments.push(text2);
    const args = cmd.Args.map((w) => wordValue(w, "~"));
    const name = args[0].ok ? args[0].value.split("/").pop() : void 0;
    let inner;
    if (name && SHELLS.has(name)) {
      const c = args.findIndex((a, i) => i > 0 && a.ok && /^-[a-z]*c[a-z]*$/i.test(a.value));
      const body = c === -1 ? void 0 : args[c + 1];
      if (c !== -1) inner = body?.ok ? body.value : "";
    } else if (name === "eval") inner = args.slice(1).map((a) => a.ok ? a.value : "").join(" ");
    if (inner === void 0) return;
    this.unsure.add("a command string run by a shell");
    const nested = parseBashCommand(inner);
    this.nested.push(...nested.segments, ...nested.nested);
  }
  stmt(s) {
    for (const r of s.Redirs) this.redirect(r);
    const cmd = s.Cmd;
    if (!cmd) return;
    const type = nodeType(cmd);
    if (type === "CallExpr") return this.call(cmd);
    if (type === "BinaryCmd") {
      this.stmt(cmd.X);
      this.stmt(cmd.Y);
      return;
    }
    this.unsure.add(COMPOUND[type] ?? `shell syntax (${type})`);
    walkNodes(cmd, (n) => {
      if (nodeType(n) !== "Stmt") return true;
      const inner = new _CommandSplitter(this.source);
      inner.stmt(n);
      for (const u of inner.unsure) this.unsure.add(u);
      this.segments.push(...inner.segments);
      this.nested.push(...inner.nested);
      return false;
    });
  }
};
function parseBashCommand(command) {
  const parsed = parseShell(command);
  if (!parsed.ok) return { segments: command.trim() ? [command.trim()] : [], nested: [], unsure: [`a command the shell parser could not read (${parsed.error})`] };
  const splitter = new CommandSplitter(command);
  for (const s of parsed.file.Stmts) splitter.stmt(s);
  return { segments: splitter.segments, nested: splitter.nested, unsure: [...splitter.unsure] };
}
var WRAPPERS = /^(?:sudo(?:\s+-\S+)*|command|builtin|exec|nohup|time|nice(?:\s+-n\s*-?\d+|\s+-\d+)?|timeout(?:\s+-\S+)*\s+\S+|env(?:\s+-\S+)*|xargs(?:\s+-\S+)*)\s+/;
var ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+/;
function commandVariants(segment) {
  const out = [segment];
  let s = segment;
  for (let guard = 0; guard < 10; guard++) {
    const stripped = s.replace(ENV_ASSIGNMENT, "").replace(WRAPPERS, "");
    if (stripped === s) break;
    s = stripped;
    out.push(s);
  }
  return out;
}
function matchBashPattern(pattern, command) {
  const cmd = command.trim();
  if (pattern.endsWith(":*")) {
    const prefix = pattern.slice(0, -2).trim();
    return cmd === prefix || cmd.startsWith(`${prefix} `);
  }
  if (!pattern.includes("*")) return cmd === pattern.trim();
  const stars = pattern.split("*").length - 1;
  let body = pattern.trim().split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  if (stars === 1 && body.endsWith(" .*")) body = `${body.slice(0, -3)}(?: .*)?`;
  return new RegExp(`^${body}$`, "s").test(cmd);
}
function shellWords(segment) {
  const parsed = parseShell(segment);
  if (!parsed.ok || parsed.file.Stmts.length !== 1) return null;
  const cmd = parsed.file.Stmts[0].Cmd;
  if (!cmd || nodeType(cmd) !== "CallExpr") return null;
  const out = [];
  for (const w of [...cmd.Assigns.map(() => null), ...cmd.Args]) {
    if (!w) return null;
    const v = wordValue(w, "~");
    if (!v.ok) return null;
    out.push(v.value);
  }
  return out;
}

// src/main/runtime/permissions/shell/classify.ts
import { existsSync as existsSync3, statSync as statSync2 } from "node:fs";
import { dirname as dirname4, isAbsolute as isAbsolute5, join as join10, resolve as resolve7 } from "node:path";

// src/main/runtime/permissions/shell/glob-expand.ts
import { readdirSync } from "node:fs";
import { isAbsolute as isAbsolute3, join as join8 } from "node:path";
var GLOB_EXPANSION_LIMIT = 2e3;
function segmentRegex(segment) {
  let re = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === "\\" && i + 1 < segment.length) re += segment[++i].replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close === -1) re += "\\[";
      else {
        let body = segment.slice(i + 1, close);
        if (body.startsWith("!") || body.startsWith("^")) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\(?!\])/g, "\\\\")}]`;
        i = close;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "s");
}
var hasMeta = (segment) => /(^|[^\\])[*?[]/.test(segment);
var unescape = (segment) => segment.replace(/\\(.)/g, "$1");
function expandGlob(pattern, cwd2) {
  const absolute = isAbsolute3(pattern);
  const segments = pattern.split("/").filter((s, i) => s !== "" || i === 0);
  let bases = [absolute ? "/" : cwd2];
  for (const segment of absolute ? segments.slice(1) : segments) {
    if (segment === "") continue;
    if (!hasMeta(segment)) {
      bases = bases.map((b) => join8(b, unescape(segment)));
      continue;
    }
    const re = segmentRegex(segment);
    const next = [];
    for (const base of bases) {
      let names;
      try {
        names = readdirSync(base);
      } catch {
        continue;
      }
      for (const name of names) {
        if (name.startsWith(".") && !segment.startsWith(".")) continue;
        if (re.test(name)) next.push(join8(base, name));
      }
      if (next.length > GLOB_EXPANSION_LIMIT) return null;
    }
    bases = next;
    if (!bases.length) return [];
  }
  return bases.sort();
}

// src/main/runtime/permissions/shell/options.ts
function parseOptions(args, spec2) {
  const options = [];
  const operands = [];
  const permute = spec2.permute ?? true;
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (endOfOptions || a === "-" || !a.startsWith("-") || !permute && operands.length) {
      operands.push(i);
      if (!permute) endOfOptions = true;
      continue;
    }
    if (a === "--") {
      endOfOptions = true;
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq === -1 ? a : a.slice(0, eq);
      if (spec2.long?.includes(name)) {
        if (eq !== -1) return { ok: false, why: `${name} takes no value` };
        options.push({ name });
      } else if (spec2.longOptArg?.includes(name)) options.push({ name, ...eq !== -1 ? { value: a.slice(eq + 1) } : {} });
      else if (spec2.longArg?.includes(name)) {
        if (eq !== -1) options.push({ name, value: a.slice(eq + 1) });
        else if (i + 1 < args.length) options.push({ name, value: args[++i] });
        else return { ok: false, why: `${name} needs a value` };
      } else return { ok: false, why: `the option ${name} is not on the read-only list` };
      continue;
    }
    if (spec2.numeric && /^-\d+$/.test(a)) {
      options.push({ name: "-n", value: a.slice(1) });
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k];
      if (spec2.short?.includes(c)) options.push({ name: `-${c}` });
      else if (spec2.shortOptArg?.includes(c)) {
        options.push({ name: `-${c}`, ...k + 1 < a.length ? { value: a.slice(k + 1) } : {} });
        break;
      } else if (spec2.shortArg?.includes(c)) {
        if (k + 1 < a.length) options.push({ name: `-${c}`, value: a.slice(k + 1) });
        else if (i + 1 < args.length) options.push({ name: `-${c}`, value: args[++i] });
        else return { ok: false, why: `-${c} needs a value` };
        break;
      } else return { ok: false, why: `the option -${c} is not on the read-only list` };
    }
  }
  return { ok: true, parsed: { options, operands } };
}
var has = (p, ...names) => p.options.some((o) => names.includes(o.name));
var values = (p, ...names) => p.options.filter((o) => names.includes(o.name) && o.value !== void 0).map((o) => o.value);

// src/main/runtime/permissions/shell/command-check.ts
function checkPaths(args, env, recursive) {
  for (const a of args) {
    const why = env.readPath(a, { recursive });
    if (why) return why;
  }
  return null;
}
function spec(s) {
  return (args, env) => {
    if (args.some((a) => a.glob && a.value.startsWith("-"))) return "a glob where an option could be";
    const r = parseOptions(
      args.map((a) => a.value),
      s
    );
    if (!r.ok) return r.why;
    const p = r.parsed;
    if (s.maxOperands !== void 0 && p.operands.length > s.maxOperands) return `more than ${s.maxOperands} operand${s.maxOperands === 1 ? "" : "s"}`;
    const extra = s.extra?.(p, args, env);
    if (extra) return extra;
    const recursive = typeof s.recursive === "function" ? s.recursive(p) : s.recursive ?? false;
    for (const v of values(p, ...s.pathOptions ?? [])) {
      const why = env.readPath({ value: v });
      if (why) return why;
    }
    let files = p.operands.map((i) => args[i]);
    if (s.operands === "none" && files.length) return "it takes no operands here";
    if (s.operands === "none" || s.operands === "text") return null;
    if (s.operands === "pattern" && !has(p, ...s.patternOptions ?? [])) files = files.slice(1);
    const fallback = typeof s.defaultPath === "function" ? s.defaultPath(p) : s.defaultPath ?? false;
    if (!files.length && fallback) files = [{ value: "." }];
    return checkPaths(files, env, recursive);
  };
}

// src/main/runtime/permissions/shell/read-only-find.ts
var NO_ARG = /* @__PURE__ */ new Set([
  "-print",
  "-print0",
  "-prune",
  "-empty",
  "-readable",
  "-writable",
  "-executable",
  "-true",
  "-false",
  "-depth",
  "-mount",
  "-xdev",
  "-nowarn",
  "-warn",
  "-daystart",
  "-ls",
  "-noleaf",
  "-quit",
  "-not",
  "!",
  "-a",
  "-and",
  "-o",
  "-or",
  "(",
  ")",
  ",",
  "-nouser",
  "-nogroup",
  "-ignore_readdir_race"
]);
var WITH_ARG = /* @__PURE__ */ new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-regextype",
  "-type",
  "-xtype",
  "-maxdepth",
  "-mindepth",
  "-size",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-perm",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-links",
  "-inum",
  "-used",
  "-printf",
  "-fstype",
  "-lname",
  "-ilname",
  "-newermt"
]);
var WITH_PATH = /* @__PURE__ */ new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);
var checkFind = (args, env) => {
  let i = 0;
  while (i < args.length && /^-[HPO]/.test(args[i].value) && !NO_ARG.has(args[i].value) && !WITH_ARG.has(args[i].value)) {
    if (!/^-(H|P|O\d?)$/.test(args[i].value)) return `the find option ${args[i].value}`;
    i++;
  }
  const starts = [];
  while (i < args.length && !args[i].value.startsWith("-") && args[i].value !== "(" && args[i].value !== "!" && args[i].value !== ",") starts.push(args[i++]);
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.glob) return "a glob in a find expression (the shell would expand it)";
    if (NO_ARG.has(a.value)) continue;
    if (WITH_ARG.has(a.value)) {
      if (++i >= args.length) return `${a.value} needs a value`;
      continue;
    }
    if (WITH_PATH.has(a.value)) {
      if (++i >= args.length) return `${a.value} needs a file`;
      const why = env.readPath(args[i]);
      if (why) return why;
      continue;
    }
    return `the find expression ${a.value} is not on the read-only list`;
  }
  for (const s of starts.length ? starts : [{ value: "." }]) {
    const why = env.readPath(s, { recursive: true });
    if (why) return why;
  }
  return null;
};

// src/main/runtime/permissions/shell/read-only-git.ts
import { existsSync as existsSync2 } from "node:fs";
import { isAbsolute as isAbsolute4, join as join9, resolve as resolve6 } from "node:path";
var DIFF_LONG = [
  "--patch",
  "--no-patch",
  "--patch-with-stat",
  "--patch-with-raw",
  "--raw",
  "--shortstat",
  "--numstat",
  "--name-only",
  "--name-status",
  "--summary",
  "--compact-summary",
  "--minimal",
  "--patience",
  "--histogram",
  "--ignore-space-change",
  "--ignore-all-space",
  "--ignore-blank-lines",
  "--ignore-space-at-eol",
  "--ignore-cr-at-eol",
  "--function-context",
  "--text",
  "--full-index",
  "--binary",
  "--no-renames",
  "--find-copies-harder",
  "--irreversible-delete",
  "--no-prefix",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--check",
  "--exit-code",
  "--quiet",
  "--cc",
  "--combined-all-paths"
];
var DIFF_LONG_ARG = ["--diff-filter", "--unified", "--inter-hunk-context", "--src-prefix", "--dst-prefix", "--line-prefix", "--anchored", "--diff-algorithm", "--word-diff-regex", "--stat-width", "--stat-count", "--stat-name-width", "--abbrev"];
var DIFF_LONG_OPT = ["--stat", "--dirstat", "--find-renames", "--find-copies", "--break-rewrites", "--relative", "--word-diff", "--color-words", "--color", "--ignore-submodules", "--submodule"];
var LOG = {
  short: "pusimcrtzEFPg",
  shortArg: "nSG",
  shortOptArg: "MCBlU",
  numeric: true,
  long: [
    ...DIFF_LONG,
    "--oneline",
    "--graph",
    "--no-decorate",
    "--abbrev-commit",
    "--no-abbrev-commit",
    "--all",
    "--reverse",
    "--no-merges",
    "--merges",
    "--first-parent",
    "--follow",
    "--relative-date",
    "--left-right",
    "--cherry-pick",
    "--cherry-mark",
    "--cherry",
    "--topo-order",
    "--date-order",
    "--author-date-order",
    "--full-history",
    "--simplify-by-decoration",
    "--simplify-merges",
    "--ancestry-path",
    "--boundary",
    "--mailmap",
    "--use-mailmap",
    "--no-mailmap",
    "--regexp-ignore-case",
    "--extended-regexp",
    "--fixed-strings",
    "--basic-regexp",
    "--perl-regexp",
    "--invert-grep",
    "--all-match",
    "--full-diff",
    "--log-size",
    "--parents",
    "--children",
    "--source",
    "--no-walk",
    "--do-walk",
    "--remove-empty",
    "--walk-reflogs",
    "--single-worktree",
    "--stdin"
  ],
  longArg: [...DIFF_LONG_ARG, "--format", "--max-count", "--skip", "--author", "--committer", "--since", "--after", "--until", "--before", "--grep", "--date", "--glob", "--exclude", "--encoding", "--max-parents", "--min-parents", "--since-as-filter"],
  longOptArg: [...DIFF_LONG_OPT, "--pretty", "--decorate", "--branches", "--tags", "--remotes"]
};
var DIFF = {
  short: "pusRazEbwW",
  shortOptArg: "MCBlU",
  long: [...DIFF_LONG, "--cached", "--staged", "--merge-base", "--no-index", "--ours", "--theirs", "--base"],
  longArg: DIFF_LONG_ARG,
  longOptArg: DIFF_LONG_OPT
};
var GREP = {
  short: "iIwvhHlLcnoqzEGFPpW",
  shortArg: "efABCm",
  long: [
    "--and",
    "--or",
    "--not",
    "--cached",
    "--untracked",
    "--no-index",
    "--exclude-standard",
    "--no-exclude-standard",
    "--recurse-submodules",
    "--full-name",
    "--name-only",
    "--files-with-matches",
    "--files-without-match",
    "--count",
    "--line-number",
    "--column",
    "--break",
    "--heading",
    "--show-function",
    "--function-context",
    "--all-match",
    "--no-color",
    "--ignore-case",
    "--word-regexp",
    "--invert-match",
    "--text",
    "--extended-regexp",
    "--basic-regexp",
    "--fixed-strings",
    "--perl-regexp",
    "--null",
    "--only-matching",
    "--quiet"
  ],
  longArg: ["--max-depth", "--threads", "--max-count", "--after-context", "--before-context", "--context"],
  longOptArg: ["--color"]
};
var NAMES_ONLY = ["--stat", "--name-only", "--name-status", "--numstat", "--shortstat", "--summary", "--compact-summary", "--dirstat", "--quiet", "--exit-code", "--raw", "-s", "--no-patch"];
var PATCH = ["-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "--word-diff", "--color-words", "--cc", "-W", "--function-context"];
var printsContents = (p) => !has(p, ...NAMES_ONLY) || has(p, ...PATCH);
var listOnly = (flags) => (p, operands) => operands.length && !has(p, ...flags) ? "a name operand (that creates or changes it) without --list" : null;
var SUBCOMMANDS = {
  status: { spec: { short: "sbvz", shortOptArg: "u", long: ["--short", "--branch", "--long", "--verbose", "--no-ahead-behind", "--ahead-behind", "--renames", "--no-renames", "--show-stash", "--no-column"], longOptArg: ["--porcelain", "--untracked-files", "--ignored", "--ignore-submodules", "--column", "--find-renames"] }, operands: "paths", content: false },
  log: { spec: LOG, operands: "revs-paths", content: (p) => has(p, "-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "--word-diff", "--color-words", "--cc", "-c", "-m", "--function-context", "-S", "-G") },
  whatchanged: { spec: LOG, operands: "revs-paths", content: (p) => has(p, "-p", "-u", "--patch", "--word-diff", "--color-words", "-S", "-G") },
  show: { spec: LOG, operands: "revs-paths", content: printsContents },
  diff: { spec: DIFF, operands: "revs-paths", content: printsContents },
  blame: { spec: { short: "bcflnsetwp", shortArg: "LSM", shortOptArg: "C", long: ["--root", "--show-stats", "--porcelain", "--line-porcelain", "--incremental", "--show-name", "--show-number", "--show-email", "--minimal", "--reverse", "--first-parent", "--progress", "--no-progress"], longArg: ["--date", "--since", "--abbrev", "--encoding", "--ignore-rev", "--contents"] }, operands: "revs-paths", content: true },
  grep: { spec: GREP, operands: "pattern-revs-paths", content: true },
  "cat-file": { spec: { short: "ptse", long: [] }, operands: "object", content: true },
  "ls-files": { spec: { short: "cdoimskuzftvAe", shortArg: "x", long: ["--cached", "--deleted", "--others", "--ignored", "--stage", "--modified", "--killed", "--unmerged", "--exclude-standard", "--full-name", "--directory", "--no-empty-directory", "--error-unmatch", "--eol", "--recurse-submodules", "--sparse", "--deduplicate"], longArg: ["--exclude", "--format"], longOptArg: ["--abbrev"] }, operands: "paths", content: false },
  "ls-tree": { spec: { short: "rtdlz", long: ["--name-only", "--name-status", "--object-only", "--full-name", "--full-tree", "--long"], longArg: ["--format"], longOptArg: ["--abbrev"] }, operands: "revs-paths", content: false },
  "rev-parse": { spec: { short: "q", long: ["--verify", "--quiet", "--show-toplevel", "--git-dir", "--git-common-dir", "--absolute-git-dir", "--is-inside-work-tree", "--is-inside-git-dir", "--is-bare-repository", "--is-shallow-repository", "--show-prefix", "--show-cdup", "--symbolic", "--symbolic-full-name", "--all", "--abbrev-ref", "--show-superproject-working-tree", "--local-env-vars"], longOptArg: ["--short", "--branches", "--tags", "--remotes"] }, operands: "none", content: false },
  describe: { spec: { long: ["--tags", "--all", "--long", "--always", "--exact-match", "--contains", "--first-parent"], longArg: ["--match", "--exclude", "--candidates"], longOptArg: ["--abbrev", "--dirty", "--broken"] }, operands: "none", content: false },
  shortlog: { spec: { short: "snec", long: ["--summary", "--numbered", "--email", "--committer", "--all", "--no-merges"], longArg: ["--group", "--format", "--since", "--until", "--author"] }, operands: "none", content: false },
  branch: { spec: { short: "arvl", long: ["--all", "--remotes", "--verbose", "--list", "--show-current", "--no-color", "--ignore-case", "--omit-empty"], longArg: ["--sort", "--format", "--points-at"], longOptArg: ["--merged", "--no-merged", "--contains", "--no-contains", "--color", "--column", "--abbrev"] }, operands: "none", content: false, extra: listOnly(["-l", "--list"]) },
  tag: { spec: { short: "l", shortOptArg: "n", long: ["--list", "--ignore-case", "--omit-empty"], longArg: ["--sort", "--format", "--points-at"], longOptArg: ["--contains", "--no-contains", "--merged", "--no-merged", "--color", "--column"] }, operands: "none", content: false, extra: listOnly(["-l", "--list"]) },
  remote: { spec: { short: "v", long: ["--verbose"] }, operands: "none", content: false }
};
function objectPath(value, env, cwd2) {
  let path;
  if (value.startsWith(":")) {
    if (value.startsWith(":(") || value.startsWith(":!") || value.startsWith(":/") || value.startsWith(":^")) return { magic: true };
    path = value.replace(/^:(\d:)?/, "");
  } else {
    const k = value.indexOf(":");
    if (k <= 0) return null;
    path = value.slice(k + 1);
  }
  if (!path) return null;
  return { path: path.startsWith("./") || path.startsWith("../") ? resolve6(cwd2, path) : join9(env.repoRoot(cwd2), path) };
}
function checkOperands(sub, p, operands, afterDashes, env, cwd2) {
  const paths2 = [...afterDashes];
  let rest = operands;
  if (sub.operands === "pattern-revs-paths" && !has(p, "-e", "-f")) rest = rest.slice(1);
  let objectPaths = 0;
  for (const a of rest) {
    if (sub.operands === "paths") {
      paths2.push(a);
      continue;
    }
    const inObject = objectPath(a.value, env, cwd2);
    if (inObject && "magic" in inObject) return `the object name ${a.value} (pathspec magic)`;
    if (inObject) {
      const why = env.readPath({ value: inObject.path }, { cwd: cwd2 });
      if (why) return why;
      objectPaths++;
      if (!a.glob && existsSync2(resolve6(cwd2, a.value))) paths2.push(a);
    } else if (sub.operands === "object") {
      const why = env.protectedUnder(env.repoRoot(cwd2));
      if (why) return `git cat-file of an object id: ${why}`;
    } else if (!a.glob && existsSync2(isAbsolute4(a.value) ? a.value : resolve6(cwd2, a.value))) paths2.push(a);
  }
  for (const a of paths2) {
    if (a.value.startsWith(":")) return `the pathspec ${a.value} (pathspec magic)`;
    if (/[*?[]/.test(a.value)) {
      const why2 = env.protectedUnder(env.repoRoot(cwd2));
      if (why2) return `a wildcard pathspec: ${why2}`;
      continue;
    }
    const why = env.readPath(a, { recursive: true, cwd: cwd2 });
    if (why) return why;
  }
  const content = typeof sub.content === "function" ? sub.content(p) : sub.content;
  if (content && !paths2.length && !(objectPaths && objectPaths === rest.length)) {
    const why = env.protectedUnder(env.repoRoot(cwd2));
    if (why) return `it shows the contents of the whole repository: ${why}`;
  }
  return null;
}
var checkGit = (args, env) => {
  let cwd2 = env.cwd;
  let i = 0;
  for (; i < args.length && args[i].value.startsWith("-"); i++) {
    const v = args[i].value;
    if (["--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects"].includes(v)) continue;
    if (v === "-C" && i + 1 < args.length) {
      const dir = args[++i];
      const why = env.readPath(dir, { cwd: cwd2 });
      if (why) return why;
      cwd2 = resolve6(cwd2, dir.value);
      continue;
    }
    return `the git option ${v} (git -c and the like change what git runs)`;
  }
  const name = args[i]?.value;
  if (name === void 0) return null;
  if (name === "stash" && args.length === i + 2 && args[i + 1].value === "list") return null;
  const sub = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : void 0;
  if (!sub) return `git ${name} is not on the read-only list`;
  const rest = args.slice(i + 1);
  if (rest.some((a) => a.glob && a.value.startsWith("-"))) return "a glob where an option could be";
  const dashes = rest.findIndex((a) => a.value === "--");
  const before = dashes === -1 ? rest : rest.slice(0, dashes);
  const after = dashes === -1 ? [] : rest.slice(dashes + 1);
  const r = parseOptions(
    before.map((a) => a.value),
    sub.spec
  );
  if (!r.ok) return `git ${name}: ${r.why}`;
  const operands = r.parsed.operands.map((k) => before[k]);
  if (sub.operands === "none" && (operands.length || after.length) && !sub.extra) return `git ${name} with operands`;
  const extra = sub.extra?.(r.parsed, operands);
  if (extra) return `git ${name}: ${extra}`;
  for (const o of r.parsed.options) {
    if (o.name !== "-f" || o.value === void 0) continue;
    const why = env.readPath({ value: o.value }, { cwd: cwd2 });
    if (why) return why;
  }
  if (sub.operands === "none") return null;
  return checkOperands(sub, r.parsed, operands, after, env, cwd2);
};

// src/main/runtime/permissions/shell/jq-filter.ts
var OUTSIDE_INPUT = /\$?\b(env|ENV|import|include|modulemeta|get_search_list|get_prog_origin|get_jq_origin|input_filename|\$__prog_args)\b/;
function checkJqFilter(filter) {
  const m = OUTSIDE_INPUT.exec(filter);
  return m ? `the jq filter uses ${m[0]}, which reaches beyond its input` : null;
}

// src/main/runtime/permissions/shell/sed-script.ts
var PRINT_ONLY = /* @__PURE__ */ new Set(["p", "P", "=", "l", "q", "Q", "d", "D", "n", "N", "g", "G", "h", "H", "x", "z", "F", "{", "}", "!"]);
var S_FLAGS = /^[gpiImM0-9]*$/;
function skipDelimited(s, i, delim) {
  for (; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === delim) return i + 1;
    else if (s[i] === "\n") return -1;
  }
  return -1;
}
function skipAddress(s, i) {
  const one = (j2) => {
    if (s[j2] === "$") return j2 + 1;
    if (/\d/.test(s[j2] ?? "")) {
      while (/[\d~]/.test(s[j2] ?? "")) j2++;
      return j2;
    }
    if (s[j2] === "/") return skipDelimited(s, j2 + 1, "/");
    if (s[j2] === "\\" && s[j2 + 1]) return skipDelimited(s, j2 + 2, s[j2 + 1]);
    return j2;
  };
  let j = one(i);
  if (j === -1) return -1;
  if (s[j] === ",") {
    j++;
    if (s[j] === "+" || s[j] === "~") j++;
    j = one(j);
  }
  if (j !== -1 && (s[j] === "I" || s[j] === "M") && j > i) j++;
  return j;
}
function checkSedScript(script) {
  let i = 0;
  const s = script;
  while (i < s.length) {
    while (i < s.length && /[\s;]/.test(s[i])) i++;
    if (i >= s.length) break;
    if (s[i] === "#") {
      while (i < s.length && s[i] !== "\n") i++;
      continue;
    }
    i = skipAddress(s, i);
    if (i === -1) return "a sed address this check cannot read";
    while (s[i] === " " || s[i] === "!") i++;
    const c = s[i];
    if (c === void 0) return "a sed address without a command";
    if (c === ":" || c === "b" || c === "t" || c === "T") {
      while (i < s.length && s[i] !== ";" && s[i] !== "\n") i++;
      continue;
    }
    if (c === "s" || c === "y") {
      const delim = s[i + 1];
      if (!delim || delim === "\n" || delim === "\\") return "a sed s command this check cannot read";
      let j = skipDelimited(s, i + 2, delim);
      if (j !== -1) j = skipDelimited(s, j, delim);
      if (j === -1) return "a sed s command this check cannot read";
      let k = j;
      while (k < s.length && !/[\s;}]/.test(s[k])) k++;
      const flags = s.slice(j, k);
      if (c === "s" && !S_FLAGS.test(flags)) return `the sed s flag "${flags}" (e runs a command, w writes a file)`;
      if (c === "y" && flags) return "a sed y command this check cannot read";
      i = k;
      continue;
    }
    if (!PRINT_ONLY.has(c)) return `the sed command "${c}" (w writes a file, r reads one, e runs a command)`;
    i++;
    if (c === "q" || c === "Q" || c === "l") while (/\d/.test(s[i] ?? "")) i++;
  }
  return null;
}

// src/main/runtime/permissions/shell/read-only-commands.ts
var anyWords = () => null;
var ls = spec({
  operands: "paths",
  short: "aAbBcCdfFgGhiklmnNopqQrRsStuUvxX1Z",
  shortArg: "ITw",
  long: ["--all", "--almost-all", "--escape", "--directory", "--classify", "--file-type", "--human-readable", "--si", "--inode", "--numeric-uid-gid", "--no-group", "--literal", "--hide-control-chars", "--show-control-chars", "--quote-name", "--recursive", "--reverse", "--size", "--context", "--group-directories-first", "--full-time", "--author", "--ignore-backups", "--dereference-command-line", "--dereference-command-line-symlink-to-dir"],
  longArg: ["--block-size", "--format", "--hide", "--ignore", "--indicator-style", "--quoting-style", "--sort", "--time", "--time-style", "--tabsize", "--width"],
  longOptArg: ["--color", "--colour", "--hyperlink"],
  recursive: (p) => has(p, "-R", "--recursive")
});
var headTail = spec({
  operands: "paths",
  short: "qvz",
  shortArg: "nc",
  numeric: true,
  long: ["--quiet", "--silent", "--verbose", "--zero-terminated"],
  longArg: ["--lines", "--bytes"]
});
var grepFamily = spec({
  operands: "pattern",
  patternOptions: ["-e", "-f", "--regexp", "--file"],
  pathOptions: ["-f", "--file"],
  short: "EFGPiywxvcLlHhnbsoqaIrUzZT",
  shortArg: "ABCemfdD",
  long: ["--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp", "--ignore-case", "--no-ignore-case", "--word-regexp", "--line-regexp", "--invert-match", "--count", "--files-with-matches", "--files-without-match", "--with-filename", "--no-filename", "--line-number", "--byte-offset", "--only-matching", "--quiet", "--silent", "--no-messages", "--recursive", "--text", "--null", "--null-data", "--initial-tab", "--line-buffered", "--unix-byte-offsets"],
  longArg: ["--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--include", "--exclude", "--exclude-dir", "--label", "--binary-files", "--devices", "--directories"],
  longOptArg: ["--color", "--colour"],
  recursive: (p) => has(p, "-r", "--recursive") || p.options.some((o) => (o.name === "-d" || o.name === "--directories") && o.value === "recurse"),
  defaultPath: (p) => has(p, "-r", "--recursive"),
  extra: (p) => p.options.some((o) => (o.name === "-D" || o.name === "--devices") && o.value !== "skip" && o.value !== "read") ? "an unknown --devices action" : null
});
var rg = spec({
  operands: "pattern",
  patternOptions: ["-e", "-f", "--regexp", "--file", "--files", "--type-list"],
  pathOptions: ["-f", "--file"],
  short: "iswxvclnNoHIqUaPSFu.bp",
  shortArg: "egtTABCmMrjEd",
  long: ["--hidden", "--no-hidden", "--no-ignore", "--no-ignore-vcs", "--no-ignore-parent", "--no-ignore-dot", "--no-ignore-global", "--no-ignore-exclude", "--ignore", "--files", "--files-with-matches", "--files-without-match", "--count", "--count-matches", "--json", "--vimgrep", "--ignore-case", "--smart-case", "--case-sensitive", "--fixed-strings", "--word-regexp", "--line-regexp", "--line-number", "--no-line-number", "--no-heading", "--heading", "--with-filename", "--no-filename", "--trim", "--multiline", "--multiline-dotall", "--only-matching", "--type-list", "--no-messages", "--column", "--no-column", "--stats", "--quiet", "--invert-match", "--pcre2", "--null", "--text", "--binary", "--byte-offset", "--crlf", "--passthru", "--unrestricted", "--no-config", "--one-file-system", "--max-columns-preview", "--glob-case-insensitive", "--pretty", "--no-unicode", "--debug", "--trace", "--sort-files"],
  longArg: ["--glob", "--iglob", "--type", "--type-not", "--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--max-depth", "--maxdepth", "--max-filesize", "--sort", "--sortr", "--replace", "--encoding", "--threads", "--max-columns", "--engine", "--color", "--colors", "--path-separator", "--field-match-separator", "--field-context-separator", "--context-separator"],
  recursive: true,
  defaultPath: true
});
var sort = spec({
  operands: "paths",
  short: "bdfgiMhnRrVcCmsuz",
  shortArg: "ktS",
  long: ["--ignore-leading-blanks", "--dictionary-order", "--ignore-case", "--general-numeric-sort", "--ignore-nonprinting", "--month-sort", "--human-numeric-sort", "--numeric-sort", "--random-sort", "--reverse", "--version-sort", "--merge", "--stable", "--unique", "--zero-terminated", "--debug"],
  longArg: ["--key", "--field-separator", "--buffer-size", "--parallel", "--sort"],
  longOptArg: ["--check"]
});
var sumOptions = { operands: "paths", short: "btz", long: ["--binary", "--tag", "--text", "--zero"] };
var READ_ONLY_COMMANDS = {
  ls,
  dir: ls,
  cat: spec({ operands: "paths", short: "AbeEnstTuv", long: ["--number", "--number-nonblank", "--show-all", "--show-ends", "--show-tabs", "--squeeze-blank", "--show-nonprinting"] }),
  head: headTail,
  tail: headTail,
  wc: spec({ operands: "paths", short: "clmwL", long: ["--bytes", "--chars", "--lines", "--words", "--max-line-length"], longArg: ["--total"] }),
  file: spec({ operands: "paths", short: "bhiLkNnprsz0", long: ["--brief", "--mime", "--mime-type", "--mime-encoding", "--dereference", "--no-dereference", "--keep-going", "--raw", "--special-files", "--uncompress", "--print0"] }),
  stat: spec({ operands: "paths", short: "Lft", shortArg: "c", long: ["--dereference", "--file-system", "--terse"], longArg: ["--format", "--printf"] }),
  du: spec({
    operands: "paths",
    short: "abchklmsSxP0",
    shortArg: "dBt",
    long: ["--all", "--apparent-size", "--bytes", "--total", "--human-readable", "--si", "--summarize", "--separate-dirs", "--one-file-system", "--count-links", "--inodes", "--null", "--no-dereference"],
    longArg: ["--max-depth", "--block-size", "--threshold", "--exclude", "--time-style"],
    longOptArg: ["--time"],
    recursive: true,
    defaultPath: true
  }),
  df: spec({ operands: "paths", short: "ahHiklPTv", long: ["--all", "--human-readable", "--si", "--inodes", "--local", "--portability", "--print-type", "--total", "--no-sync", "--sync"], longArg: ["--type", "--exclude-type", "--block-size"], longOptArg: ["--output"] }),
  tree: spec({
    operands: "paths",
    short: "adfFipsughDQNrtvxACJS",
    shortArg: "LIP",
    long: ["--noreport", "--dirsfirst", "--filesfirst", "--du", "--si", "--prune", "--matchdirs", "--ignore-case", "--gitignore"],
    longArg: ["--charset", "--filelimit", "--timefmt", "--sort"],
    recursive: true,
    defaultPath: true
  }),
  pwd: spec({ operands: "none", short: "LP" }),
  whoami: spec({ operands: "none" }),
  id: spec({ operands: "text", short: "gGnruz", long: ["--group", "--groups", "--name", "--real", "--user", "--zero"] }),
  uname: spec({ operands: "none", short: "asnrvmpio", long: ["--all", "--kernel-name", "--nodename", "--kernel-release", "--kernel-version", "--machine", "--processor", "--hardware-platform", "--operating-system"] }),
  hostname: spec({ operands: "none", short: "fsidAI", long: ["--fqdn", "--short", "--ip-address", "--domain", "--all-fqdns", "--all-ip-addresses"] }),
  uptime: spec({ operands: "none", short: "ps", long: ["--pretty", "--since"] }),
  date: spec({
    operands: "text",
    short: "uR",
    shortArg: "d",
    shortOptArg: "I",
    long: ["--utc", "--universal", "--rfc-email"],
    longArg: ["--date"],
    longOptArg: ["--iso-8601", "--rfc-3339"],
    extra: (p, args) => p.operands.some((i) => !args[i].value.startsWith("+")) ? "an operand that would set the clock" : null
  }),
  echo: anyWords,
  true: anyWords,
  false: anyWords,
  printf: spec({ operands: "text", permute: false }),
  basename: spec({ operands: "text", short: "az", shortArg: "s", long: ["--multiple", "--zero"], longArg: ["--suffix"] }),
  dirname: spec({ operands: "text", short: "z", long: ["--zero"] }),
  realpath: spec({ operands: "paths", short: "eEmLPqsz", long: ["--canonicalize-existing", "--canonicalize-missing", "--logical", "--physical", "--quiet", "--strip", "--no-symlinks", "--zero"] }),
  readlink: spec({ operands: "paths", short: "efmnqsvz", long: ["--canonicalize", "--canonicalize-existing", "--canonicalize-missing", "--no-newline", "--quiet", "--silent", "--verbose", "--zero"] }),
  which: spec({ operands: "text", short: "a" }),
  type: spec({ operands: "text", short: "aftpP" }),
  grep: grepFamily,
  egrep: grepFamily,
  fgrep: grepFamily,
  rg,
  find: checkFind,
  sort,
  uniq: spec({ operands: "paths", maxOperands: 1, short: "cdDiuz", shortArg: "fsw", long: ["--count", "--repeated", "--ignore-case", "--unique", "--zero-terminated"], longArg: ["--skip-fields", "--skip-chars", "--check-chars"], longOptArg: ["--all-repeated", "--group"] }),
  cut: spec({ operands: "paths", short: "snz", shortArg: "bcdf", long: ["--complement", "--only-delimited", "--zero-terminated"], longArg: ["--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"] }),
  nl: spec({ operands: "paths", short: "p", shortArg: "bdfhilnsvw" }),
  tr: spec({ operands: "text", short: "cdsCt", long: ["--complement", "--delete", "--squeeze-repeats", "--truncate-set1"] }),
  diff: spec({
    operands: "paths",
    short: "abBcdeEfiNlnpqrsStTuwyZ",
    shortArg: "CUxW",
    long: ["--brief", "--recursive", "--side-by-side", "--ignore-case", "--ignore-all-space", "--ignore-space-change", "--ignore-blank-lines", "--ignore-tab-expansion", "--ignore-trailing-space", "--new-file", "--unidirectional-new-file", "--text", "--no-dereference", "--report-identical-files", "--suppress-common-lines", "--minimal", "--speed-large-files", "--expand-tabs", "--initial-tab", "--strip-trailing-cr", "--show-c-function", "--left-column", "--normal", "--ed", "--rcs"],
    longArg: ["--exclude", "--label", "--width", "--show-function-line", "--ignore-matching-lines", "--tabsize", "--horizon-lines"],
    longOptArg: ["--unified", "--context", "--color"],
    recursive: (p) => has(p, "-r", "--recursive")
  }),
  cmp: spec({ operands: "paths", maxOperands: 2, short: "blsz", shortArg: "in", long: ["--print-bytes", "--verbose", "--quiet", "--silent"], longArg: ["--ignore-initial", "--bytes"] }),
  md5sum: spec(sumOptions),
  sha1sum: spec(sumOptions),
  sha256sum: spec(sumOptions),
  sha512sum: spec(sumOptions),
  b2sum: spec(sumOptions),
  jq: checkJqCommand(),
  sed: spec({
    operands: "pattern",
    patternOptions: ["-e", "--expression"],
    short: "nEsuz",
    shortArg: "el",
    long: ["--quiet", "--silent", "--regexp-extended", "--separate", "--unbuffered", "--null-data", "--posix", "--debug", "--sandbox"],
    longArg: ["--expression", "--line-length"],
    extra: (p, args) => {
      const scripts = p.options.filter((o) => o.name === "-e" || o.name === "--expression").map((o) => o.value ?? "");
      if (!scripts.length) {
        const first = p.operands[0];
        if (first === void 0) return "no sed script";
        scripts.push(args[first].value);
      }
      for (const s of scripts) {
        const why = checkSedScript(s);
        if (why) return why;
      }
      return null;
    }
  }),
  git: checkGit
};
function checkJqCommand() {
  const inner = spec({
    operands: "pattern",
    short: "rcSesnajCMR",
    long: ["--raw-output", "--compact-output", "--sort-keys", "--exit-status", "--slurp", "--null-input", "--ascii-output", "--join-output", "--raw-output0", "--color-output", "--monochrome-output", "--raw-input", "--tab", "--seq", "--stream", "--unbuffered"],
    longArg: ["--indent"],
    extra: (p, args) => {
      const first = p.operands[0];
      return first === void 0 ? null : checkJqFilter(args[first].value);
    }
  });
  return (args, env) => {
    const rest = [];
    for (let i = 0; i < args.length; i++) {
      if (args[i].value === "--arg" || args[i].value === "--argjson") {
        if (i + 2 >= args.length) return `${args[i].value} needs a name and a value`;
        i += 2;
      } else rest.push(args[i]);
    }
    return inner(rest, env);
  };
}

// src/main/runtime/permissions/shell/classify.ts
var SYNTAX_NAMES = {
  Subshell: "a subshell",
  Block: "a command group",
  IfClause: "an if statement",
  WhileClause: "a loop",
  ForClause: "a loop",
  CaseClause: "a case statement",
  FuncDecl: "a function definition",
  DeclClause: "declare/export/local/readonly",
  TestClause: "a [[ \u2026 ]] test",
  ArithmCmd: "an arithmetic command",
  LetClause: "let",
  TimeClause: "time",
  CoprocClause: "a coprocess"
};
function repoRootOf(dir) {
  for (let d = dir; ; d = dirname4(d)) {
    if (existsSync3(join10(d, ".git"))) return d;
    if (dirname4(d) === d) return dir;
  }
}
var Classifier = class {
  constructor(ctx) {
    this.ctx = ctx;
  }
  ctx;
  env(cwd2) {
    return {
      cwd: cwd2,
      readPath: (arg, how) => this.readPath(arg, how?.cwd ?? cwd2),
      repoRoot: (at) => repoRootOf(at ?? cwd2),
      protectedUnder: (dir) => this.ctx.protectedUnder(dir)
    };
  }
  readPath(arg, cwd2) {
    if (arg.value === "-" && !arg.glob) return null;
    let paths2;
    if (arg.glob) {
      const expanded = expandGlob(arg.glob, cwd2);
      if (expanded === null) return `the glob ${arg.value} names too many files to check`;
      paths2 = expanded.length ? expanded : [resolve7(cwd2, arg.value)];
    } else paths2 = [isAbsolute5(arg.value) ? resolve7(arg.value) : resolve7(cwd2, arg.value)];
    for (const p of paths2) {
      const why = this.ctx.checkRead(p);
      if (why) return why;
    }
    return null;
  }
  redirect(r, state) {
    const op = redirOp(r);
    if (op === "<<" || op === "<<-" || op === "<<<") return "a here-document or here-string";
    if (op === "<>") return "a read-write redirection";
    const w = wordValue(r.Word, this.ctx.home);
    if (!w.ok) return `a redirection using ${w.why}`;
    if (op === "<") return this.readPath(w, state.cwd);
    if ((op === ">&" || op === "<&") && !w.glob && /^(\d+|-)$/.test(w.value)) return null;
    if (op === "<&") return "an unusual input redirection";
    if (w.value === "/dev/null" && !w.glob) return null;
    return `output redirection to ${w.value}`;
  }
  call(cmd, state) {
    if (cmd.Assigns.length) return "an environment assignment before the command (NAME=value can change what runs: PAGER, GIT_PAGER, LD_PRELOAD)";
    const args = [];
    for (const word of cmd.Args) {
      const v = wordValue(word, this.ctx.home);
      if (!v.ok) return `it uses ${v.why}`;
      args.push(v);
    }
    if (!args.length) return null;
    const [name, ...rest] = args;
    if (name.glob) return "a glob as the command name";
    if (name.value.includes("/")) return `a command run by its path (${name.value})`;
    if (name.value === "cd") return this.cd(rest, state);
    const check = Object.hasOwn(READ_ONLY_COMMANDS, name.value) ? READ_ONLY_COMMANDS[name.value] : void 0;
    if (!check) return `${name.value} is not on the read-only list`;
    const why = check(rest, this.env(state.cwd));
    return why && `${name.value}: ${why}`;
  }
  cd(args, state) {
    const operands = args.filter((a) => a.value !== "-L" && a.value !== "-P");
    if (operands.length > 1 || operands.some((a) => a.glob || a.value === "-")) return "an unusual cd";
    const target2 = operands.length ? resolve7(state.cwd, operands[0].value) : this.ctx.home;
    if (!statSync2(target2, { throwIfNoEntry: false })?.isDirectory()) return `cd to ${target2}, which is not a directory`;
    const why = this.readPath({ value: target2 }, state.cwd);
    if (why) return why;
    state.cwd = target2;
    return null;
  }
  stmt(s, state) {
    if (s.Background) return "it starts a background job";
    if (s.Coprocess) return "a coprocess";
    for (const r of s.Redirs) {
      const why = this.redirect(r, state);
      if (why) return why;
    }
    const cmd = s.Cmd;
    if (!cmd) return null;
    const type = nodeType(cmd);
    if (type === "CallExpr") return this.call(cmd, state);
    if (type === "BinaryCmd") {
      const op = binOp(cmd);
      if (op === "&&" || op === "||") return this.stmt(cmd.X, state) ?? this.stmt(cmd.Y, state);
      if (op === "|" || op === "|&") return this.stmt(cmd.X, { ...state }) ?? this.stmt(cmd.Y, { ...state });
      return `the operator ${op}`;
    }
    return `it uses ${SYNTAX_NAMES[type] ?? `shell syntax (${type})`}`;
  }
};
function classifyReadOnly(command, ctx) {
  if (!command.trim()) return { readOnly: false, reason: "an empty command" };
  const parsed = parseShell(command);
  if (!parsed.ok) return { readOnly: false, reason: `the shell parser could not read it (${parsed.error})` };
  const c = new Classifier(ctx);
  const state = { cwd: ctx.cwd };
  for (const s of parsed.file.Stmts) {
    const why = c.stmt(s, state);
    if (why) return { readOnly: false, reason: why };
  }
  return { readOnly: true };
}

// src/main/runtime/permissions/bash-read-only.ts
function bashReadOnlyVerdict(command, policy) {
  return classifyReadOnly(command, {
    cwd: policy.cwd,
    home: policy.home,
    checkRead: (abs) => policy.bashReadRefusal(abs),
    protectedUnder: (dir) => policy.bashRecursiveRefusal(dir)
  });
}

// src/main/runtime/permissions/decide-bash.ts
import { existsSync as existsSync4 } from "node:fs";
import { dirname as dirname5, join as join11, resolve as resolve8 } from "node:path";

// src/main/runtime/permissions/rules.ts
var RULE_BEHAVIORS = ["allow", "deny", "ask"];
var emptyRules = () => ({ allow: [], deny: [], ask: [] });
function mergeRules(...sets) {
  return { allow: sets.flatMap((s) => s.allow), deny: sets.flatMap((s) => s.deny), ask: sets.flatMap((s) => s.ask) };
}
var TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_\-.*]*$/;
function parseRule(raw, source, root2) {
  const text2 = raw.trim();
  if (!text2) return { ok: false, error: "the rule is empty" };
  const open5 = text2.indexOf("(");
  if (open5 === -1) {
    if (text2.includes(")")) return { ok: false, error: `"${raw}" has ")" without "("` };
    return TOOL_NAME.test(text2) ? { ok: true, rule: { toolName: text2, source, root: root2, raw } } : { ok: false, error: `"${raw}" is not a tool name` };
  }
  const toolName = text2.slice(0, open5).trim();
  if (!TOOL_NAME.test(toolName)) return { ok: false, error: `"${toolName}" is not a tool name` };
  if (!text2.endsWith(")")) return { ok: false, error: `"${raw}" is missing the closing ")"`, toolName };
  const content = text2.slice(open5 + 1, -1).trim();
  if (content === "" || content === "*") return { ok: true, rule: { toolName, source, root: root2, raw } };
  return { ok: true, rule: { toolName, content, source, root: root2, raw } };
}
var canonical = (name) => name === "Task" ? "Agent" : name;
function ruleAppliesToTool(ruleTool, toolName) {
  if (canonical(ruleTool) === canonical(toolName)) return true;
  if (ruleTool === "Edit" && FILE_EDIT_TOOL_NAMES.includes(toolName)) return true;
  if (ruleTool === "Read" && FILE_READ_TOOL_NAMES.includes(toolName)) return true;
  if (ruleTool.startsWith("mcp__") && !ruleTool.includes("*") && ruleTool.split("__").length === 2) return toolName.startsWith(`${ruleTool}__`);
  if (ruleTool.includes("*")) return new RegExp(`^${ruleTool.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`).test(toolName);
  return false;
}

// src/main/runtime/permissions/decide-bash.ts
var ruleIsForBash = (rule) => ruleAppliesToTool(rule.toolName, "Bash");
function bashCandidates(command, parsed) {
  return [...new Set([command.trim(), ...parsed.segments, ...parsed.nested].flatMap(commandVariants))];
}
function bashRuleHits(rules, command, parsed) {
  const candidates = bashCandidates(command, parsed);
  return rules.find((r) => ruleIsForBash(r) && (r.content === void 0 || candidates.some((c) => matchBashPattern(r.content, c))));
}
function namedPaths(word, cwd2, home) {
  const abs = (p) => p.startsWith("~/") ? join11(home, p.slice(2)) : resolve8(cwd2, p);
  const out = [abs(word)];
  if (/[*?[]/.test(word)) out.push(...expandGlob(word, cwd2) ?? []);
  const colon = word.indexOf(":");
  if (colon > 0 && colon < word.length - 1 && !word.includes("://")) out.push(abs(word.slice(colon + 1).replace(/^\//, "")));
  const eq = word.indexOf("=");
  if (word.startsWith("-") && eq > 0) out.push(abs(word.slice(eq + 1)));
  return out;
}
function bashReadsDeniedPath(parsed, policy) {
  for (const seg of [...parsed.segments, ...parsed.nested]) {
    const words = shellWords(seg) ?? seg.split(/\s+/);
    for (const w of words.slice(1)) {
      if (!w || w.startsWith("-") && !w.includes("=")) continue;
      for (const p of namedPaths(w, policy.cwd, policy.home)) {
        const hit = policy.deniedBy(p, "read") ?? policy.deniedBy(p, "write");
        if (hit) return hit;
      }
    }
  }
  return void 0;
}
var GIT_CONTENT = /* @__PURE__ */ new Set(["show", "diff", "grep", "blame", "annotate", "cat-file", "whatchanged", "format-patch", "archive", "bundle", "difftool", "log", "reflog", "stash", "range-diff", "notes", "fast-export"]);
function gitRevealsProtected(parsed, policy) {
  for (const seg of [...parsed.segments, ...parsed.nested]) {
    const words = shellWords(seg) ?? seg.split(/\s+/);
    const at = words.findIndex((w) => w === "git" || w.endsWith("/git"));
    if (at === -1) continue;
    let i = at + 1;
    let cwd2 = policy.cwd;
    for (; i < words.length && words[i].startsWith("-"); i++) if (words[i] === "-C" && words[i + 1]) cwd2 = resolve8(cwd2, words[++i]);
    if (words[i] === void 0 || !GIT_CONTENT.has(words[i])) continue;
    const rule = policy.protectedUnder(repoRoot(cwd2), "Bash");
    if (rule) return rule;
  }
  return void 0;
}
function repoRoot(dir) {
  for (let d = dir; ; d = dirname5(d)) {
    if (existsSync4(join11(d, ".git"))) return d;
    if (dirname5(d) === d) return dir;
  }
}
function bashAllowed(allow, command, parsed, policy) {
  const bashRules = allow.filter(ruleIsForBash);
  const bare = bashRules.find((r) => r.content === void 0);
  if (bare) return bare;
  const exact = bashRules.find((r) => r.content === command.trim());
  if (exact) return exact;
  if (parsed.unsure.length || parsed.segments.length === 0) return void 0;
  let first;
  for (const seg of parsed.segments) {
    const hit = bashRules.find((r) => matchBashPattern(r.content, seg));
    if (!hit && !bashReadOnlyVerdict(seg, policy).readOnly) return void 0;
    first ??= hit;
  }
  return first;
}
var MULTI_COMMAND_TOOLS = /* @__PURE__ */ new Set(["git", "npm", "pnpm", "yarn", "npx", "bun", "deno", "cargo", "go", "docker", "kubectl", "pip", "pip3", "poetry", "uv", "gh", "dotnet", "mvn", "gradle", "./gradlew", "make"]);
var EXACT_ONLY = /* @__PURE__ */ new Set(["rm", "sudo", "curl", "wget", "chmod", "chown", "dd", "mv", "kill", "pkill", "killall", "ssh", "scp", "eval", "bash", "sh", "zsh", "python", "python3", "node", "exec"]);
function suggestBashRules(command, policy) {
  const parsed = parseBashCommand(command);
  if (parsed.unsure.length) return [`Bash(${command.trim()})`];
  const out = parsed.segments.filter((s) => !bashReadOnlyVerdict(s, policy).readOnly).map((seg) => {
    const w = shellWords(seg);
    if (!w || !w.length || EXACT_ONLY.has(w[0])) return `Bash(${seg})`;
    if (MULTI_COMMAND_TOOLS.has(w[0]) && w[1] && !w[1].startsWith("-")) {
      if (w[1] === "run" && w[2]) return `Bash(${w[0]} run ${w[2]}:*)`;
      return `Bash(${w[0]} ${w[1]}:*)`;
    }
    return `Bash(${w[0]}:*)`;
  });
  return [...new Set(out)];
}

// src/main/runtime/permissions/tool-call.ts
import { isAbsolute as isAbsolute6, join as join12 } from "node:path";
var NO_APPROVAL_TOOLS = ["TodoWrite", "Agent", "Task", "SendMessage", "TaskOutput", "TaskStop", "ExitPlanMode", "SetPhase", "TeamCreate", "TeamDelete", "TaskCreate", "TaskList", "TaskGet", "TaskUpdate", "TaskClaim", "RequestShutdown", "RequestPlanApproval", "RespondToRequest"];
function str(v) {
  return typeof v === "string" && v.trim() !== "" ? v : void 0;
}
function describeCall(tool, input, cwd2) {
  const args = typeof input === "object" && input !== null ? input : {};
  const name = tool.name;
  const meta = BUILTIN_TOOL_META[name];
  const readOnly = tool.readOnly ?? meta?.readOnly ?? false;
  if (name === "Bash") return { name, kind: "bash", readOnly: false, command: str(args.command) ?? "", unsandboxed: args.dangerouslyDisableSandbox === true };
  if (FILE_EDIT_TOOL_NAMES.includes(name)) {
    const p = str(args.file_path) ?? str(args.notebook_path);
    return { name, kind: "edit", readOnly: false, path: p && resolveToolPath(cwd2, p) };
  }
  if (FILE_READ_TOOL_NAMES.includes(name)) {
    const file = str(args.file_path) ?? str(args.notebook_path);
    if (file) return { name, kind: "read", readOnly: true, path: resolveToolPath(cwd2, file) };
    let dir = resolveToolPath(cwd2, str(args.path) ?? ".");
    const pattern = str(args.pattern);
    if (name === "Glob" && pattern) {
      const { base } = splitGlobBase(pattern.startsWith("~/") ? resolveToolPath(cwd2, pattern) : pattern.trim());
      if (base) dir = isAbsolute6(base) ? base : join12(dir, base);
    }
    return { name, kind: "read", readOnly: true, path: dir, searchesDirectory: true };
  }
  if (name === "WebFetch" || name === "WebSearch") {
    const url2 = str(args.url);
    let host;
    try {
      host = url2 ? new URL(url2).hostname.toLowerCase() : void 0;
    } catch {
    }
    return { name, kind: "network", readOnly: true, url: url2, host };
  }
  if (NO_APPROVAL_TOOLS.includes(name)) return { name, kind: "free", readOnly: true, subagentType: str(args.subagent_type) };
  return { name, kind: "other", readOnly };
}

// src/main/runtime/permissions/decide.ts
function hostMatches(content, host, broad) {
  if (!host || !content.startsWith("domain:")) return false;
  const domain = content.slice(7).trim().toLowerCase();
  if (domain.startsWith("*.")) return host.endsWith(domain.slice(1));
  return host === domain || broad && host.endsWith(`.${domain}`);
}
function ruleCovers(rule, call, ctx, behavior) {
  if (!ruleAppliesToTool(rule.toolName, call.name)) return false;
  if (rule.content === void 0) return true;
  const mode2 = behavior === "allow" ? "allow" : "deny";
  if (call.kind === "edit" || call.kind === "read") {
    if (!call.path) return false;
    if (pathRuleMatches(rule.content, rule.root, ctx, call.path, mode2)) return true;
    return Boolean(call.searchesDirectory) && mode2 === "deny" && pathRuleMatches(rule.content, rule.root, ctx, join13(call.path, "x"), mode2);
  }
  if (call.kind === "network") return hostMatches(rule.content, call.host, mode2 === "deny");
  if (call.name === "Agent" || call.name === "Task") return rule.content === call.subagentType;
  return behavior !== "allow";
}
function suggestRules(call, cwd2, policy) {
  if (call.kind === "bash") return suggestBashRules(call.command ?? "", policy ?? new PathPolicy({ cwd: cwd2 }));
  if (call.kind === "edit" && call.path) return [isInside(cwd2, call.path) ? "Edit(./**)" : `Edit(/${join13(call.path, "..")}/**)`];
  if (call.kind === "read" && call.path) return [`Read(/${call.searchesDirectory ? call.path : join13(call.path, "..")}/**)`];
  if (call.kind === "network" && call.host) return [`${call.name}(domain:${call.host})`];
  return [call.name];
}
function denyMessage(call, rule) {
  const where = rule.source === "session" ? "for this session" : `in ${rule.source} settings`;
  return `Permission to use ${call.name} was denied by the rule "${rule.raw}" ${where}. Do not retry this call; find another way or tell the user it is blocked.`;
}
function shown(path, cwd2) {
  return isInside(cwd2, path) ? relative4(cwd2, path) || "." : path;
}
function askReason(call, cwd2, inside, parsed, policy) {
  if (call.kind === "bash") {
    const unsure = parsed?.unsure ?? [];
    const outside = call.unsandboxed ? " outside the sandbox (it asked to leave it)" : "";
    const history = policy && parsed ? gitRevealsProtected(parsed, policy) : void 0;
    const why = history ? ` (git can show files the rule "${history.raw}" protects from the repository's history)` : "";
    return `Bash wants to run${outside}: ${call.command}${unsure.length ? ` (it uses ${unsure.join(", ")}, which allow rules do not cover)` : ""}${why}`;
  }
  if (call.kind === "edit") return `${call.name} wants to change ${call.path ? shown(call.path, cwd2) : "a file"}${inside ? "" : ", outside the working directory"}${call.path && policy?.runsLater(call.path) ? " (a file other programs run or obey: git hooks and config, settings, MCP servers, editor tasks)" : ""}`;
  if (call.kind === "read") return `${call.name} wants to read ${call.path}, outside the working directory`;
  if (call.kind === "network") return `${call.name} wants to fetch ${call.url ?? "a URL"}`;
  return `${call.name} needs approval`;
}
var PLAN_MESSAGE = (name, why) => `${name} is not available in plan mode, which allows only read-only tools (Read, Glob, Grep, read-only Bash such as ls or git status)${why ? `; this command is not read-only: ${why}` : ""}. Describe the change you would make instead of making it.`;
function decidePermission(check) {
  const { mode: mode2, rules, cwd: cwd2 } = check;
  const ctx = { cwd: cwd2, home: check.home };
  const policy = check.policy ?? new PathPolicy({ cwd: cwd2, roots: check.additionalDirectories ?? [], rules: () => rules, home: check.home });
  const call = describeCall(check.tool, check.input, cwd2);
  const parsed = call.kind === "bash" ? parseBashCommand(call.command ?? "") : void 0;
  const sandbox = check.sandbox ?? { available: true };
  const floor = mode2 === "plan" || check.readOnlyAgent ? "read-only" : "workspace";
  const denied = parsed ? bashRuleHits(rules.deny, call.command ?? "", parsed) ?? bashReadsDeniedPath(parsed, policy) : rules.deny.find((r) => ruleCovers(r, call, ctx, "deny"));
  if (denied) return { behavior: "deny", message: denyMessage(call, denied), rule: denied.raw };
  if (call.kind === "bash" && call.unsandboxed && floor === "read-only")
    return { behavior: "deny", message: `Bash may not leave the sandbox here: ${mode2 === "plan" ? "plan mode" : "this agent is read-only, and"} its commands run without write access. Run the command without dangerouslyDisableSandbox.` };
  const history = parsed ? gitRevealsProtected(parsed, policy) : void 0;
  if (mode2 === "bypassPermissions") {
    if (call.kind !== "bash") return { behavior: "allow" };
    if (history)
      return { behavior: "deny", message: `${denyMessage(call, history)} (git can print protected files from the repository's history, which no sandbox hides; a person must approve such a command, and bypass mode asks no one).`, rule: history.raw };
    if (call.unsandboxed && sandbox.available)
      return { behavior: "deny", message: "Bash may not leave the sandbox in bypassPermissions mode: that needs a person to approve it. Run the command in the sandbox, or ask the user to run it (or to allow its domains in sandbox.network.allowedDomains)." };
    return { behavior: "allow", sandbox: sandbox.available ? floor : "off" };
  }
  const verdict = call.kind === "bash" && !call.unsandboxed ? bashReadOnlyVerdict(call.command ?? "", policy) : void 0;
  const readOnlyCall = call.kind === "bash" ? verdict?.readOnly === true : call.readOnly;
  if (mode2 === "plan" && !readOnlyCall && call.kind !== "free") return { behavior: "deny", message: PLAN_MESSAGE(call.name, verdict && !verdict.readOnly ? verdict.reason : void 0) };
  const inside = call.path ? policy.inBounds(call.path) : true;
  let decision;
  const bashAuto = (level, rule) => sandbox.available ? { behavior: "allow", sandbox: level, ...rule ? { rule } : {} } : void 0;
  const noSandbox = sandbox.available ? "" : ` (the Bash sandbox is unavailable: ${sandbox.reason}; commands that would run without asking inside it need approval)`;
  const asked = parsed ? bashRuleHits(rules.ask, call.command ?? "", parsed) : rules.ask.find((r) => ruleCovers(r, call, ctx, "ask"));
  if (asked) decision = { behavior: "ask", reason: `${askReason(call, cwd2, inside, parsed, policy)} (the rule "${asked.raw}" asks first)`, suggestedRules: [] };
  else if (parsed) {
    const allowed = call.unsandboxed || history ? void 0 : bashAllowed(rules.allow, call.command ?? "", parsed, policy);
    const auto = allowed && bashAuto(readOnlyCall ? "read-only" : floor, allowed.raw);
    if (auto) return auto;
  } else {
    const allowed = rules.allow.find((r) => ruleCovers(r, call, ctx, "allow"));
    if (allowed) return { behavior: "allow", rule: allowed.raw };
  }
  if (!decision) {
    if (call.kind === "free") return { behavior: "allow" };
    if (call.kind === "read" && inside) return { behavior: "allow" };
    if (call.kind === "bash" && readOnlyCall) {
      const auto = bashAuto("read-only");
      if (auto) return auto;
    }
    if (call.kind === "edit" && mode2 === "acceptEdits" && call.path && inside && !policy.runsLater(call.path)) return { behavior: "allow" };
    if (call.kind === "other" && call.readOnly) return { behavior: "allow" };
    const reason = askReason(call, cwd2, inside, parsed, policy) + (call.kind === "bash" ? noSandbox : "");
    decision = { behavior: "ask", reason, suggestedRules: call.unsandboxed ? [] : suggestRules(call, cwd2, policy) };
  }
  if (mode2 === "dontAsk") {
    const example = decision.suggestedRules[0] ?? suggestRules(call, cwd2, policy)[0];
    return {
      behavior: "deny",
      message: `${call.name} needs approval, and this agent runs in dontAsk mode, which denies whatever is not allowed in advance (${decision.reason}). A permissions.allow rule such as ${example} would allow it.`
    };
  }
  return decision;
}
function approvedSandbox(input, mode2, readOnlyAgent, sandbox) {
  const unsandboxed = typeof input === "object" && input !== null && input.dangerouslyDisableSandbox === true;
  if (!sandbox.available) return "off";
  if (mode2 === "plan" || readOnlyAgent) return "read-only";
  return unsandboxed ? "off" : "workspace";
}

// src/main/runtime/permissions/mode.ts
function effectiveMode(parentMode, definitionMode) {
  if (parentMode === "bypassPermissions" || parentMode === "acceptEdits" || parentMode === "plan") return parentMode;
  return definitionMode ?? parentMode;
}

// src/main/runtime/permissions/gate.ts
function headlessMessage(toolName, reason, suggested) {
  const flag = toolName === "Edit" || toolName === "Write" || toolName === "NotebookEdit" ? "acceptEdits" : "bypassPermissions";
  const example = suggested[0] ?? toolName;
  return `${toolName} needs approval and this run is headless, so it was denied (${reason}). Allow it with --permission-mode ${flag} (or bypassPermissions), or a permissions.allow rule like ${example} in .claude/settings.json.`;
}
function makeGate(opts, session) {
  const rules = () => mergeRules(opts.rules, session);
  const addSessionRule = (raw, behavior = "allow") => {
    const parsed = parseRule(raw, "session", opts.cwd);
    if (!parsed.ok) throw new Error(`Invalid permission rule: ${parsed.error}`);
    if (!session[behavior].some((r) => r.raw === parsed.rule.raw)) session[behavior].push(parsed.rule);
  };
  const deny = (message, toolName) => {
    opts.onDenied?.(message, toolName);
    return { behavior: "deny", message };
  };
  return {
    mode: opts.mode,
    rules,
    addSessionRule,
    async canUseTool(tool, input, toolUseId) {
      const sandbox = tool.name === "Bash" && opts.sandbox ? await opts.sandbox() : { available: true };
      const roots = [...opts.additionalDirectories ?? [], ...opts.extraRoots ?? []];
      const policy = new PathPolicy({ cwd: opts.cwd, roots, rules, home: opts.home });
      const decision = decidePermission({ mode: opts.mode, tool, input, rules: rules(), cwd: opts.cwd, additionalDirectories: roots, home: opts.home, policy, sandbox, readOnlyAgent: opts.readOnlyAgent });
      if (decision.behavior === "allow") return { behavior: "allow", ...decision.sandbox ? { sandbox: decision.sandbox } : {} };
      if (decision.behavior === "deny") return deny(decision.message, tool.name);
      if (opts.headless || !opts.ask) return deny(headlessMessage(tool.name, decision.reason, decision.suggestedRules), tool.name);
      let answer;
      try {
        answer = await opts.ask({ toolName: tool.name, input, toolUseId, reason: decision.reason, suggestedRules: decision.suggestedRules, mode: opts.mode, cwd: opts.cwd });
      } catch (err) {
        return deny(`${tool.name} was not run: the approval request failed (${err instanceof Error ? err.message : String(err)}).`, tool.name);
      }
      const approved = () => tool.name === "Bash" ? { behavior: "allow", sandbox: approvedSandbox(input, opts.mode, opts.readOnlyAgent === true, sandbox) } : { behavior: "allow" };
      if (answer === "allow_always") {
        for (const rule of decision.suggestedRules) addSessionRule(rule);
        return approved();
      }
      if (answer === "allow") return approved();
      return deny(`The user denied permission to use ${tool.name} for this call. Do not retry it as is; take another approach or ask the user how to proceed.`, tool.name);
    },
    forSubagent(child2) {
      return makeGate(
        {
          ...opts,
          mode: effectiveMode(opts.mode, child2.definitionMode),
          cwd: child2.cwd,
          ask: child2.ask ?? opts.ask,
          headless: child2.headless ?? opts.headless,
          readOnlyAgent: child2.readOnlyAgent ?? false,
          extraRoots: child2.extraRoots ?? []
        },
        session
      );
    }
  };
}
function createPermissionGate(opts) {
  return makeGate(opts, { allow: [], deny: [], ask: [] });
}

// src/main/runtime/permissions/settings.ts
import { existsSync as existsSync5, readFileSync } from "node:fs";
import { homedir as homedir5 } from "node:os";
import { dirname as dirname6, join as join14, resolve as resolve9 } from "node:path";

// src/main/runtime/permissions/json-position.ts
function jsonErrorOffset(text2) {
  let i = 0;
  const fail = () => {
    throw i;
  };
  const ws = () => {
    while (i < text2.length && (text2[i] === " " || text2[i] === "	" || text2[i] === "\n" || text2[i] === "\r")) i++;
  };
  const string = () => {
    i++;
    while (i < text2.length) {
      const c = text2[i];
      if (c === "\\") i += 2;
      else if (c === '"') {
        i++;
        return;
      } else if (c < " ") fail();
      else i++;
    }
    fail();
  };
  const value = () => {
    ws();
    const c = text2[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      ws();
      if (text2[i] === close) {
        i++;
        return;
      }
      for (; ; ) {
        if (c === "{") {
          ws();
          if (text2[i] !== '"') fail();
          string();
          ws();
          if (text2[i] !== ":") fail();
          i++;
        }
        value();
        ws();
        if (text2[i] === ",") i++;
        else if (text2[i] === close) {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') return string();
    const literal2 = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text2.slice(i, i + 400));
    if (!literal2) fail();
    else i += literal2[0].length;
  };
  try {
    value();
    ws();
    if (i < text2.length) fail();
    return -1;
  } catch (pos) {
    return Math.min(pos, text2.length);
  }
}

// src/main/runtime/permissions/settings.ts
var MANAGED_SETTINGS_FILE = "/etc/claude-code/managed-settings.json";
function lineColumnAt(text2, offset) {
  const before = text2.slice(0, Math.max(0, offset));
  const line2 = before.split("\n").length;
  return { line: line2, column: offset - before.lastIndexOf("\n") };
}
function jsonErrorPosition(text2) {
  const at = jsonErrorOffset(text2);
  return at === -1 ? { line: 1, column: 1 } : lineColumnAt(text2, at);
}
function locate(text2, value) {
  const at = text2.indexOf(JSON.stringify(value));
  return at === -1 ? { line: 1, column: 1 } : lineColumnAt(text2, at);
}
function loadFile(file, source, root2, home, out) {
  let text2;
  try {
    text2 = readFileSync(file, "utf8");
  } catch (err) {
    out.diagnostics.push({ file, line: 1, column: 1, severity: "error", code: "settings-unreadable", message: `Could not read settings: ${err.message}` });
    return;
  }
  out.files.push(file);
  if (text2.trim() === "") return;
  const diag = (at, severity, code, message) => {
    out.diagnostics.push({ file, ...at, severity, code, message });
  };
  let json;
  try {
    json = JSON.parse(text2);
  } catch (err) {
    const message = err.message;
    diag(jsonErrorPosition(text2), "error", "settings-invalid-json", `This settings file is not valid JSON (${message}); none of its permission rules apply until it is fixed.`);
    return;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    diag({ line: 1, column: 1 }, "error", "settings-not-object", 'Settings must be a JSON object like {"permissions": {"allow": [...]}}.');
    return;
  }
  readSandbox(json, text2, source, file, diag, out);
  const permissions = json.permissions;
  if (permissions === void 0) return;
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
    diag(locate(text2, "permissions"), "error", "permissions-not-object", '"permissions" must be an object with "allow", "deny" and "ask" lists.');
    return;
  }
  const p = permissions;
  for (const behavior of RULE_BEHAVIORS) {
    const list = p[behavior];
    if (list === void 0) continue;
    if (!Array.isArray(list)) {
      diag(locate(text2, behavior), "error", "permission-list-not-array", `"permissions.${behavior}" must be a list of rule strings, e.g. ["Bash(npm test:*)"].`);
      continue;
    }
    for (const entry of list) {
      if (typeof entry !== "string") {
        diag(locate(text2, entry), "error", "permission-rule-not-string", `Each entry of "permissions.${behavior}" must be a string; ${JSON.stringify(entry)} is ignored.`);
        continue;
      }
      const parsed = parseRule(entry, source, root2);
      if (parsed.ok) {
        out.rules[behavior].push(parsed.rule);
        continue;
      }
      if (behavior !== "allow" && parsed.toolName) {
        out.rules[behavior].push({ toolName: parsed.toolName, source, root: root2, raw: entry });
        diag(locate(text2, entry), "error", "permission-rule-malformed", `Malformed rule in "permissions.${behavior}": ${parsed.error}. Until it is fixed it applies to every ${parsed.toolName} call.`);
      } else {
        diag(locate(text2, entry), "error", "permission-rule-malformed", `Malformed rule in "permissions.${behavior}": ${parsed.error}. It is ignored.`);
      }
    }
  }
  const mode2 = p.defaultMode;
  if (mode2 !== void 0) {
    if (typeof mode2 === "string" && PERMISSION_MODES.includes(mode2)) out.defaultMode = mode2;
    else diag(locate(text2, mode2), "warning", "permission-mode-unknown", `Unknown "defaultMode" ${JSON.stringify(mode2)}; expected one of ${PERMISSION_MODES.join(", ")}. It is ignored.`);
  }
  const dirs = p.additionalDirectories;
  if (dirs !== void 0) {
    if (!Array.isArray(dirs) || dirs.some((d) => typeof d !== "string"))
      diag(locate(text2, "additionalDirectories"), "error", "additional-directories-invalid", '"permissions.additionalDirectories" must be a list of directory paths.');
    else
      for (const d of dirs) out.additionalDirectories.push(d.startsWith("~/") ? join14(home, d.slice(2)) : resolve9(root2, d));
  }
}
function readSandbox(json, text2, source, file, diag, out) {
  const sandbox = json.sandbox;
  if (sandbox === void 0) return;
  if (typeof sandbox !== "object" || sandbox === null || Array.isArray(sandbox)) return diag(locate(text2, "sandbox"), "error", "sandbox-not-object", '"sandbox" must be an object like {"network": {"allowedDomains": ["registry.npmjs.org"]}}.');
  const s = sandbox;
  const own = source === "user" || source === "managed";
  if (s.enabled === false) {
    if (own) out.sandbox.disabledBy = `"sandbox": {"enabled": false} in ${file}`;
    else diag(locate(text2, "enabled"), "warning", "sandbox-widen-ignored", `"sandbox.enabled": false is ignored here: only your user settings (~/.claude/settings.json) can turn the Bash sandbox off, never a project's own files.`);
  }
  const network = s.network;
  const domains = network && typeof network === "object" ? network.allowedDomains : void 0;
  if (domains === void 0) return;
  if (!Array.isArray(domains) || domains.some((d) => typeof d !== "string")) return diag(locate(text2, "allowedDomains"), "error", "sandbox-domains-invalid", '"sandbox.network.allowedDomains" must be a list of domain names.');
  if (own) out.sandbox.allowedDomains.push(...domains);
  else if (domains.length) diag(locate(text2, "allowedDomains"), "warning", "sandbox-widen-ignored", `"sandbox.network.allowedDomains" is ignored here: a project cannot open the network for its own commands. Put the domains in your user settings (~/.claude/settings.json) if you trust them.`);
}
function loadPermissionSettings(opts) {
  const home = opts.home ?? homedir5();
  const cwd2 = resolve9(opts.cwd);
  const out = { sandbox: { allowedDomains: [] }, rules: emptyRules(), additionalDirectories: [], diagnostics: [], files: [] };
  const managed = opts.managedFile === void 0 ? MANAGED_SETTINGS_FILE : opts.managedFile;
  const candidates = [
    { file: join14(home, ".claude", "settings.json"), source: "user", root: home },
    { file: join14(cwd2, ".claude", "settings.json"), source: "project", root: cwd2 },
    { file: join14(cwd2, ".claude", "settings.local.json"), source: "local", root: cwd2 }
  ];
  if (managed) candidates.push({ file: managed, source: "managed", root: dirname6(managed) });
  const seen = /* @__PURE__ */ new Set();
  for (const c of candidates) {
    if (seen.has(c.file) || !existsSync5(c.file)) continue;
    seen.add(c.file);
    loadFile(c.file, c.source, c.root, home, out);
  }
  return out;
}

// src/main/runtime/permissions/read-only-agent.ts
function isReadOnlyAgent(def) {
  const names = new Set((def?.disallowedTools ?? []).map((t) => t.replace(/\(.*$/s, "").trim()));
  return names.has("Write") && names.has("Edit");
}

// src/main/runtime/worktrees/create-worktree.ts
import { mkdir as mkdir5 } from "node:fs/promises";
import { hostname as hostname2 } from "node:os";
import { dirname as dirname8, isAbsolute as isAbsolute7, join as join16, relative as relative6, resolve as resolve12 } from "node:path";

// src/main/runtime/worktrees/git.ts
init_child_env();
import { realpath, stat as stat2 } from "node:fs/promises";
var IDENTITY_ENV = ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"];
var SIMPLE_GIT_GUARDED = /^(git_.*|editor|visual|pager|prefix|ssh_askpass)$/i;
var simpleGitModule;
async function gitIn(dir, options = {}) {
  const { simpleGit } = await (simpleGitModule ??= import("simple-git"));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SIMPLE_GIT_GUARDED.test(k) || IDENTITY_ENV.includes(k)));
  const git = simpleGit({
    baseDir: dir,
    config: options.config ?? [],
    allowEnvironment: IDENTITY_ENV,
    trimmed: false,
    maxConcurrentProcesses: 4,
    // simple-git only fails a command that exits non-zero AND writes to stderr; quiet failures
    // (`rev-parse --verify -q`, `symbolic-ref -q`) must fail too, or "no HEAD" would read as an empty answer.
    errors(error, result) {
      if (error) return error;
      if (result.exitCode === 0) return void 0;
      const stderr = Buffer.concat(result.stdErr).toString("utf8").trim();
      return Buffer.from(stderr || `git exited with code ${result.exitCode}`);
    }
  });
  return git.env(childEnv({ base }));
}
async function isDirectory(path) {
  try {
    return (await stat2(path)).isDirectory();
  } catch {
    return false;
  }
}
function errorText(err) {
  const message = err instanceof Error ? err.message : String(err);
  return message.trim();
}
var LOCK_ERROR = /\.lock'?: File exists|Unable to create '[^']*\.lock'|could not lock config file|cannot lock ref|Another git process seems to be running/i;
async function retryOnLock(op, attempts = 6) {
  let delay = 40;
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (attempt >= attempts || !LOCK_ERROR.test(errorText(err))) throw err;
      await new Promise((resolve24) => setTimeout(resolve24, delay));
      delay *= 2;
    }
  }
}
async function runGit(dir, args, options = {}) {
  const out = await retryOnLock(async () => (await gitIn(dir, options)).raw(args));
  return out.trim();
}
async function tryGit(dir, args) {
  try {
    return await runGit(dir, args);
  } catch {
    return null;
  }
}
async function isCheckoutRoot(path) {
  const top = await tryGit(path, ["rev-parse", "--show-toplevel"]);
  if (!top) return false;
  try {
    return await realpath(top) === await realpath(path);
  } catch {
    return false;
  }
}

// src/main/runtime/worktrees/metadata.ts
import { readdir as readdir4, readFile as readFile3, writeFile as writeFile3 } from "node:fs/promises";
import { dirname as dirname7, join as join15, resolve as resolve10 } from "node:path";
import { z as z4 } from "zod";
var FILE = "fanout.json";
var metadataSchema = z4.object({
  version: z4.literal(1),
  agentId: z4.string(),
  baseCommit: z4.string(),
  repoRoot: z4.string(),
  relativeCwd: z4.string(),
  createdAt: z4.string(),
  agentType: z4.string().optional(),
  description: z4.string().optional(),
  owner: z4.object({ pid: z4.number(), hostname: z4.string() }).optional()
});
async function adminDir(worktreePath) {
  return runGit(worktreePath, ["rev-parse", "--absolute-git-dir"]);
}
async function writeMetadata(worktreePath, meta) {
  await writeFile3(join15(await adminDir(worktreePath), FILE), JSON.stringify(meta, null, 2) + "\n", "utf8");
}
async function readMetadata(worktreePath, commonDir) {
  const dir = await tryGit(worktreePath, ["rev-parse", "--absolute-git-dir"]) ?? (commonDir ? await findAdminDir(commonDir, worktreePath) : null);
  if (!dir) return null;
  try {
    const parsed = metadataSchema.safeParse(JSON.parse(await readFile3(join15(dir, FILE), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
async function findAdminDir(commonDir, worktreePath) {
  const root2 = join15(commonDir, "worktrees");
  let names;
  try {
    names = await readdir4(root2);
  } catch {
    return null;
  }
  for (const name of names) {
    try {
      const gitdir = (await readFile3(join15(root2, name, "gitdir"), "utf8")).trim();
      if (resolve10(dirname7(resolve10(root2, name, gitdir))) === resolve10(worktreePath)) return join15(root2, name);
    } catch {
    }
  }
  return null;
}

// src/main/runtime/worktrees/repo.ts
import { realpath as realpath2 } from "node:fs/promises";
import { basename as basename2, relative as relative5, resolve as resolve11 } from "node:path";
var WorktreeError = class extends Error {
  name = "WorktreeError";
};
async function readRepo(cwd2) {
  const dir = resolve11(cwd2);
  if (!await isDirectory(dir)) {
    throw new WorktreeError(`isolation: worktree needs a git repository; ${dir} is not a directory`);
  }
  let top;
  try {
    top = await runGit(dir, ["rev-parse", "--show-toplevel"]);
  } catch (err) {
    const why = errorText(err);
    if (/not a git repository/i.test(why)) {
      throw new WorktreeError(`isolation: worktree needs a git repository; ${dir} is not inside one`);
    }
    throw new WorktreeError(`isolation: worktree needs a checkout with a working tree; git says for ${dir}: ${why}`);
  }
  if (!top) throw new WorktreeError(`isolation: worktree needs a checkout with a working tree; ${dir} is inside a bare repository`);
  const realCwd = await realpath2(dir);
  const repoRoot2 = await realpath2(top);
  const commonDir = await realpath2(resolve11(dir, await runGit(dir, ["rev-parse", "--git-common-dir"])));
  const head = await tryGit(dir, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  const branch = await tryGit(dir, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  const mainRoot = await mainWorktreeRoot(dir, commonDir);
  return {
    cwd: realCwd,
    repoRoot: repoRoot2,
    relativeCwd: relative5(repoRoot2, realCwd),
    commonDir,
    mainRoot,
    repoName: basename2(mainRoot).replace(/\.git$/, "") || "repo",
    head: head || null,
    branch: branch || null
  };
}
async function mainWorktreeRoot(dir, commonDir) {
  const listing = await runGit(dir, ["worktree", "list", "--porcelain"]);
  const first = listing.split("\n").find((line2) => line2.startsWith("worktree "));
  if (!first) return resolve11(commonDir, "..");
  const path = first.slice("worktree ".length);
  try {
    return await realpath2(path);
  } catch {
    return resolve11(path);
  }
}
function parseWorktreeList(porcelain) {
  const entries = [];
  for (const block2 of porcelain.split(/\n\s*\n/)) {
    const lines2 = block2.split("\n").filter(Boolean);
    const pathLine = lines2.find((l) => l.startsWith("worktree "));
    if (!pathLine) continue;
    const value = (key) => lines2.find((l) => l === key || l.startsWith(`${key} `));
    const branchRef = value("branch")?.slice("branch ".length) ?? null;
    entries.push({
      path: pathLine.slice("worktree ".length),
      head: value("HEAD")?.slice("HEAD ".length) ?? null,
      branch: branchRef ? branchRef.replace(/^refs\/heads\//, "") : null,
      locked: value("locked") !== void 0,
      prunable: value("prunable") !== void 0,
      bare: value("bare") !== void 0
    });
  }
  return entries;
}
async function listWorktrees(dir) {
  return parseWorktreeList(await runGit(dir, ["worktree", "list", "--porcelain"]));
}

// src/main/runtime/worktrees/repo-queue.ts
var tails = /* @__PURE__ */ new Map();
function enqueueForRepo(key, op) {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(op, op);
  const tail2 = run.then(
    () => void 0,
    () => void 0
  );
  tails.set(key, tail2);
  void tail2.then(() => {
    if (tails.get(key) === tail2) tails.delete(key);
  });
  return run;
}

// src/main/runtime/worktrees/create-worktree.ts
var BRANCH_PREFIX = "fanout/";
var DEFAULT_WORKTREES_FOLDER = ".fanout-worktrees";
var AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
function branchFor(agentId) {
  return `${BRANCH_PREFIX}${agentId}`;
}
function checkAgentId(agentId) {
  if (!AGENT_ID.test(agentId) || agentId.includes("..") || agentId.endsWith(".lock")) {
    throw new WorktreeError(
      `isolation: worktree: agent id ${JSON.stringify(agentId)} cannot name a branch and a folder (use letters, digits, '.', '_' and '-')`
    );
  }
}
function isInside2(parent, child2) {
  const rel = relative6(parent, child2);
  return rel === "" || !rel.startsWith("..") && !isAbsolute7(rel);
}
function worktreePathFor(repo, agentId, baseDir) {
  const base = baseDir ? resolve12(baseDir) : join16(dirname8(repo.mainRoot), DEFAULT_WORKTREES_FOLDER);
  return join16(base, repo.repoName, agentId);
}
async function createAgentWorktree(options) {
  checkAgentId(options.agentId);
  const repo = await readRepo(options.repoCwd);
  return enqueueForRepo(repo.commonDir, () => createLocked(repo, options));
}
async function createLocked(repo, options) {
  const { agentId } = options;
  const branch = branchFor(agentId);
  const result = (path2, baseCommit, reused) => finishSetup({ agentId, path: path2, branch, baseCommit, repoRoot: repo.repoRoot, relativeCwd: repo.relativeCwd, cwd: "", reused });
  const existing = (await listWorktrees(repo.cwd)).find((w) => w.branch === branch);
  if (existing && await isDirectory(existing.path)) {
    const meta = await readMetadata(existing.path);
    return result(existing.path, meta?.baseCommit ?? await baseOf(repo, branch), true);
  }
  if (existing) {
    await runGit(repo.cwd, ["worktree", "remove", "--force", existing.path]);
  }
  const path = worktreePathFor(repo, agentId, options.baseDir);
  for (const checkout of /* @__PURE__ */ new Set([repo.repoRoot, repo.mainRoot])) {
    if (isInside2(checkout, path)) {
      throw new WorktreeError(
        `isolation: worktree folder ${path} would be inside the checkout ${checkout}; choose a base folder outside it`
      );
    }
  }
  try {
    await mkdir5(dirname8(path), { recursive: true });
  } catch (err) {
    throw new WorktreeError(`isolation: worktree cannot create the folder ${dirname8(path)}: ${errorText(err)}`);
  }
  const branchExists = await tryGit(repo.cwd, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]) !== null;
  if (branchExists) {
    await addWorktree(repo, ["worktree", "add", path, branch], path);
    const baseCommit = await baseOf(repo, branch);
    await writeMetadata(path, metadataFor(options, repo, baseCommit));
    return result(path, baseCommit, true);
  }
  if (!repo.head) {
    throw new WorktreeError(
      `isolation: worktree needs at least one commit; the repository at ${repo.repoRoot} has none yet (make an initial commit first)`
    );
  }
  try {
    await addWorktree(repo, ["worktree", "add", "--no-track", "-b", branch, path, repo.head], path);
  } catch (err) {
    await tryGit(repo.cwd, ["update-ref", "-d", `refs/heads/${branch}`, repo.head]);
    throw err;
  }
  await writeMetadata(path, metadataFor(options, repo, repo.head));
  return result(path, repo.head, false);
}
async function addWorktree(repo, args, path) {
  try {
    await runGit(repo.cwd, args);
  } catch (err) {
    throw new WorktreeError(`isolation: worktree could not be created at ${path}: ${errorText(err)}`);
  }
}
async function baseOf(repo, branch) {
  if (repo.head) {
    const base = await tryGit(repo.cwd, ["merge-base", repo.head, `refs/heads/${branch}`]);
    if (base) return base;
  }
  return runGit(repo.cwd, ["rev-parse", `refs/heads/${branch}`]);
}
function metadataFor(options, repo, baseCommit) {
  return {
    version: 1,
    agentId: options.agentId,
    baseCommit,
    repoRoot: repo.repoRoot,
    relativeCwd: repo.relativeCwd,
    createdAt: (/* @__PURE__ */ new Date()).toISOString(),
    agentType: options.agentType,
    description: options.description,
    // Which process is using the worktree: another Fanout process's running agent is not an orphan.
    owner: { pid: process.pid, hostname: hostname2() }
  };
}
async function finishSetup(worktree) {
  const cwd2 = join16(worktree.path, worktree.relativeCwd);
  await mkdir5(cwd2, { recursive: true });
  return { ...worktree, cwd: cwd2 };
}

// src/main/runtime/worktrees/finish-worktree.ts
import { realpath as realpath3, rmdir } from "node:fs/promises";
import { dirname as dirname9, resolve as resolve13 } from "node:path";

// src/main/runtime/worktrees/identity.ts
var FALLBACK_NAME = "Fanout agent";
var FALLBACK_EMAIL = "fanout-agent@localhost.invalid";
async function commitIdentityConfig(dir) {
  const author = await tryGit(dir, ["var", "GIT_AUTHOR_IDENT"]);
  const committer = await tryGit(dir, ["var", "GIT_COMMITTER_IDENT"]);
  if (author && committer) return [];
  const config = [];
  if (!await tryGit(dir, ["config", "user.name"])) config.push(`user.name=${FALLBACK_NAME}`);
  if (!await tryGit(dir, ["config", "user.email"])) config.push(`user.email=${FALLBACK_EMAIL}`);
  if (!config.length) config.push(`user.name=${FALLBACK_NAME}`, `user.email=${FALLBACK_EMAIL}`);
  return config;
}

// src/main/runtime/worktrees/finish-worktree.ts
function commitMessage(agentType, description) {
  const subject = description.replace(/\s+/g, " ").trim();
  return `Agent ${agentType}: ${subject || "changes"}`;
}
async function uncommittedChanges(worktreePath) {
  return runGit(worktreePath, ["status", "--porcelain=v1", "--untracked-files=all", "--ignore-submodules=none"]);
}
async function commitAll(worktreePath, message) {
  await runGit(worktreePath, ["add", "-A"]);
  const identity = await commitIdentityConfig(worktreePath);
  await runGit(worktreePath, ["commit", "--no-verify", "--quiet", "-m", message], { config: identity });
  return runGit(worktreePath, ["rev-parse", "HEAD"]);
}
async function commonDirOf(worktreePath) {
  return realpath3(resolve13(worktreePath, await runGit(worktreePath, ["rev-parse", "--git-common-dir"])));
}
async function removeWorktreeAndBranch(anyCheckout, ref) {
  try {
    await runGit(anyCheckout, ["worktree", "remove", ref.path]);
  } catch (err) {
    return `the worktree was not removed: ${errorText(err)}`;
  }
  const deleted = await tryGit(anyCheckout, ["update-ref", "-d", `refs/heads/${ref.branch}`, ref.baseCommit]);
  await rmdir(dirname9(ref.path)).catch(() => void 0);
  return deleted === null ? `the branch ${ref.branch} was kept: it no longer points at ${ref.baseCommit}` : void 0;
}
async function finishAgentWorktree(options) {
  const { worktree } = options;
  const base = { branch: worktree.branch, path: worktree.path };
  if (!await isDirectory(worktree.path)) return finishMissing(worktree, base);
  const key = await commonDirOf(worktree.path);
  return enqueueForRepo(key, () => finishLocked(options, key, base));
}
async function finishLocked({ worktree, agentType, description }, commonDir, base) {
  if (!await isCheckoutRoot(worktree.path)) {
    return { ...base, changed: false, kept: true, error: `${worktree.path} is no longer a git worktree; it was left untouched` };
  }
  const dirty = await uncommittedChanges(worktree.path) !== "";
  if (dirty) {
    try {
      await commitAll(worktree.path, commitMessage(agentType, description));
    } catch (err) {
      return {
        ...base,
        changed: true,
        kept: true,
        error: `the agent's changes could not be committed (${errorText(err)}); they are still in ${worktree.path}`
      };
    }
  }
  const head = await runGit(worktree.path, ["rev-parse", "HEAD"]);
  const onBranch = await tryGit(worktree.path, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  if (head !== worktree.baseCommit || onBranch !== worktree.branch) {
    const note = onBranch === worktree.branch ? void 0 : `the agent switched the worktree to ${onBranch ?? "a detached HEAD"}`;
    return { ...base, changed: true, kept: true, commit: head, ...note ? { error: note } : {} };
  }
  const error = await removeWorktreeAndBranch(commonDir, worktree);
  const kept = await isDirectory(worktree.path);
  return { ...base, changed: false, kept, ...error ? { error } : {} };
}
async function finishMissing(worktree, base) {
  const gone = `the worktree folder ${worktree.path} no longer exists`;
  if (!worktree.repoRoot || !await isDirectory(worktree.repoRoot)) return { ...base, changed: false, kept: false, error: gone };
  const repoRoot2 = worktree.repoRoot;
  const key = await commonDirOf(repoRoot2);
  return enqueueForRepo(key, async () => {
    await tryGit(repoRoot2, ["worktree", "remove", worktree.path]);
    const tip = await tryGit(repoRoot2, ["rev-parse", "--verify", "--quiet", `refs/heads/${worktree.branch}`]);
    if (tip && tip !== worktree.baseCommit) {
      return { ...base, changed: true, kept: false, commit: tip, error: `${gone}; its commits are on ${worktree.branch}` };
    }
    if (tip) await tryGit(repoRoot2, ["update-ref", "-d", `refs/heads/${worktree.branch}`, worktree.baseCommit]);
    return { ...base, changed: false, kept: false, error: gone };
  });
}

// src/main/runtime/worktrees/orphans.ts
import { realpath as realpath4, rmdir as rmdir2 } from "node:fs/promises";
import { hostname as hostname3 } from "node:os";
import { dirname as dirname10, resolve as resolve14 } from "node:path";
function ownerAlive(owner) {
  if (!owner || owner.hostname !== hostname3() || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
async function findOrphanWorktrees({ repoCwd, isLive }) {
  let repo;
  try {
    repo = await readRepo(repoCwd);
  } catch (err) {
    if (err instanceof WorktreeError) return [];
    throw err;
  }
  const orphans = [];
  for (const entry of await listWorktrees(repo.cwd)) {
    if (!entry.branch?.startsWith(BRANCH_PREFIX) || entry.bare) continue;
    const agentId = entry.branch.slice(BRANCH_PREFIX.length);
    if (isLive?.(agentId)) continue;
    const exists2 = await isDirectory(entry.path);
    const meta = await readMetadata(entry.path, repo.commonDir);
    if (ownerAlive(meta?.owner)) continue;
    const baseCommit = meta?.baseCommit ?? null;
    orphans.push({
      agentId,
      path: entry.path,
      branch: entry.branch,
      repoRoot: repo.mainRoot === repo.commonDir ? repo.repoRoot : repo.mainRoot,
      baseCommit,
      head: entry.head,
      exists: exists2,
      locked: entry.locked,
      uncommittedChanges: exists2 && await isCheckoutRoot(entry.path) ? await uncommittedChanges(entry.path) !== "" : false,
      commitsAhead: await commitsAhead(repo.cwd, entry.branch, baseCommit),
      ...meta?.agentType ? { agentType: meta.agentType } : {},
      ...meta?.description ? { description: meta.description } : {}
    });
  }
  return orphans;
}
async function commitsAhead(dir, branch, baseCommit) {
  const args = baseCommit ? ["rev-list", "--count", `${baseCommit}..refs/heads/${branch}`] : ["rev-list", "--count", `refs/heads/${branch}`, "--not", `--exclude=${branch}`, "--branches"];
  return Number(await tryGit(dir, args) ?? 0) || 0;
}
async function cleanupOrphanWorktree(orphan, options = {}) {
  const repoRoot2 = orphan.repoRoot;
  const key = await realpath4(resolve14(repoRoot2, await runGit(repoRoot2, ["rev-parse", "--git-common-dir"])));
  return enqueueForRepo(key, () => cleanupLocked(orphan, repoRoot2, options.force === true));
}
async function cleanupLocked(orphan, repoRoot2, force) {
  let commit;
  if (await isDirectory(orphan.path)) {
    if (!await isCheckoutRoot(orphan.path)) {
      return { removed: false, branchDeleted: false, reason: `${orphan.path} is no longer a git worktree; it was left untouched` };
    }
    if (await uncommittedChanges(orphan.path) !== "") {
      if (!force) {
        return {
          removed: false,
          branchDeleted: false,
          reason: `${orphan.path} has uncommitted changes; cleaning up with force commits them to ${orphan.branch} first`
        };
      }
      const message = commitMessage(
        orphan.agentType ?? orphan.agentId,
        `${orphan.description ?? "work"} (saved from an interrupted run)`
      );
      try {
        commit = await commitAll(orphan.path, message);
      } catch (err) {
        return { removed: false, branchDeleted: false, reason: `the uncommitted changes could not be committed, so nothing was removed: ${errorText(err)}` };
      }
    }
    if (orphan.locked) {
      if (!force) return { removed: false, branchDeleted: false, reason: `${orphan.path} is locked; clean up with force to unlock and remove it`, ...commit ? { commit } : {} };
      await tryGit(repoRoot2, ["worktree", "unlock", orphan.path]);
    }
    try {
      await runGit(repoRoot2, ["worktree", "remove", orphan.path]);
    } catch (err) {
      return { removed: false, branchDeleted: false, reason: `git refused to remove the worktree: ${errorText(err)}`, ...commit ? { commit } : {} };
    }
    await rmdir2(dirname10(orphan.path)).catch(() => void 0);
  } else {
    await tryGit(repoRoot2, ["worktree", "remove", orphan.path]);
  }
  const branchDeleted = await deleteBranchIfEmpty(repoRoot2, orphan);
  return { removed: true, branchDeleted, ...commit ? { commit } : {} };
}
async function deleteBranchIfEmpty(repoRoot2, orphan) {
  if (!orphan.baseCommit) return false;
  const tip = await tryGit(repoRoot2, ["rev-parse", "--verify", "--quiet", `refs/heads/${orphan.branch}`]);
  if (tip !== orphan.baseCommit) return false;
  return await tryGit(repoRoot2, ["update-ref", "-d", `refs/heads/${orphan.branch}`, orphan.baseCommit]) !== null;
}

// src/main/runtime/worktrees/probe.ts
import { readFile as readFile4, stat as stat3 } from "node:fs/promises";
import { dirname as dirname11, isAbsolute as isAbsolute8, join as join17, resolve as resolve15 } from "node:path";
var NOT_A_REPO = { isGitRepo: false, branch: null, repoRoot: null };
async function gitDirOf(top) {
  const dotGit = join17(top, ".git");
  const s = await stat3(dotGit).catch(() => null);
  if (!s) return null;
  if (s.isDirectory()) return dotGit;
  const text2 = await readFile4(dotGit, "utf8").catch(() => "");
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text2);
  if (!m) return null;
  return isAbsolute8(m[1]) ? m[1] : resolve15(top, m[1]);
}
async function fastProbe(cwd2) {
  let dir = resolve15(cwd2);
  for (; ; ) {
    const s = await stat3(join17(dir, ".git")).catch(() => null);
    if (s) {
      const gitDir = await gitDirOf(dir);
      if (!gitDir) return null;
      const head = (await readFile4(join17(gitDir, "HEAD"), "utf8").catch(() => null))?.trim();
      if (!head) return null;
      const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
      if (ref) return { isGitRepo: true, branch: ref[1], repoRoot: dir };
      return /^[0-9a-f]{40,64}$/.test(head) ? { isGitRepo: true, branch: null, repoRoot: dir } : null;
    }
    const parent = dirname11(dir);
    if (parent === dir) return NOT_A_REPO;
    dir = parent;
  }
}
async function probeGit(cwd2) {
  if (!process.env.GIT_DIR && !process.env.GIT_WORK_TREE) {
    const fast = await fastProbe(cwd2);
    if (fast) return fast;
  }
  try {
    const repo = await readRepo(cwd2);
    return { isGitRepo: true, branch: repo.branch, repoRoot: repo.repoRoot };
  } catch (err) {
    if (err instanceof WorktreeError) return NOT_A_REPO;
    throw err;
  }
}

// src/main/runtime/hooks/wiring.ts
var MAX_STOP_BLOCKS = 5;
function hookedCanUseTool(runner, agent, inner, gate) {
  const usual = inner ?? (async () => ({ behavior: "allow" }));
  return async (tool, input, toolUseId) => {
    if (!runner.has("PreToolUse", agent)) return usual(tool, input, toolUseId);
    const outcome = await runner.preToolUse(agent, tool.name, input, toolUseId);
    const current = outcome.updatedInput ?? input;
    const updated = outcome.updatedInput ? { updatedInput: outcome.updatedInput } : {};
    if (outcome.decision === "deny") return { behavior: "deny", message: `A PreToolUse hook blocked this ${tool.name} call: ${outcome.reason ?? "it gave no reason"}` };
    if (outcome.decision === "allow") {
      const denial = gate?.ruleDenial(tool, current);
      return denial ? { behavior: "deny", message: denial } : { behavior: "allow", ...updated };
    }
    const decision = outcome.decision === "ask" && gate ? await gate.ask(tool, current, toolUseId, outcome.reason ?? `A PreToolUse hook asks for approval of this ${tool.name} call.`) : await usual(tool, current, toolUseId);
    if (decision.behavior === "deny") return decision;
    const sandbox = decision.sandbox ? { sandbox: decision.sandbox } : {};
    return { behavior: "allow", ...sandbox, ...decision.updatedInput !== void 0 ? { updatedInput: decision.updatedInput } : updated };
  };
}
function hookedTools(runner, agent, tools) {
  return tools.map((tool) => ({
    ...tool,
    async run(raw, ctx) {
      const result = await tool.run(raw, ctx);
      if (result.isError || ctx.signal.aborted || !runner.has("PostToolUse", agent)) return result;
      const response = { content: result.content, ...result.details !== void 0 ? { details: result.details } : {} };
      const { notes, replaceOutput } = await runner.postToolUse(agent, tool.name, raw, response, ctx.toolUseId);
      if (!notes.length && replaceOutput === void 0) return result;
      return { ...result, content: [replaceOutput ?? result.content, ...notes].join("\n\n") };
    }
  }));
}
function subagentHookRun(runner, agent, report) {
  let stopRan = false;
  let blocks = 0;
  return {
    start: async () => runner ? runner.subagentStart(agent) : [],
    async beforeFinish(finalText) {
      if (!runner) return null;
      const reason = await runner.subagentStop(agent, { stopHookActive: blocks > 0, lastMessage: finalText, status: "completed" });
      if (reason && blocks < MAX_STOP_BLOCKS) {
        blocks++;
        return `A SubagentStop hook did not let you finish yet:
${reason}`;
      }
      if (reason) report(`SubagentStop hooks blocked agent ${agent.agentType} from finishing ${MAX_STOP_BLOCKS} times in a row; it finished anyway so it cannot loop forever. The last reason was: ${reason}`);
      stopRan = true;
      return null;
    },
    finalize(inner) {
      return async (result) => {
        if (runner && !stopRan) {
          stopRan = true;
          await runner.subagentStop(agent, { stopHookActive: blocks > 0, lastMessage: result.result, status: result.status });
        }
        return inner?.();
      };
    }
  };
}

// src/main/runtime/model/effort.ts
var NONE = { effort: false, maxEffort: false, adaptive: false, manualThinking: false };
function modelCapabilities(modelId2) {
  const id = modelId2.toLowerCase();
  const modern = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(id);
  const legacy = /claude-(\d+)-(\d+)-(opus|sonnet|haiku)/.exec(id);
  if (!modern && !legacy) return /claude-mythos/.test(id) ? { effort: true, maxEffort: true, adaptive: true, manualThinking: false } : NONE;
  const family = modern ? modern[1] : legacy[3];
  const version = modern ? Number(modern[2]) + Number(modern[3] ?? 0) / 10 : Number(legacy[1]) + Number(legacy[2]) / 10;
  if (family === "fable" || family === "mythos" || version >= 5) return { effort: true, maxEffort: true, adaptive: true, manualThinking: false };
  if (family === "opus") {
    if (version >= 4.7) return { effort: true, maxEffort: true, adaptive: true, manualThinking: false };
    if (version >= 4.6) return { effort: true, maxEffort: true, adaptive: true, manualThinking: true };
    if (version >= 4.5) return { effort: true, maxEffort: false, adaptive: false, manualThinking: true };
    return { ...NONE, manualThinking: version >= 4 };
  }
  if (family === "sonnet") {
    if (version >= 4.6) return { effort: true, maxEffort: true, adaptive: true, manualThinking: true };
    return { ...NONE, manualThinking: version >= 3.7 };
  }
  return { ...NONE, manualThinking: version >= 4.5 };
}
var LEVEL_BUDGETS = { low: null, medium: 4096, high: 16384, max: 31999 };
function levelOf(budget) {
  return budget <= 4096 ? "low" : budget <= 16384 ? "medium" : budget <= 32e3 ? "high" : "max";
}
function readEffort(value) {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  if (typeof value !== "string") return void 0;
  const v = value.trim().toLowerCase();
  if (v === "low" || v === "medium" || v === "high" || v === "max") return v;
  return /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : void 0;
}
function effortRequest(model, effort, maxTokens = DEFAULT_MAX_TOKENS) {
  const setting = readEffort(effort);
  if (setting === void 0) return {};
  const caps = modelCapabilities(model);
  const clampBudget = (n) => Math.max(1024, Math.min(n, maxTokens - 1));
  if (typeof setting === "number") {
    if (caps.manualThinking && maxTokens > 1024) return { thinking: { type: "enabled", budget_tokens: clampBudget(setting) } };
    if (caps.effort) return effortRequest(model, levelOf(setting), maxTokens);
    return {};
  }
  if (caps.effort) {
    const level = setting === "max" && !caps.maxEffort ? "high" : setting;
    return { effort: level, ...caps.adaptive ? { thinking: { type: "adaptive" } } : {} };
  }
  const budget = LEVEL_BUDGETS[setting];
  if (caps.manualThinking && budget !== null && maxTokens > 1024) return { thinking: { type: "enabled", budget_tokens: clampBudget(budget) } };
  return {};
}

// src/main/runtime/orchestration/report.ts
function formatAgentReport(handle, result) {
  const details = {
    agentId: handle.id,
    agentType: handle.agentType,
    model: result.model,
    status: result.status,
    numTurns: result.numTurns,
    toolUses: result.toolUses,
    durationMs: result.durationMs,
    usage: result.usage,
    ...result.worktree ? { worktree: result.worktree } : {}
  };
  const body = result.status === "failed" ? `The ${handle.agentType} agent failed: ${result.error ?? "unknown error"}${result.result ? `

Its last output:
${result.result}` : ""}` : result.status === "stopped" ? `The ${handle.agentType} agent was stopped before it finished.${result.result ? `

Its output so far:
${result.result}` : ""}` : result.result || `(The ${handle.agentType} agent finished without a final message.)`;
  const lines2 = [
    `agentId: ${handle.id}${handle.name ? ` (name: ${handle.name})` : ""} \u2014 to continue it, use SendMessage with to: '${handle.name ?? handle.id}', or Agent with resume: '${handle.id}'`
  ];
  if (result.worktree) {
    const wt = result.worktree;
    lines2.push(
      wt.kept ? `worktree: its changes are on branch ${wt.branch}${wt.commit ? ` (commit ${wt.commit.slice(0, 12)})` : ""}, checked out at ${wt.path}` : `worktree: it changed nothing; the worktree was removed`
    );
    if (wt.error) lines2.push(`worktree problem: ${wt.error}`);
  }
  const u = result.usage;
  lines2.push(
    `<usage>agent_type: ${handle.agentType}; model: ${result.model}; status: ${result.status}; turns: ${result.numTurns}; tool_uses: ${result.toolUses}; duration_ms: ${result.durationMs}; tokens_in: ${u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens}; tokens_out: ${u.outputTokens}; cost_usd: ${u.costUsd.toFixed(6)}</usage>`
  );
  return { content: `${body}

${lines2.join("\n")}`, details, isError: result.status === "failed" };
}

// src/main/runtime/orchestration/delivery.ts
var attr = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/\n/g, " ");
function formatAgentMessage(from, text2, summary) {
  return `<agent-message from="${attr(from)}"${summary ? ` summary="${attr(summary)}"` : ""}>
${text2}
</agent-message>`;
}
function formatTaskNotification(handle, result, forwardedFrom) {
  const report = formatAgentReport(handle, result).content;
  const what = handle.description ? `"${handle.description}"` : handle.id;
  const summary = result.status === "completed" ? `Agent ${what} completed` : result.status === "failed" ? `Agent ${what} failed: ${result.error ?? "unknown error"}` : result.status === "max_turns" ? `Agent ${what} stopped at its turn limit` : `Agent ${what} was stopped`;
  const lines2 = [
    "<task-notification>",
    `<task-id>${handle.id}</task-id>`,
    `<agent-type>${handle.agentType}</agent-type>`,
    ...handle.name ? [`<name>${handle.name}</name>`] : [],
    `<status>${result.status}</status>`,
    `<summary>${summary}</summary>`,
    ...forwardedFrom ? [`<note>This report was meant for agent ${forwardedFrom}, which is no longer running; it comes to you instead.</note>`] : [],
    `<result>
${report}
</result>`,
    ...handle.outputFile ? [`<output-file>${handle.outputFile}</output-file>`] : [],
    "</task-notification>"
  ];
  return lines2.join("\n");
}
function deliverTo(session, main, target2, text2, opts) {
  session.emit({ agentId: target2.id, parentAgentId: target2.parentId, parentToolUseId: target2.parentToolUseId, sessionId: session.sessionId, ts: Date.now(), type: "message_received", from: opts.from, text: text2, ...opts.summary ? { summary: opts.summary } : {} });
  target2.inbox.push(text2);
  if (target2.id === session.mainAgentId) {
    const busy = main.busy;
    if (opts.wake !== false) main.wake();
    return busy ? "inbox" : main.busy ? "woke" : "held";
  }
  if (target2.run) return "inbox";
  if (opts.wake === false) return "held";
  session.resumeFromInbox(target2, opts.reportTo ?? null);
  return "resumed";
}
function inboxPrompt(handle) {
  return handle.inbox.splice(0).map((text2) => ({ type: "text", text: text2 }));
}
function liveRecipient(session, id, main) {
  let h = session.registry.get(id);
  let forwarded = false;
  while (h && h.id !== session.mainAgentId && !h.run) {
    h = h.parentId ? session.registry.get(h.parentId) : void 0;
    forwarded = true;
  }
  if (!h) return { target: main(), forwarded: id !== session.mainAgentId };
  return { target: h, forwarded };
}
function afterSubagentRun(session, handle, result, req, main) {
  if (req.reportTo && !handle.quiet) {
    const { target: target2, forwarded } = liveRecipient(session, req.reportTo, main);
    session.deliver(target2, formatTaskNotification(handle, result, forwarded ? req.reportTo : void 0), {
      from: handle.id,
      summary: `${handle.description ?? handle.agentType}: ${result.status}`,
      // A run the person stopped does not restart anyone; the report waits for the recipient's next turn.
      wake: !handle.stoppedByUser
    });
  }
  if (!handle.inbox.length) return;
  if (result.notStarted || result.status === "stopped" || handle.stoppedByUser) return;
  session.resumeFromInbox(handle, handle.parentId ?? session.mainAgentId);
}

// src/main/runtime/orchestration/fork.ts
var FORK_AGENT_TYPE = "fork";
var FORK_DESCRIPTION = "A copy of you, with your conversation so far, your tools and your model: use it to try a side task without filling your own context. It cannot start agents.";
var SPAWNING_CALL_RESULT = "This call started you: you are the forked sub-agent. Your task follows below.";
var SIBLING_CALL_RESULT = "Handled by the parent agent, not by you (another tool call of the same message).";
function forkMessages(parent, spawningToolUseId, prompt) {
  let spawning = -1;
  for (let i = parent.length - 1; i >= 0 && spawning < 0; i--) {
    const m = parent[i];
    if (m.role === "assistant" && Array.isArray(m.content) && m.content.some((b) => b.type === "tool_use" && b.id === spawningToolUseId)) spawning = i;
  }
  const history = spawning >= 0 ? [...repairConversation(parent.slice(0, spawning)).messages, parent[spawning]] : repairConversation(parent).messages;
  const last = history[history.length - 1];
  const calls = last?.role === "assistant" && Array.isArray(last.content) ? last.content.filter((b) => b.type === "tool_use") : [];
  const results = calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: c.id === spawningToolUseId ? SPAWNING_CALL_RESULT : SIBLING_CALL_RESULT }));
  let lead = [];
  if (!calls.length && last?.role === "user") {
    history.pop();
    lead = contentBlocks(last);
  }
  const n = history.length;
  const entry = `Context: The ${n} message${n === 1 ? "" : "s"} above ${n === 1 ? "is" : "are"} from the parent thread: the conversation of the agent that started you, up to the moment it handed this task to you. Use what they tell you; do not continue the parent's own work or repeat its tool calls.

Entered sub-agent context. From here on you are a separate agent working on one task; the parent receives only your final message, so end with a complete report of what you did and found.

Your task:
${prompt}`;
  return { history, prompt: [...results, ...lead, { type: "text", text: entry }] };
}
function forkToolList(parentTools, own) {
  const mine = new Map(own.map((t) => [t.name, t]));
  return parentTools.map((t) => {
    const kept = mine.get(t.name);
    if (kept) return kept;
    const withheld = `A forked agent cannot use ${t.name}: it is in your tool list only so that your prompt matches your parent's. Do this part of the work with your other tools, or report what is left to your parent.`;
    return { ...t, withheld, readOnly: true, concurrencySafe: true, run: async () => ({ content: withheld, isError: true }) };
  });
}

// src/main/runtime/orchestration/agent-run.ts
var seconds2 = (ms) => `${Math.round(ms / 100) / 10} s`;
function startSubagentRun(session, handle, req) {
  if (handle.run) throw new Error(`Agent ${handle.id} is already running.`);
  handle.abort = new AbortController();
  handle.status = "queued";
  handle.quiet = false;
  let settle;
  const run = new Promise((resolve24) => settle = resolve24);
  handle.run = run;
  session.track(run);
  void (async () => {
    let result;
    try {
      result = await runOnce(session, handle, req);
    } catch (err) {
      result = notStarted(handle, "failed", `Internal error while running the agent: ${err instanceof Error ? err.message : String(err)}`);
    }
    handle.lastResult = result;
    handle.status = result.status;
    if (!result.notStarted) handle.messages = result.messages;
    handle.run = null;
    session.runEnded(handle, result, req);
    settle(result);
  })();
  return run;
}
function notStarted(handle, status, error) {
  return { status, result: "", error, numTurns: 0, toolUses: 0, usage: emptyUsage(), durationMs: 0, messages: handle.messages, model: handle.model, stopReason: null, notStarted: true };
}
var linked = /* @__PURE__ */ new WeakMap();
function link2(signal, child2) {
  if (!signal) return () => void 0;
  if (signal.aborted) {
    child2.abort(signal.reason);
    return () => void 0;
  }
  let children = linked.get(signal);
  if (!children) {
    const set = /* @__PURE__ */ new Set();
    linked.set(signal, children = set);
    signal.addEventListener("abort", () => {
      for (const c of set) c.abort(signal.reason);
      set.clear();
    }, { once: true });
  }
  children.add(child2);
  return () => children.delete(child2);
}
async function runOnce(session, handle, req) {
  const abort = handle.abort;
  const unlink3 = link2(req.linkTo, abort);
  const ids2 = { agentId: handle.id, parentAgentId: handle.parentId, parentToolUseId: handle.parentToolUseId, sessionId: session.sessionId };
  const def = handle.definition;
  const label = handle.agentType;
  let release = null;
  let closeRun;
  try {
    if (session.gate.slots.running >= session.gate.limits.maxConcurrent)
      session.emit({ ...ids2, ts: Date.now(), type: "status", status: "queued", detail: `waiting for one of ${session.gate.limits.maxConcurrent} concurrent agent slots` });
    try {
      release = await session.gate.slots.acquire(abort.signal);
    } catch {
      return notStarted(handle, "stopped", `The ${label} agent was stopped before it started.`);
    }
    let worktree;
    if (handle.isolation) {
      try {
        worktree = await createAgentWorktree({ repoCwd: handle.isolation.repoCwd, agentId: handle.id, agentType: label, description: handle.description ?? label });
      } catch (err) {
        return notStarted(handle, "failed", `Could not isolate the agent: ${err instanceof Error ? err.message : String(err)}`);
      }
      handle.cwd = worktree.cwd;
      handle.worktree = { path: worktree.path, branch: worktree.branch };
    }
    await session.claimMailbox(handle);
    const prompt = req.prompt ?? inboxPrompt(handle);
    if (!handle.fork || !handle.systemPrompt) {
      if (!def) return notStarted(handle, "failed", `Agent ${handle.id} has no definition to run with.`);
      handle.systemPrompt = await session.systemPrompt(def, handle, worktree);
    }
    closeRun = await session.prepareRun?.(handle, def);
    const tools = buildRunTools(session, handle);
    handle.messages = req.recordHistory ? [] : [...req.history];
    handle.status = "running";
    const hooks = subagentHookRun(session.hooks, handle, (message) => session.emit({ ...ids2, ts: Date.now(), type: "error", message, retrying: false }));
    const hookContext = await hooks.start();
    let finished;
    const emit = eventFilter(session, handle, req);
    const stall = handle.background ? watchStall(session, handle, emit.markStalled) : null;
    const result = await runAgent(
      {
        ...ids2,
        agentType: label,
        ...handle.description ? { description: handle.description } : {},
        depth: handle.depth,
        ...def?.color ? { color: def.color } : {},
        ...handle.background ? { background: true } : {},
        ...handle.name ? { name: handle.name } : {},
        ...worktree ? { worktree: { path: worktree.path, branch: worktree.branch } } : {},
        client: session.client,
        model: handle.model,
        // A handle reloaded after a restart has no effort of its own: its definition's still applies.
        ...effortRequest(handle.model, handle.effort ?? def?.effort),
        systemPrompt: handle.systemPrompt,
        messages: req.history,
        prompt,
        tools,
        cwd: handle.cwd,
        maxTurns: req.maxTurns,
        signal: abort.signal,
        ...def?.criticalSystemReminder ? { criticalSystemReminder: def.criticalSystemReminder } : {},
        canUseTool: session.canUseTool(handle),
        drainInbox: () => [...hookContext.splice(0), ...handle.inbox.splice(0)],
        beforeFinish: hooks.beforeFinish,
        finalize: hooks.finalize(worktree ? async () => {
          const done = await finishAgentWorktree({ worktree, agentType: label, description: handle.description ?? label });
          finished = { path: done.path, branch: done.branch, kept: done.kept, ...done.commit ? { commit: done.commit } : {}, ...done.error ? { error: done.error } : {} };
          return { worktree: { path: done.path, branch: done.branch, kept: done.kept, ...done.commit ? { commit: done.commit } : {} } };
        } : void 0)
      },
      emit.emit
    );
    stall?.();
    const out = { ...result, ...finished ? { worktree: finished } : {} };
    if (emit.stalledAfter !== null) {
      out.status = "failed";
      out.error = stallMessage(emit.stalledAfter);
    }
    return out;
  } finally {
    release?.();
    unlink3();
    await closeRun?.().catch((err) => session.onError(new Error(`Closing the MCP servers of agent ${handle.id} failed: ${err instanceof Error ? err.message : String(err)}`)));
  }
}
function buildRunTools(session, handle) {
  const own = session.buildTools(handle, handle.toolNames ?? []);
  const parent = handle.fork && handle.parentId ? session.registry.get(handle.parentId) : void 0;
  return parent ? forkToolList(session.buildTools(parent, parent.toolNames ?? []), own) : own;
}
var stallMessage = (ms) => `The background agent showed no activity for ${seconds2(ms)} and was stopped (its stall timeout); its output so far is kept.`;
function eventFilter(session, handle, req) {
  const state = {
    stalledAfter: null,
    markStalled: (ms) => {
      state.stalledAfter = ms;
    },
    emit: (event) => {
      if (event.type === "agent_end" && state.stalledAfter !== null) {
        session.emit({ ...event, status: "failed", error: stallMessage(state.stalledAfter) });
        return;
      }
      session.emit(event);
      if (event.type === "agent_start" && req.recordHistory) {
        for (const message of req.history) session.emit({ agentId: event.agentId, parentAgentId: event.parentAgentId, parentToolUseId: event.parentToolUseId, sessionId: event.sessionId, ts: Date.now(), type: "message", message });
      }
    }
  };
  return state;
}
function watchStall(session, handle, onStall) {
  const limit = session.backgroundStallMs;
  if (!Number.isFinite(limit) || limit <= 0) return null;
  handle.lastEventAt = Date.now();
  const timer = setInterval(
    () => {
      const quiet = Date.now() - handle.lastEventAt;
      if (quiet < limit) return;
      clearInterval(timer);
      onStall(limit);
      handle.abort.abort(new Error(stallMessage(limit)));
    },
    Math.max(10, Math.min(1e3, Math.floor(limit / 4)))
  );
  timer.unref?.();
  return () => clearInterval(timer);
}

// src/main/runtime/orchestration/agent-registry.ts
function newAgentHandle(identity) {
  const now = Date.now();
  return {
    status: "queued",
    messages: [],
    ...identity,
    abort: new AbortController(),
    stoppedByUser: false,
    inbox: [],
    usage: emptyUsage(),
    startedAt: now,
    run: null,
    turnCount: 0,
    lastEventAt: now
  };
}
var AgentRegistry = class {
  agents = /* @__PURE__ */ new Map();
  add(handle) {
    this.agents.set(handle.id, handle);
  }
  get(id) {
    return this.agents.get(id);
  }
  /** By id, or by the `name` given at spawn (the most recent agent with that name). */
  find(idOrName) {
    const byId = this.agents.get(idOrName);
    if (byId) return byId;
    const named = [...this.agents.values()].filter((a) => a.name === idOrName);
    return named[named.length - 1];
  }
  /** Keeps the handle of the event's agent up to date: when it was last heard from, its status, usage, turns and conversation. */
  note(event) {
    const handle = this.agents.get(event.agentId);
    if (!handle) return;
    handle.lastEventAt = Date.now();
    if (event.type === "usage") handle.usage = addUsage(handle.usage, event.usage);
    else if (event.type === "agent_start") handle.status = "running";
    else if (event.type === "agent_end") handle.status = event.status;
    else if (event.type === "status") handle.status = event.status;
    else if (event.type === "turn_start") handle.turnCount++;
    else if (event.type === "message") handle.messages.push(event.message);
  }
  /** Whether the agent is at work in this process: a run in progress, or a status that is not final. */
  isLive(id) {
    const h = this.agents.get(id);
    return !!h && (h.run !== null || !isFinished(h.status));
  }
  all() {
    return [...this.agents.values()];
  }
  children(id) {
    return this.all().filter((a) => a.parentId === id);
  }
  /** Own usage of the agent plus all its descendants. */
  subtreeUsage(id) {
    const self = this.agents.get(id);
    let total = self ? self.usage : emptyUsage();
    for (const child2 of this.children(id)) total = addUsage(total, this.subtreeUsage(child2.id));
    return total;
  }
  totalUsage() {
    return this.all().reduce((sum, a) => addUsage(sum, a.usage), emptyUsage());
  }
  /**
   * Stops an agent and every descendant, background ones included (they are not linked to the parent's
   * signal, since they outlive the call that started them). Returns false when it was not running.
   */
  stop(id, byUser) {
    const handle = this.agents.get(id);
    if (!handle) return false;
    const running = !isFinished(handle.status);
    const reason = new Error(byUser ? "stopped by the user" : "stopped");
    const visit2 = (h, seen) => {
      if (seen.has(h.id)) return;
      seen.add(h.id);
      if (!isFinished(h.status)) {
        if (byUser) h.stoppedByUser = true;
        h.abort.abort(reason);
      }
      for (const child2 of this.children(h.id)) visit2(child2, seen);
    };
    visit2(handle, /* @__PURE__ */ new Set());
    handle.abort.abort(reason);
    return running;
  }
};
function isFinished(status) {
  return status === "completed" || status === "failed" || status === "stopped" || status === "max_turns" || status === "interrupted";
}

// src/main/runtime/orchestration/budget.ts
var BudgetExceededError = class extends Error {
};
function budgetedClient(client, gate) {
  return {
    get baseURL() {
      return client.baseURL;
    },
    listModels: (signal) => client.listModels(signal),
    stream(request2, handlers, signal) {
      if (gate.overBudget())
        return Promise.reject(new BudgetExceededError(`The session reached its spend budget of $${gate.limits.budgetUsd.toFixed(2)}; no further model calls are made. Raise the budget in settings to continue.`));
      return client.stream(request2, handlers, signal);
    }
  };
}

// src/main/runtime/orchestration/coordinator.ts
import { z as z6 } from "zod";

// src/shared/team.ts
var COORDINATOR_PHASES = ["research", "synthesis", "implementation", "verification"];
var TASK_STATUSES = ["pending", "in_progress", "completed"];

// src/main/runtime/tools/define-tool.ts
import { z as z5 } from "zod";
var DEFAULT_MAX_OUTPUT_CHARS = 3e4;
function truncateOutput(text2, max) {
  if (text2.length <= max) return text2;
  const head = text2.slice(0, max);
  return `${head}

[output truncated: ${text2.length - max} more characters not shown]`;
}
function formatZodError(toolName, error) {
  const lines2 = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join(".") : "(input)";
    return `- ${path}: ${issue.message}`;
  });
  return `Invalid input for ${toolName}:
${lines2.join("\n")}
Fix the input and call ${toolName} again.`;
}
var jsonSchemas = /* @__PURE__ */ new WeakMap();
function inputJsonSchema(schema10) {
  let json = jsonSchemas.get(schema10);
  if (!json) {
    json = z5.toJSONSchema(schema10, { target: "draft-7", io: "input" });
    delete json.$schema;
    jsonSchemas.set(schema10, json);
  }
  return json;
}
function defineTool(spec2) {
  const max = spec2.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const jsonSchema = inputJsonSchema(spec2.schema);
  const parse = (raw) => {
    const parsed = spec2.schema.safeParse(raw ?? {});
    return parsed.success ? { ok: true, input: parsed.data } : { ok: false, error: formatZodError(spec2.name, parsed.error) };
  };
  return {
    name: spec2.name,
    description: spec2.description,
    inputJsonSchema: jsonSchema,
    readOnly: spec2.readOnly,
    concurrencySafe: spec2.concurrencySafe ?? spec2.readOnly,
    parse,
    async run(raw, ctx) {
      const parsed = parse(raw);
      if (!parsed.ok) return { content: parsed.error, isError: true };
      if (ctx.signal.aborted) return { content: `${spec2.name} was not run: the agent was stopped.`, isError: true };
      try {
        const result = await spec2.execute(parsed.input, ctx);
        return { ...result, content: truncateOutput(result.content, max) };
      } catch (err) {
        if (ctx.signal.aborted) return { content: `${spec2.name} was interrupted: the agent was stopped.`, isError: true };
        const message = err instanceof Error ? err.message : String(err);
        return { content: `${spec2.name} failed: ${message}`, isError: true };
      }
    }
  };
}

// src/main/runtime/orchestration/coordinator-prompt.ts
var COORDINATOR_AGENT_TYPE = "coordinator";
var SET_PHASE_TOOL_NAME = "SetPhase";
var COORDINATOR_TOOLS = [
  "Agent",
  "SendMessage",
  "TaskStop",
  "TaskOutput",
  SET_PHASE_TOOL_NAME,
  "TeamCreate",
  "TeamDelete",
  "TaskCreate",
  "TaskList",
  "TaskGet",
  "TaskUpdate",
  "RequestShutdown",
  "RespondToRequest"
];
var COORDINATOR_PROMPT = `You are the coordinator of a crew of agents in Fanout, working for a person on their software project. You do not read, search or change files yourself, and you run no commands: agents do that, and you direct them. Your tools are Agent (start an agent), SendMessage (continue one), TaskOutput and TaskStop (check on or stop a background agent), SetPhase (say which phase you are in) and the team tools.

Work in four phases. Call SetPhase when you enter a phase, before you start its agents, so the person can follow along.

1. research \u2014 Find out what is there before deciding anything. Start several Explore agents in one message, each with its own question (where does X live, how does Y work today, which tests cover Z). Ask for absolute file paths and line numbers.
2. synthesis \u2014 Turn what research found into a plan: the units of work, the files each one touches, and how each will be checked. Write it yourself when the change is small; for anything larger start a Plan agent and give it everything research found. Units that touch the same files belong together.
3. implementation \u2014 Start one general-purpose worker per independent unit, all in one message so they run in parallel, and give each a name (the name parameter) so you can reach it later. In this phase every agent you start works in its own git worktree on its own branch, so parallel workers never edit the same checkout. A worker sees only its prompt: include the plan, its part of it, the files, and how it will be verified.
4. verification \u2014 Start a verifier agent to check the work: it runs the tests and checks on each worker's branch (each worker's report names its worktree path and branch) and reports what passed and what failed, with the commands it ran and their output. A verifier never checks work it did itself.

Continue a worker, or start a fresh one:
- Continue the worker (SendMessage to its name) when the next step builds on what it already knows: fixing what verification found in its own work, a follow-up in the same files, an answer to its question. It keeps its history and its worktree, and its report comes back to you as a <task-notification>; end your turn to wait for it.
- Start a fresh agent when the work is unrelated to what a worker did, when its context is full of things the next step does not need, when you want an independent check, or when a worker has failed at the same thing twice \u2014 then write a better prompt for a new one.
- After any fix, verify again before you report.

Use an agent team (TeamCreate) instead of separate workers when the implementation is many small tasks that several workers can take from a shared list, or tasks that depend on one another: name the members, seed the task list with the tasks and their dependencies, follow it with TaskList, and ask members to shut down (RequestShutdown) when the list is done.

Read every report critically: an agent may be wrong or may have stopped early. When all is verified, tell the person briefly what was done, on which branches, what verification showed, and what is left open.`;
var COORDINATOR_DEFINITION = {
  agentType: COORDINATOR_AGENT_TYPE,
  whenToUse: "",
  tools: COORDINATOR_TOOLS,
  systemPrompt: COORDINATOR_PROMPT,
  source: "built-in",
  extra: {}
};

// src/main/runtime/orchestration/coordinator.ts
var PURPOSE = {
  research: "Start Explore agents in parallel, one question each.",
  synthesis: "Turn the findings into a plan (yourself, or with a Plan agent).",
  implementation: "Start named general-purpose workers, one per independent unit, in one message; each gets its own git worktree.",
  verification: "Start a verifier to run the tests and checks on each worker's branch; continue a worker with SendMessage to fix what fails."
};
var Coordinator = class {
  constructor(s) {
    this.s = s;
  }
  s;
  phase = null;
  git = null;
  setPhaseTool(coordinator) {
    return defineTool({
      name: SET_PHASE_TOOL_NAME,
      description: `Say which phase of the work you are entering: ${COORDINATOR_PHASES.join(", ")}. Call it before starting the phase's agents; the person sees the phase, and the agents you start are grouped under it.`,
      schema: z6.object({ phase: z6.enum(COORDINATOR_PHASES), note: z6.string().trim().max(500).optional().describe("One line on what this phase is for in this task") }).strict(),
      readOnly: false,
      // Never runs alongside the Agent calls of the same message: it must take effect before them.
      concurrencySafe: false,
      execute: async (input) => {
        const previous = this.phase;
        this.phase = input.phase;
        this.s.emit({ agentId: coordinator.id, parentAgentId: coordinator.parentId, parentToolUseId: coordinator.parentToolUseId, sessionId: this.s.sessionId, ts: Date.now(), type: "phase", phase: input.phase, ...input.note ? { note: input.note } : {} });
        return { content: `Phase: ${input.phase}${previous && previous !== input.phase ? ` (was ${previous})` : ""}. ${PURPOSE[input.phase]}`, details: { phase: input.phase, previous } };
      }
    });
  }
  /** After a restart: the phase the coordinator last set, read from its conversation. */
  restore(messages) {
    for (const m of messages) {
      if (m.role !== "assistant" || typeof m.content === "string") continue;
      for (const b of m.content) {
        const phase = b.type === "tool_use" && b.name === SET_PHASE_TOOL_NAME ? b.input?.phase : void 0;
        if (COORDINATOR_PHASES.includes(phase)) this.phase = phase;
      }
    }
  }
  /** The coordinator's Agent tool: in the implementation phase a new agent gets its own worktree, in a git repository. */
  wrapSpawn(spawn7) {
    return async (input, ctx) => {
      if (this.phase === "implementation" && !input.resume && input.isolation === void 0 && await this.inGit()) return spawn7({ ...input, isolation: "worktree" }, ctx);
      return spawn7(input, ctx);
    };
  }
  inGit() {
    this.git ??= probeGit(this.s.cwd).then(
      (p) => p.isGitRepo,
      () => false
    );
    return this.git;
  }
};

// src/main/runtime/orchestration/event-bus.ts
var EventBus = class {
  listeners = [];
  subscribe(listener) {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
  emit = (event) => {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        console.error(`fanout: an event listener failed on ${event.type}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };
};

// src/main/runtime/hooks/config.ts
var HOOK_EVENTS = ["PreToolUse", "PostToolUse", "SubagentStart", "SubagentStop"];
var OTHER_EVENTS = /* @__PURE__ */ new Set(["PostToolUseFailure", "Notification", "UserPromptSubmit", "Stop", "PreCompact", "PostCompact", "SessionStart", "SessionEnd", "PermissionRequest", "Setup"]);
var DEFAULT_HOOK_TIMEOUT_SEC = 60;
var emptyHookTable = () => ({ PreToolUse: [], PostToolUse: [], SubagentStart: [], SubagentStop: [] });
function mergeHookTables(...tables) {
  const out = emptyHookTable();
  for (const t of tables) for (const e of HOOK_EVENTS) out[e].push(...t[e]);
  return out;
}
function matcherMatches(matcher, value) {
  if (matcher === void 0 || matcher === "" || matcher === "*") return true;
  if (/^[A-Za-z0-9_|-]+$/.test(matcher)) return matcher.split("|").includes(value);
  try {
    return new RegExp(matcher).test(value);
  } catch {
    return false;
  }
}
function parseHooks(value, source, inDefinition = false) {
  const table = emptyHookTable();
  const problems = [];
  if (value === void 0 || value === null) return { table, problems };
  if (typeof value !== "object" || Array.isArray(value)) {
    problems.push(`${source}: "hooks" must be a mapping of hook events (PreToolUse, PostToolUse, SubagentStart, SubagentStop) to lists of matchers`);
    return { table, problems };
  }
  for (const [rawEvent, matchers] of Object.entries(value)) {
    const event = inDefinition && rawEvent === "Stop" ? "SubagentStop" : rawEvent;
    if (!HOOK_EVENTS.includes(event)) {
      if (!OTHER_EVENTS.has(rawEvent)) problems.push(`${source}: unknown hook event "${rawEvent}"; Fanout runs ${HOOK_EVENTS.join(", ")}`);
      continue;
    }
    if (!Array.isArray(matchers)) {
      problems.push(`${source}: hooks.${rawEvent} must be a list like [{"matcher": "Bash", "hooks": [{"type": "command", "command": "..."}]}]`);
      continue;
    }
    matchers.forEach((m, i) => {
      const where = `${source}: hooks.${rawEvent}[${i}]`;
      if (!m || typeof m !== "object" || Array.isArray(m)) return problems.push(`${where} must be an object with "matcher" and "hooks"`);
      const entry = m;
      if (entry.matcher !== void 0 && typeof entry.matcher !== "string") return problems.push(`${where}.matcher must be a string`);
      if (typeof entry.matcher === "string" && !/^[A-Za-z0-9_|*-]*$/.test(entry.matcher)) {
        try {
          new RegExp(entry.matcher);
        } catch (err) {
          return problems.push(`${where}.matcher is not a valid regular expression (${err.message}); these hooks never run`);
        }
      }
      if (!Array.isArray(entry.hooks)) return problems.push(`${where}.hooks must be a list of {"type": "command", "command": "..."}`);
      const hooks = [];
      entry.hooks.forEach((h, j) => {
        const at = `${where}.hooks[${j}]`;
        if (!h || typeof h !== "object") return problems.push(`${at} must be an object`);
        const hook = h;
        if (hook.type !== "command") return problems.push(`${at}: hook type ${JSON.stringify(hook.type)} is not supported by Fanout; only "command" hooks run`);
        if (typeof hook.command !== "string" || !hook.command.trim()) return problems.push(`${at}.command must be a non-empty shell command`);
        let timeoutSec = DEFAULT_HOOK_TIMEOUT_SEC;
        if (hook.timeout !== void 0) {
          if (typeof hook.timeout === "number" && hook.timeout > 0) timeoutSec = hook.timeout;
          else problems.push(`${at}.timeout must be a number of seconds above 0; using ${DEFAULT_HOOK_TIMEOUT_SEC}`);
        }
        hooks.push({ command: hook.command, timeoutSec, source });
      });
      if (hooks.length) table[event].push({ ...typeof entry.matcher === "string" ? { matcher: entry.matcher } : {}, hooks });
    });
  }
  return { table, problems };
}
function hooksFromSettings(files) {
  if (files.some((f) => f.json.disableAllHooks === true)) return { table: emptyHookTable(), problems: [] };
  const parsed = files.map((f) => parseHooks(f.json.hooks, f.file));
  return { table: mergeHookTables(...parsed.map((p) => p.table)), problems: parsed.flatMap((p) => p.problems) };
}

// src/main/runtime/hooks/run-command.ts
init_child_env();
init_process_group();
import { spawn } from "node:child_process";
var MAX_OUTPUT_CHARS = 1e6;
function runHookCommand(opts) {
  return new Promise((resolve24) => {
    const shell = process.platform === "win32" ? { cmd: "cmd.exe", args: ["/d", "/s", "/c", opts.command] } : { cmd: "/bin/sh", args: ["-c", opts.command] };
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let settled = false;
    const done = (run) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve24(run);
    };
    const child2 = spawn(shell.cmd, shell.args, {
      cwd: opts.projectDir,
      env: childEnv({ base: opts.env ?? process.env, pass: opts.passEnv, set: { CLAUDE_PROJECT_DIR: opts.projectDir } }),
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32"
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child2.pid !== void 0) {
        if (process.platform === "win32") child2.kill("SIGKILL");
        else killProcessGroup(child2.pid, "SIGKILL");
      }
    }, opts.timeoutMs);
    child2.stdout.on("data", (c) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += c.toString("utf8");
    });
    child2.stderr.on("data", (c) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += c.toString("utf8");
    });
    child2.once("error", (err) => done({ exitCode: null, stdout, stderr, timedOut, spawnError: err.message }));
    child2.once("close", (code) => done({ exitCode: timedOut ? null : code, stdout, stderr, timedOut }));
    child2.stdin.on("error", () => void 0);
    child2.stdin.end(JSON.stringify(opts.input));
  });
}

// src/main/runtime/hooks/runner.ts
var reminder = (text2) => `<system-reminder>
${text2}
</system-reminder>`;
var stderrTail = (text2) => {
  const t = text2.trim();
  return t ? `
${t.split("\n").slice(-10).join("\n").slice(-2e3)}` : "";
};
var isObject = (v) => !!v && typeof v === "object" && !Array.isArray(v);
var HookRunner = class {
  constructor(opts) {
    this.opts = opts;
  }
  opts;
  settings = emptyHookTable();
  settingsProblems = [];
  definitionTables = /* @__PURE__ */ new WeakMap();
  /** The hooks of the settings files (from reload); their problems are reported on the next agent that runs. */
  configure(table, problems) {
    this.settings = table;
    this.settingsProblems = problems;
  }
  tableFor(agent) {
    if (this.settingsProblems.length) {
      for (const p of this.settingsProblems.splice(0)) this.opts.report(agent.id, `Hook configuration: ${p}`);
    }
    const def = agent.definition;
    if (!def || def.hooks === void 0) return this.settings;
    let own = this.definitionTables.get(def);
    if (!own) {
      const parsed = parseHooks(def.hooks, def.file ?? `agent ${def.agentType}`, true);
      for (const p of parsed.problems) this.opts.report(agent.id, `Hook configuration: ${p}`);
      own = parsed.table;
      this.definitionTables.set(def, own);
    }
    return mergeHookTables(this.settings, own);
  }
  /** True when some hook of this event could match (lets callers skip work when none is configured). */
  has(event, agent) {
    return this.tableFor(agent)[event].length > 0;
  }
  async run(event, agent, matchOn, fields) {
    const commands = /* @__PURE__ */ new Map();
    for (const m of this.tableFor(agent)[event]) if (matcherMatches(m.matcher, matchOn)) {
      for (const h of m.hooks) if (!commands.has(h.command)) commands.set(h.command, h);
    }
    if (!commands.size) return [];
    const transcript = this.opts.transcriptPath?.(this.opts.mainAgentId ?? agent.id);
    const input = {
      session_id: this.opts.sessionId,
      ...transcript ? { transcript_path: transcript } : {},
      cwd: agent.cwd,
      permission_mode: agent.permissionMode,
      hook_event_name: event,
      agent_id: agent.id,
      agent_type: agent.agentType,
      ...fields
    };
    return Promise.all(
      [...commands.values()].map(async (hook) => {
        const run = await runHookCommand({ command: hook.command, input, projectDir: this.opts.projectDir, timeoutMs: hook.timeoutSec * 1e3, ...this.opts.env ? { env: this.opts.env } : {}, ...this.opts.passEnv ? { passEnv: this.opts.passEnv } : {} });
        return this.read(event, agent, hook, run);
      })
    );
  }
  read(event, agent, hook, run) {
    const name = `${event} hook \`${hook.command}\` (${hook.source})`;
    const fail = (why) => {
      this.opts.report(agent.id, `${name} ${why}; it was ignored.${stderrTail(run.stderr)}`);
      return { kind: "none" };
    };
    if (run.spawnError) return fail(`could not be started: ${run.spawnError}`);
    if (run.timedOut) return fail(`did not finish within its ${hook.timeoutSec} s timeout and was stopped`);
    if (run.exitCode === 2) return { kind: "block", reason: run.stderr.trim() || `${event} hook \`${hook.command}\` exited with code 2.` };
    if (run.exitCode !== 0) return fail(`failed with exit code ${run.exitCode}`);
    const out = run.stdout.trim();
    if (!out.startsWith("{")) return { kind: "none" };
    try {
      const json = JSON.parse(out);
      if (!isObject(json)) return fail("printed JSON that is not an object");
      return { kind: "json", out: json };
    } catch (err) {
      return fail(`printed output that starts like JSON but does not parse (${err.message})`);
    }
  }
  /** SubagentStart: context the hooks add, each wrapped as a system reminder for the agent's first message. */
  async subagentStart(agent) {
    const said = await this.run("SubagentStart", agent, agent.agentType, {});
    const out = [];
    for (const s of said) {
      if (s.kind === "block") this.opts.report(agent.id, `A SubagentStart hook exited with code 2 (SubagentStart hooks cannot stop an agent): ${s.reason}`);
      const ctx = s.kind === "json" ? s.out.hookSpecificOutput?.additionalContext : void 0;
      if (typeof ctx === "string" && ctx.trim()) out.push(reminder(`SubagentStart hook additional context: ${ctx.trim()}`));
    }
    return out;
  }
  /** SubagentStop: the reason to keep going when a hook blocks the agent from finishing, else null. */
  async subagentStop(agent, info) {
    const transcript = this.opts.transcriptPath?.(agent.id);
    const said = await this.run("SubagentStop", agent, agent.agentType, {
      stop_hook_active: info.stopHookActive,
      ...transcript ? { agent_transcript_path: transcript } : {},
      last_assistant_message: info.lastMessage,
      status: info.status
    });
    const reasons = [];
    for (const s of said) {
      if (s.kind === "block") reasons.push(s.reason);
      else if (s.kind === "json" && (s.out.decision === "block" || s.out.decision === "deny")) reasons.push(typeof s.out.reason === "string" && s.out.reason.trim() ? s.out.reason.trim() : "A SubagentStop hook asked you to continue before finishing.");
    }
    return reasons.length ? reasons.join("\n") : null;
  }
  /** PreToolUse: deny wins over ask over allow; the last updatedInput given is used. */
  async preToolUse(agent, toolName, input, toolUseId) {
    const said = await this.run("PreToolUse", agent, toolName, { tool_name: toolName, tool_input: input, tool_use_id: toolUseId });
    const outcome = {};
    const rank = { allow: 1, ask: 2, deny: 3 };
    const decide2 = (d, reason) => {
      if (!outcome.decision || rank[d] > rank[outcome.decision]) {
        outcome.decision = d;
        if (reason) outcome.reason = reason;
        else delete outcome.reason;
      }
    };
    for (const s of said) {
      if (s.kind === "block") decide2("deny", s.reason);
      if (s.kind !== "json") continue;
      const h = s.out.hookSpecificOutput;
      const d = h?.permissionDecision ?? (s.out.decision === "approve" ? "allow" : s.out.decision === "block" ? "deny" : void 0);
      const reason = typeof h?.permissionDecisionReason === "string" ? h.permissionDecisionReason : typeof s.out.reason === "string" ? s.out.reason : void 0;
      if (d === "allow" || d === "ask" || d === "deny") decide2(d, reason);
      else if (d !== void 0) this.opts.report(agent.id, `A PreToolUse hook answered permissionDecision ${JSON.stringify(d)}; expected "allow", "deny" or "ask". It was ignored.`);
      if (isObject(h?.updatedInput)) outcome.updatedInput = h.updatedInput;
    }
    return outcome;
  }
  /** PostToolUse: feedback and context for the model, and (MCP tools) a replacement for the tool's output. */
  async postToolUse(agent, toolName, input, response, toolUseId) {
    const said = await this.run("PostToolUse", agent, toolName, { tool_name: toolName, tool_input: input, tool_response: response, tool_use_id: toolUseId });
    const notes = [];
    let replaceOutput;
    for (const s of said) {
      if (s.kind === "block") notes.push(reminder(`PostToolUse hook feedback: ${s.reason}`));
      if (s.kind !== "json") continue;
      if (s.out.decision === "block") notes.push(reminder(`PostToolUse hook feedback: ${typeof s.out.reason === "string" ? s.out.reason : "a PostToolUse hook objected to this result"}`));
      const ctx = s.out.hookSpecificOutput?.additionalContext;
      if (typeof ctx === "string" && ctx.trim()) notes.push(reminder(`PostToolUse hook additional context: ${ctx.trim()}`));
      const replaced = s.out.hookSpecificOutput?.updatedMCPToolOutput;
      if (replaced !== void 0 && toolName.startsWith("mcp__")) replaceOutput = typeof replaced === "string" ? replaced : JSON.stringify(replaced);
    }
    return { notes, ...replaceOutput !== void 0 ? { replaceOutput } : {} };
  }
};

// src/main/runtime/hooks/settings-files.ts
import { existsSync as existsSync6, readFileSync as readFileSync2 } from "node:fs";
import { join as join18, resolve as resolve16 } from "node:path";
function readSettingsFiles(opts) {
  const cwd2 = resolve16(opts.cwd);
  const managed = opts.managedFile === void 0 ? MANAGED_SETTINGS_FILE : opts.managedFile;
  const candidates = [
    { file: join18(opts.home, ".claude", "settings.json"), source: "user" },
    { file: join18(cwd2, ".claude", "settings.json"), source: "project" },
    { file: join18(cwd2, ".claude", "settings.local.json"), source: "local" },
    ...managed ? [{ file: managed, source: "managed" }] : []
  ];
  const files = [];
  const problems = [];
  const seen = /* @__PURE__ */ new Set();
  for (const c of candidates) {
    if (seen.has(c.file) || !existsSync6(c.file)) continue;
    seen.add(c.file);
    let text2;
    try {
      text2 = readFileSync2(c.file, "utf8");
    } catch (err) {
      problems.push(`${c.file}: could not be read (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    if (!text2.trim()) continue;
    try {
      const json = JSON.parse(text2);
      if (json && typeof json === "object" && !Array.isArray(json)) files.push({ ...c, json });
      else problems.push(`${c.file}: settings must be a JSON object`);
    } catch (err) {
      problems.push(`${c.file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  return { files, problems };
}

// src/main/runtime/mcp/load-config.ts
init_server_config();
import { existsSync as existsSync7, readFileSync as readFileSync3 } from "node:fs";
import { dirname as dirname12, join as join19, resolve as resolve17 } from "node:path";
function readJson(file, problems) {
  if (!existsSync7(file)) return null;
  try {
    const json = JSON.parse(readFileSync3(file, "utf8"));
    if (json && typeof json === "object" && !Array.isArray(json)) return json;
    problems.push(`${file}: must be a JSON object`);
  } catch (err) {
    problems.push(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)}); its MCP servers are not loaded`);
  }
  return null;
}
function serversOf(json, file, problems) {
  const servers = json?.mcpServers;
  if (servers === void 0 || servers === null) return {};
  if (typeof servers !== "object" || Array.isArray(servers)) {
    problems.push(`${file}: "mcpServers" must be an object mapping server names to their configuration`);
    return {};
  }
  return servers;
}
var stringList = (v) => Array.isArray(v) ? v.filter((s) => typeof s === "string") : [];
function projectFiles(cwd2) {
  const out = [];
  let dir = resolve17(cwd2);
  for (; ; ) {
    out.unshift(join19(dir, ".mcp.json"));
    const parent = dirname12(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}
function loadMcpConfig(opts) {
  const env = opts.env ?? process.env;
  const problems = [];
  const byName = /* @__PURE__ */ new Map();
  const add = (raw, scope, file, where) => {
    for (const [name, value] of Object.entries(raw)) {
      const parsed = parseServerConfig(name, value, where, env);
      const disabled = !!value && typeof value === "object" && value.disabled === true;
      byName.delete(name);
      byName.set(name, { name, scope, ...file ? { file } : {}, ..."config" in parsed ? { config: parsed.config } : { error: parsed.error }, ...disabled ? { disabled: true } : {} });
    }
  };
  if (opts.fanoutServers) add(opts.fanoutServers, "fanout", void 0, "Fanout settings");
  const claudeJsonFile = join19(opts.home, ".claude.json");
  const claudeJson = readJson(claudeJsonFile, problems);
  add(serversOf(claudeJson, claudeJsonFile, problems), "user", claudeJsonFile, claudeJsonFile);
  for (const file of projectFiles(opts.cwd)) {
    const json = readJson(file, problems);
    if (json) add(serversOf(json, file, problems), "project", file, file);
  }
  const projects = claudeJson?.projects;
  const local = projects && typeof projects === "object" ? projects[resolve17(opts.cwd)] : void 0;
  if (local && typeof local === "object") add(serversOf(local, `${claudeJsonFile} (projects["${resolve17(opts.cwd)}"])`, problems), "local", claudeJsonFile, `${claudeJsonFile} for ${resolve17(opts.cwd)}`);
  const disabledProject = /* @__PURE__ */ new Set([...(opts.settingsFiles ?? []).flatMap((f) => stringList(f.json.disabledMcpjsonServers)), ...stringList(local?.disabledMcpjsonServers)]);
  const disabledAny = new Set(stringList(local?.disabledMcpServers));
  for (const entry of byName.values()) {
    if (entry.scope === "project" && disabledProject.has(entry.name) || disabledAny.has(entry.name)) entry.disabled = true;
  }
  return { servers: [...byName.values()], problems };
}

// src/main/runtime/definitions/tool-list.ts
var TOOL_ALIASES = Object.freeze({ Task: "Agent" });
function splitToolString(value) {
  const out = [];
  let current = "";
  let depth = 0;
  const flush = () => {
    const t = current.trim();
    if (t) out.push(t);
    current = "";
  };
  for (const ch of value) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === "," || ch === " " || ch === "	" || ch === "\n")) flush();
    else current += ch;
  }
  flush();
  return out;
}
function readToolList(value) {
  if (value === void 0 || value === null) return { dropped: [] };
  if (typeof value === "string") return { list: splitToolString(value), dropped: [] };
  if (Array.isArray(value)) {
    const dropped = value.filter((item) => typeof item !== "string");
    return { list: value.filter((item) => typeof item === "string").flatMap(splitToolString), dropped };
  }
  return { list: [], dropped: [value] };
}
function parseToolSpec(spec2) {
  const s = spec2.trim();
  const open5 = s.indexOf("(");
  let name = s;
  let ruleContent;
  if (open5 > 0 && s.endsWith(")")) {
    name = s.slice(0, open5).trim();
    const content = s.slice(open5 + 1, -1).trim();
    if (content !== "" && content !== "*") ruleContent = content;
  }
  return { toolName: Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : name, ...ruleContent !== void 0 ? { ruleContent } : {} };
}
var isMcpToolName = (name) => name.startsWith("mcp__");
function mcpServerWildcard(name) {
  if (!isMcpToolName(name)) return void 0;
  const parts = name.split("__");
  if (parts.length === 2 && parts[1]) return `${name}__`;
  if (parts.length === 3 && parts[2] === "*" && parts[1]) return `mcp__${parts[1]}__`;
  return void 0;
}

// src/main/runtime/mcp/agent-servers.ts
init_server_config();
function readAgentServers(value, where, env) {
  if (value === void 0 || value === null) return [];
  const inline = (name, raw) => {
    const parsed = parseServerConfig(name, raw, where, env);
    return "config" in parsed ? { kind: "inline", name, config: parsed.config } : { kind: "invalid", error: parsed.error };
  };
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (typeof item === "string") return item.trim() ? [{ kind: "named", name: item.trim() }] : [];
      if (item && typeof item === "object" && !Array.isArray(item)) return Object.entries(item).map(([name, raw]) => inline(name, raw));
      return [{ kind: "invalid", error: `${where}: each mcpServers item must be a server name or {name: configuration}; ${JSON.stringify(item)} is ignored` }];
    });
  }
  if (typeof value === "object") return Object.entries(value).map(([name, raw]) => inline(name, raw));
  return [{ kind: "invalid", error: `${where}: mcpServers must be a list of server names or configurations` }];
}

// src/main/runtime/mcp/session-mcp.ts
init_errors();

// src/main/runtime/mcp/mcp-tool.ts
init_server_config();

// src/main/runtime/mcp/tool-result.ts
var MAX_INLINE_IMAGE_BASE64 = 15e5;
var kb = (base64) => Math.floor(base64.length * 3 / 4) - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0);
var size = (bytes) => bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${Math.round(bytes / 102.4) / 10} KB` : `${Math.round(bytes / 104857.6) / 10} MB`;
function mcpResultToToolResult(server, tool, result) {
  const details = { server, tool };
  const parts = [];
  const blocks = Array.isArray(result.content) ? result.content : [];
  for (const b of blocks) {
    if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b.type === "image" && typeof b.data === "string") {
      const bytes = kb(b.data);
      (details.images ??= []).push({ mimeType: b.mimeType ?? "image", bytes, ...b.data.length <= MAX_INLINE_IMAGE_BASE64 ? { data: b.data } : {} });
      parts.push(`[${b.mimeType ?? "image"} image, ${size(bytes)}, returned by ${tool}: images from MCP tools are kept for the person to see, not passed to you]`);
    } else if (b.type === "audio" && typeof b.data === "string") parts.push(`[${b.mimeType ?? "audio"} audio, ${size(kb(b.data))}, not passed to you]`);
    else if (b.type === "resource" && b.resource) {
      if (typeof b.resource.text === "string") parts.push(`${b.resource.uri ? `[resource ${b.resource.uri}]
` : ""}${b.resource.text}`);
      else parts.push(`[resource ${b.resource.uri ?? ""} (${b.resource.mimeType ?? "binary"}${b.resource.blob ? `, ${size(kb(b.resource.blob))}` : ""}), not passed to you]`);
    } else if (b.type === "resource_link") parts.push(`[resource link: ${b.uri ?? ""}${b.name ? ` (${b.name})` : ""}]`);
  }
  if (result.structuredContent !== void 0) {
    details.structuredContent = result.structuredContent;
    if (!parts.length) parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  if (!parts.length && result.toolResult !== void 0) parts.push(typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult));
  const isError = result.isError === true;
  const content = parts.join("\n") || (isError ? `${tool} failed without saying why.` : `(${tool} returned no content)`);
  return { content, details, ...isError ? { isError: true } : {} };
}

// src/main/runtime/mcp/mcp-tool.ts
var MAX_DESCRIPTION_CHARS = 2048;
var MCP_MAX_OUTPUT_CHARS = 1e5;
var DEFAULT_MCP_CALL_TIMEOUT_MS = 10 * 6e4;
function jsonType(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
function typeMatches(expected, actual) {
  return expected === actual || expected === "number" && actual === "integer";
}
function checkInput(schema10, input) {
  if (jsonType(input) !== "object") return [`(input): expected an object, got ${jsonType(input)}`];
  const obj = input;
  const problems = [];
  for (const key of Array.isArray(schema10.required) ? schema10.required : []) {
    if (typeof key === "string" && obj[key] === void 0) problems.push(`${key}: required`);
  }
  for (const [key, value] of Object.entries(obj)) {
    const prop = schema10.properties?.[key];
    if (!prop || value === void 0) continue;
    const types = prop.type === void 0 ? [] : Array.isArray(prop.type) ? prop.type : [prop.type];
    const actual = jsonType(value);
    if (types.length && !types.some((t) => typeMatches(t, actual))) problems.push(`${key}: expected ${types.join(" or ")}, got ${actual}`);
    else if (Array.isArray(prop.enum) && !prop.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
      problems.push(`${key}: expected one of ${prop.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  }
  return problems;
}
function createMcpTool(conn, info, opts = {}) {
  const name = mcpToolName(conn.name, info.name);
  const schema10 = { ...info.inputSchema, type: "object" };
  const readOnly = info.annotations?.readOnlyHint === true;
  const label = `${info.name} (MCP server "${conn.name}")`;
  const description = (info.description?.trim() || `The ${info.name} tool of MCP server ${conn.name}.`).slice(0, MAX_DESCRIPTION_CHARS);
  const parse = (raw) => {
    const input = raw ?? {};
    const problems = checkInput(schema10, input);
    if (!problems.length) return { ok: true, input };
    return { ok: false, error: `Invalid input for ${name}:
${problems.map((p) => `- ${p}`).join("\n")}
Fix the input and call ${name} again.` };
  };
  const fail = (content) => ({ content, isError: true, details: { server: conn.name, tool: info.name } });
  return {
    name,
    description,
    inputJsonSchema: schema10,
    readOnly,
    concurrencySafe: readOnly,
    parse,
    async run(raw, ctx) {
      const parsed = parse(raw);
      if (!parsed.ok) return fail(parsed.error);
      if (ctx.signal.aborted) return fail(`${name} was not run: the agent was stopped.`);
      const lost = conn.lostReason();
      if (lost) return fail(`${name} cannot run: ${lost}`);
      try {
        const result = await conn.client.callTool({ name: info.name, arguments: parsed.input }, void 0, {
          signal: ctx.signal,
          timeout: opts.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS,
          resetTimeoutOnProgress: true
        });
        const mapped = mcpResultToToolResult(conn.name, info.name, result);
        return { ...mapped, content: truncateOutput(mapped.content, MCP_MAX_OUTPUT_CHARS) };
      } catch (err) {
        if (ctx.signal.aborted) return fail(`${name} was interrupted: the agent was stopped.`);
        const gone = conn.lostReason();
        if (gone) return fail(`${name} failed: ${gone}`);
        const { ErrorCode: ErrorCode2, McpError: McpError2 } = await import("@modelcontextprotocol/sdk/types.js");
        if (err instanceof McpError2) {
          if (err.code === ErrorCode2.InvalidParams) return fail(`${label} rejected the input: ${err.message}. Fix the input and call ${name} again.`);
          if (err.code === ErrorCode2.MethodNotFound) return fail(`${label} does not offer this tool any more: ${err.message}.`);
          if (err.code === ErrorCode2.RequestTimeout) return fail(`${label} did not answer within ${Math.round((opts.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS) / 1e3)} s.`);
        }
        return fail(`${label} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };
}

// src/main/runtime/mcp/session-mcp.ts
init_server_config();
var loadConnect = async () => (await Promise.resolve().then(() => (init_connect(), connect_exports))).connectMcpServer;
var NOTHING = { tools: [], close: async () => void 0 };
var SessionMcp = class {
  constructor(opts) {
    this.opts = opts;
  }
  opts;
  entries = [];
  live = /* @__PURE__ */ new Map();
  closed = false;
  /** The configured servers (from reload). Servers already connected keep running until the session closes. */
  configure(config) {
    this.entries = config.servers;
  }
  get servers() {
    return this.entries;
  }
  /** Connects every enabled configured server not tried yet; resolves when each has connected or failed. */
  async ready(agentId) {
    if (this.closed) return;
    await Promise.all(this.entries.filter((e) => !e.disabled).map((e) => this.start(e, agentId).attempt));
  }
  start(entry, agentId) {
    const existing = this.live.get(entry.name);
    if (existing) return existing;
    const live = { entry, tools: [], attempt: Promise.resolve() };
    this.live.set(entry.name, live);
    live.attempt = (async () => {
      if (!entry.config) {
        live.error = entry.error ?? `MCP server "${entry.name}" has no usable configuration.`;
      } else {
        try {
          live.connection = await (await loadConnect())(entry.name, entry.config, { cwd: this.opts.cwd, ...this.opts.passEnv ? { passEnv: this.opts.passEnv } : {}, ...this.opts.startTimeoutMs ? { timeoutMs: this.opts.startTimeoutMs } : {} });
          if (this.closed) {
            await live.connection.close();
            return;
          }
          live.tools = this.toolsOf(live.connection);
        } catch (err) {
          live.error = err instanceof McpStartError ? err.message : `MCP server "${entry.name}" failed to start: ${err instanceof Error ? err.message : String(err)}`;
        }
      }
      if (live.error && agentId) this.opts.report(agentId, `${live.error} Its tools are not available; the other tools work as usual.`);
    })();
    return live;
  }
  toolsOf(connection) {
    return connection.tools.map((t) => createMcpTool(connection, t, this.opts.callTimeoutMs ? { callTimeoutMs: this.opts.callTimeoutMs } : {}));
  }
  /** Tool names of the connected configured servers (for tool resolution). */
  toolNames() {
    return this.sessionTools().map((t) => t.name);
  }
  /** Tools of the connected configured servers. */
  sessionTools() {
    return [...this.live.values()].flatMap((l) => l.connection ? l.tools : []);
  }
  /**
   * Connects the agent's own servers for one run and returns their tools (minus `disallowedTools`). Also says,
   * on this agent, when its `tools` list names a configured server that failed: its other tools still work.
   */
  async openForAgent(agent) {
    const def = agent.definition;
    if (!def || this.closed) return NOTHING;
    const where = def.file ?? `the definition of ${agent.agentType}`;
    for (const spec2 of def.tools ?? []) {
      const prefix = mcpServerWildcard(parseToolSpec(spec2).toolName) ?? (isMcpToolName(spec2) ? spec2 : void 0);
      const failed = prefix && [...this.live.values()].find((l) => l.error && prefix.startsWith(`mcp__${normalizeMcpName(l.entry.name)}__`));
      if (failed) this.opts.report(agent.id, `Agent ${agent.agentType} lists ${spec2} in its tools, but ${failed.error} Its other tools work as usual.`);
    }
    const refs = readAgentServers(def.mcpServers, where, this.opts.env ?? process.env);
    if (!refs.length) return NOTHING;
    const owned = [];
    const tools = [];
    await Promise.all(
      refs.map(async (ref) => {
        if (ref.kind === "invalid") return this.opts.report(agent.id, `${ref.error}. The agent runs without it.`);
        if (ref.kind === "named") {
          const entry = this.entries.find((e) => e.name === ref.name);
          if (!entry) return this.opts.report(agent.id, `Agent ${agent.agentType} uses MCP server "${ref.name}", which is not configured (in .mcp.json, ~/.claude.json or Fanout settings). The agent runs without it.`);
          if (entry.disabled) return this.opts.report(agent.id, `Agent ${agent.agentType} uses MCP server "${ref.name}", which is disabled in settings. The agent runs without it.`);
          const tried = this.live.has(entry.name);
          const live = this.start(entry, agent.id);
          await live.attempt;
          if (live.error && tried) this.opts.report(agent.id, `Agent ${agent.agentType} uses MCP server "${ref.name}", but ${live.error} The agent runs without it.`);
          tools.push(...live.tools);
          return;
        }
        try {
          const conn = await (await loadConnect())(ref.name, ref.config, { cwd: this.opts.cwd, ...this.opts.passEnv ? { passEnv: this.opts.passEnv } : {}, ...this.opts.startTimeoutMs ? { timeoutMs: this.opts.startTimeoutMs } : {} });
          owned.push(conn);
          tools.push(...this.toolsOf(conn));
        } catch (err) {
          const why = err instanceof McpStartError ? err.message : `MCP server "${ref.name}" failed to start: ${err instanceof Error ? err.message : String(err)}`;
          this.opts.report(agent.id, `${why} Agent ${agent.agentType} declares this server; its tools are not available, the other tools work as usual.`);
        }
      })
    );
    const denied = (name) => (def.disallowedTools ?? []).some((spec2) => {
      const t = parseToolSpec(spec2).toolName;
      const prefix = mcpServerWildcard(t);
      return prefix ? name.startsWith(prefix) : t === name;
    });
    const seen = /* @__PURE__ */ new Set();
    const kept = tools.filter((t) => !denied(t.name) && !seen.has(t.name) && seen.add(t.name));
    return {
      tools: kept,
      close: async () => {
        await Promise.all(owned.map((c) => c.close()));
      }
    };
  }
  /** Every configured server with its state and tools (for the UI's list). */
  status() {
    return this.entries.map((entry) => {
      const live = this.live.get(entry.name);
      const transport = entry.config?.type ?? null;
      const base = { name: entry.name, scope: entry.scope, transport, target: entry.config ? describeTransport(entry.config) : "", ...entry.file ? { file: entry.file } : {} };
      if (entry.disabled) return { ...base, status: "disabled", tools: [] };
      if (!live || !live.connection && !live.error) return { ...base, status: entry.error ? "failed" : "pending", ...entry.error ? { error: entry.error } : {}, tools: [] };
      if (live.error) return { ...base, status: "failed", error: live.error, tools: [] };
      const lost = live.connection?.lostReason();
      const tools = (live.connection?.tools ?? []).map((t) => ({ name: mcpToolName(entry.name, t.name), tool: t.name, description: t.description ?? "", readOnly: t.annotations?.readOnlyHint === true }));
      return lost ? { ...base, status: "failed", error: lost, tools } : { ...base, status: "connected", tools };
    });
  }
  /** Closes every server this session started. */
  async close() {
    this.closed = true;
    const lives = [...this.live.values()];
    await Promise.all(lives.map(async (l) => {
      await l.attempt.catch(() => void 0);
      await l.connection?.close();
    }));
  }
};

// src/main/runtime/orchestration/extensions.ts
var SessionExtensions = class {
  constructor(opts) {
    this.opts = opts;
    this.mcp = new SessionMcp({ cwd: opts.cwd, ...opts.env ? { env: opts.env } : {}, ...opts.passEnv ? { passEnv: opts.passEnv } : {}, ...opts.mcpStartTimeoutMs ? { startTimeoutMs: opts.mcpStartTimeoutMs } : {}, report: this.report });
    this.hooks = new HookRunner({
      sessionId: opts.sessionId,
      projectDir: opts.cwd,
      mainAgentId: opts.mainAgentId,
      report: this.report,
      ...opts.dataDir ? { transcriptPath: (agentId) => transcriptPath(opts.dataDir, opts.sessionId, agentId) } : {},
      ...opts.env ? { env: opts.env } : {},
      ...opts.passEnv ? { passEnv: opts.passEnv } : {}
    });
  }
  opts;
  mcp;
  hooks;
  own = /* @__PURE__ */ new Map();
  /** An error event on the agent (it keeps running). */
  report = (agentId, message) => {
    const h = this.opts.registry.get(agentId);
    this.opts.emit({ agentId, parentAgentId: h?.parentId ?? null, parentToolUseId: h?.parentToolUseId ?? null, sessionId: this.opts.sessionId, ts: Date.now(), type: "error", message, retrying: false });
  };
  /** Re-reads `.mcp.json`, `~/.claude.json` and the settings files (hooks, disabled servers). */
  reload() {
    const settings = readSettingsFiles({ cwd: this.opts.cwd, home: this.opts.home, ...this.opts.managedSettingsFile !== void 0 ? { managedFile: this.opts.managedSettingsFile } : {} });
    const mcp = loadMcpConfig({ cwd: this.opts.cwd, home: this.opts.home, settingsFiles: settings.files, ...this.opts.mcpServers ? { fanoutServers: this.opts.mcpServers } : {}, ...this.opts.env ? { env: this.opts.env } : {} });
    this.mcp.configure(mcp);
    const hooks = hooksFromSettings(settings.files);
    this.hooks.configure(hooks.table, [...settings.problems, ...hooks.problems, ...mcp.problems]);
  }
  /** Connects the session's servers (once) and the definition's own (for this run); the result closes the latter. */
  async prepareRun(handle, def) {
    await this.mcp.ready(handle.id);
    const stale = this.own.get(handle.id);
    this.own.delete(handle.id);
    await stale?.close();
    const own = await this.mcp.openForAgent({ id: handle.id, agentType: def?.agentType ?? handle.agentType, definition: def });
    this.own.set(handle.id, own);
    return async () => {
      if (this.own.get(handle.id) === own) this.own.delete(handle.id);
      await own.close();
    };
  }
  /** Tool names of the session's connected servers (for tool resolution). */
  toolNames() {
    return this.mcp.toolNames();
  }
  /** The agent's tools plus its MCP tools (the session's it was given, and its own), each with PostToolUse hooks. */
  tools(handle, built, wanted) {
    const names = new Set(built.map((t) => t.name));
    const add = (t) => !names.has(t.name) && names.add(t.name);
    const mcp = [...this.mcp.sessionTools().filter((t) => wanted.has(t.name)), ...this.own.get(handle.id)?.tools ?? []].filter(add);
    return hookedTools(this.hooks, handle, [...built, ...mcp]);
  }
  /** The permission hook with PreToolUse in front. */
  canUseTool(handle, inner, broker) {
    return hookedCanUseTool(this.hooks, handle, inner, broker && {
      ruleDenial: (tool, input) => broker.ruleDenial(handle, tool, input),
      ask: (tool, input, toolUseId, reason) => broker.askAbout(handle, tool.name, input, toolUseId, reason)
    });
  }
  /** Closes every MCP server the session started. */
  async close() {
    const own = [...this.own.values()];
    this.own.clear();
    await Promise.all([...own.map((o) => o.close()), this.mcp.close()]);
  }
};

// src/main/runtime/definitions/schema.ts
import { z as z8 } from "zod";
var AGENT_COLORS = ["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"];
var EFFORT_LEVELS = ["low", "medium", "high", "max"];
var MODEL_ALIASES = ["haiku", "sonnet", "opus", "inherit"];
var text = z8.string().refine((s) => s.trim() !== "");
var booleanish = z8.union([z8.boolean(), z8.enum(["true", "false"])]).transform((v) => v === true || v === "true");
var wholeNumber = z8.union([
  z8.number().int().positive(),
  z8.string().regex(/^\s*\d+\s*$/).transform(Number).pipe(z8.number().int().positive())
]);
var nameList = z8.union([z8.string(), z8.array(z8.unknown()), z8.null()]);
var record = z8.record(z8.string(), z8.unknown());
var frontmatterFields = {
  name: z8.string().min(1),
  description: z8.string().min(1),
  tools: nameList,
  disallowedTools: nameList,
  model: text.transform((s) => s.trim().toLowerCase() === "inherit" ? "inherit" : s.trim()),
  color: z8.enum(AGENT_COLORS),
  forkContext: booleanish,
  permissionMode: z8.enum(PERMISSION_MODES),
  background: booleanish,
  memory: z8.enum(MEMORY_SCOPES),
  isolation: z8.literal("worktree"),
  skills: nameList,
  maxTurns: wholeNumber,
  effort: z8.union([z8.enum(EFFORT_LEVELS), wholeNumber]),
  mcpServers: z8.union([z8.array(z8.union([z8.string(), record])), record]),
  hooks: record,
  initialPrompt: text,
  criticalSystemReminder_EXPERIMENTAL: text,
  omitClaudeMd: booleanish
};
var agentFrontmatterSchema = z8.object(frontmatterFields).partial().catchall(z8.unknown());
var FRONTMATTER_KEYS = Object.keys(frontmatterFields);
var FIELD_EXPECTS = {
  name: "a non-empty text",
  description: "a non-empty text",
  tools: "a comma-separated list or a YAML list of tool names",
  disallowedTools: "a comma-separated list or a YAML list of tool names",
  model: `one of ${MODEL_ALIASES.join(", ")} or a model id`,
  color: `one of ${AGENT_COLORS.join(", ")}`,
  forkContext: "true or false",
  permissionMode: `one of ${PERMISSION_MODES.join(", ")}`,
  background: "true or false",
  memory: `one of ${MEMORY_SCOPES.join(", ")}`,
  isolation: '"worktree"',
  skills: "a comma-separated list or a YAML list of skill names",
  maxTurns: "a whole number above 0",
  effort: `one of ${EFFORT_LEVELS.join(", ")} or a whole number`,
  mcpServers: "a list of server names or server configurations",
  hooks: "a mapping of hook events to hooks",
  initialPrompt: "a non-empty text",
  criticalSystemReminder_EXPERIMENTAL: "a non-empty text",
  omitClaudeMd: "true or false"
};
var KEY_SUGGESTIONS = {
  "allowed-tools": "tools",
  allowedTools: "tools",
  allowed_tools: "tools",
  tool: "tools",
  "disallowed-tools": "disallowedTools",
  disallowed_tools: "disallowedTools",
  "permission-mode": "permissionMode",
  permission_mode: "permissionMode",
  "max-turns": "maxTurns",
  max_turns: "maxTurns",
  "initial-prompt": "initialPrompt",
  "mcp-servers": "mcpServers",
  mcp_servers: "mcpServers",
  colour: "color"
};
var normalizeKey = (k) => k.toLowerCase().replace(/[-_]/g, "");
var BY_NORMALIZED = new Map(FRONTMATTER_KEYS.map((k) => [normalizeKey(k), k]));
function suggestKey(key) {
  return Object.hasOwn(KEY_SUGGESTIONS, key) ? KEY_SUGGESTIONS[key] : BY_NORMALIZED.get(normalizeKey(key));
}

// src/main/runtime/definitions/diagnostics.ts
function diagnostic(file, at, severity, code, message) {
  return { file, line: at.line, column: at.column, severity, code, message };
}
function positionAt(text2, offset) {
  let line2 = 1;
  let lineStart2 = 0;
  const end = Math.min(Math.max(offset, 0), text2.length);
  for (let i = text2.indexOf("\n"); i !== -1 && i < end; i = text2.indexOf("\n", i + 1)) {
    line2++;
    lineStart2 = i + 1;
  }
  return { line: line2, column: end - lineStart2 + 1 };
}
function preview(value, max = 60) {
  let s;
  try {
    s = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max - 1)}\u2026` : s;
}

// src/main/runtime/definitions/spelling.ts
var KNOWN_TOOLS = [
  "Bash",
  "Glob",
  "Grep",
  "Read",
  "Edit",
  "Write",
  "NotebookEdit",
  "WebFetch",
  "TodoWrite",
  "Agent",
  "Task",
  "SendMessage",
  "TaskOutput",
  "TaskStop",
  "ExitPlanMode",
  "EnterPlanMode",
  "AskUserQuestion",
  "BashOutput",
  "KillShell",
  "KillBash",
  "WebSearch",
  "MultiEdit",
  "LS",
  "NotebookRead",
  "TodoRead",
  "Skill",
  "SlashCommand",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
  "TaskCreate",
  "TaskGet",
  "TaskUpdate",
  "TaskList",
  "TeamCreate",
  "TeamDelete",
  "SetPhase",
  "LSP",
  "ToolSearch"
];
var KNOWN = new Set(KNOWN_TOOLS);
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_2, j) => i === 0 ? j : j === 0 ? i : 0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
function closest(word, names) {
  const w = word.toLowerCase();
  let best;
  for (const name of names) {
    if (Math.abs(name.length - w.length) > 2) continue;
    const d = distance(w, name.toLowerCase());
    if (d <= (word.length <= 4 ? 1 : 2) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}
function misspeltTools(list) {
  const out = [];
  for (const spec2 of list) {
    const { toolName } = parseToolSpec(spec2);
    if (toolName === "*" || KNOWN.has(toolName) || isMcpToolName(toolName)) continue;
    const meant = /^(shell|terminal)$/i.test(toolName) ? "Bash" : closest(toolName, KNOWN_TOOLS);
    if (meant) out.push({ spec: spec2, meant });
  }
  return out;
}
var meantAlias = (word) => closest(word, MODEL_ALIASES);

// src/main/runtime/definitions/fields.ts
var PLUGIN_FORBIDDEN = /* @__PURE__ */ new Set(["permissionMode", "hooks", "mcpServers"]);
var KNOWN2 = new Set(FRONTMATTER_KEYS);
var MAX_UNKNOWN_KEY_NOTES = 20;
function readAgentFields(raw, ctx) {
  const diagnostics = [];
  const fields = { extra: {} };
  const warn = (key, code, message, at = ctx.valueAt(key)) => {
    diagnostics.push(diagnostic(ctx.file, at, "warning", code, message));
  };
  const info = (key, code, message, at = ctx.keyAt(key)) => {
    diagnostics.push(diagnostic(ctx.file, at, "info", code, message));
  };
  let unknownReported = 0;
  let unknownUnreported = 0;
  for (const [key, value] of Object.entries(raw)) {
    if (ctx.handled.has(key)) continue;
    if (!KNOWN2.has(key)) {
      Object.defineProperty(fields.extra, key, { value, enumerable: true, writable: true, configurable: true });
      const suggestion = suggestKey(key);
      if (!suggestion && unknownReported >= MAX_UNKNOWN_KEY_NOTES) {
        unknownUnreported++;
      } else if (suggestion) {
        warn(key, "unknown-key", `\`${key}\` is not an agent field, so it has no effect; did you mean \`${suggestion}\`?`, ctx.keyAt(key));
      } else {
        unknownReported++;
        info(key, "unknown-key", `\`${key}\` is not an agent field; it is kept in the file but has no effect`);
      }
      continue;
    }
    const field = key;
    if (value === null || value === void 0) {
      info(key, "empty-field", `\`${key}\` has no value, so it is ignored`);
      continue;
    }
    if (ctx.source === "plugin" && PLUGIN_FORBIDDEN.has(field)) {
      warn(key, "plugin-forbidden", `plugin agents cannot set \`${key}\`; it is ignored (a plugin may not widen its own permissions)`, ctx.keyAt(key));
      continue;
    }
    const parsed = frontmatterFields[field].safeParse(value);
    if (!parsed.success) {
      warn(key, "invalid-field", `\`${key}\` should be ${FIELD_EXPECTS[field]}, but is ${preview(value)}; the field is ignored`);
      continue;
    }
    applyField(field, parsed.data, fields, (code, message) => warn(key, code, message), (code, message) => info(key, code, message));
  }
  if (unknownUnreported) {
    diagnostics.push(diagnostic(ctx.file, ctx.keyAt(""), "info", "unknown-key", `${unknownUnreported} more keys are not agent fields; they are kept in the file but have no effect`));
  }
  return { fields, diagnostics };
}
function applyField(key, value, fields, warn, info) {
  switch (key) {
    case "tools":
    case "disallowedTools": {
      const { list = [], dropped } = readToolList(value);
      if (dropped.length) warn("invalid-tool-name", `\`${key}\` has entries that are not tool names (${dropped.map((d) => preview(d, 30)).join(", ")}); they are ignored`);
      for (const { spec: spec2, meant } of misspeltTools(list)) {
        const effect = key === "tools" ? "the agent will not get it" : "nothing is removed by it";
        warn("unknown-tool", `\`${key}\` lists "${spec2}", which is not a tool; did you mean \`${meant}\`? As written, ${effect}`);
      }
      if (key === "tools") {
        if (list.includes("*")) {
          if (list.length > 1) info("wildcard-tools", "`tools` contains `*`, which already means all tools; the other names add nothing");
          fields.tools = ["*"];
        } else {
          if (list.length === 0) info("empty-tools", "`tools` is empty, which means all tools; remove it, or list the tools the agent should have");
          fields.tools = list;
        }
      } else {
        fields.disallowedTools = list;
      }
      return;
    }
    case "skills":
      fields.skills = readToolList(value).list ?? [];
      return;
    case "model": {
      const model = value;
      const alias = MODEL_ALIASES.includes(model.toLowerCase());
      if (!alias && isBareWord(model)) {
        const meant = meantAlias(model);
        warn("unknown-model", `\`model\` is "${model}", which is neither ${MODEL_ALIASES.join(", ")} nor a model id${meant ? ` (did you mean \`${meant}\`?)` : ""}; starting this agent will fail`);
      } else if (!alias && !/claude/i.test(model)) {
        warn("unknown-model", `\`model\` is "${model}", which is not a Claude model id (like claude-sonnet-4-5) nor ${MODEL_ALIASES.join(", ")}; it is sent to the API as written, which refuses it unless your gateway knows that name`);
      }
      fields.model = model;
      return;
    }
    case "criticalSystemReminder_EXPERIMENTAL":
      fields.criticalSystemReminder = value;
      return;
    case "name":
    case "description":
      return;
    // read by the caller
    default:
      ;
      fields[key] = value;
  }
}

// src/main/runtime/definitions/frontmatter.ts
var isSpace = (ch) => ch !== void 0 && /\s/.test(ch);
function splitFrontmatter(text2) {
  if (!text2.startsWith("---")) return { ok: false, reason: "no-frontmatter", at: { line: 1, column: 1 } };
  let end = 3;
  while (isSpace(text2[end])) end++;
  const lastNewline = text2.lastIndexOf("\n", end - 1);
  if (lastNewline < 3) return { ok: false, reason: "no-frontmatter", at: { line: 1, column: 1 } };
  const start = lastNewline + 1;
  const close = text2.indexOf("---", start);
  if (close === -1) return { ok: false, reason: "unterminated", at: { line: 1, column: 1 } };
  let bodyStart = close + 3;
  while (isSpace(text2[bodyStart])) bodyStart++;
  const lineStart2 = text2.lastIndexOf("\n", close - 1) + 1;
  const lineEnd2 = text2.indexOf("\n", close);
  const restOfLine = text2.slice(close + 3, lineEnd2 === -1 ? text2.length : lineEnd2);
  return {
    ok: true,
    yaml: text2.slice(start, close),
    yamlStart: positionAt(text2, start),
    body: text2.slice(bodyStart),
    close: positionAt(text2, close),
    closeMidLine: lineStart2 !== close || restOfLine.trim() !== "",
    yamlOffset: start,
    closeOffset: close,
    bodyOffset: bodyStart
  };
}

// src/main/runtime/definitions/recover.ts
var YAML_SPECIAL = /[{}[\]*&#!|>%@`]|: /;
var KEY_CHAR = /[a-zA-Z_-]/;
var LINE_TERMINATOR = /[\r\u2028\u2029]/;
function matchKeyValueLine(line2) {
  let i = 0;
  while (i < line2.length && KEY_CHAR.test(line2[i])) i++;
  if (i === 0 || line2[i] !== ":") return void 0;
  const key = line2.slice(0, i);
  let j = i + 1;
  while (j < line2.length && /\s/.test(line2[j])) j++;
  if (j === i + 1) return void 0;
  const value = line2.slice(j);
  if (value === "" || LINE_TERMINATOR.test(value)) return void 0;
  return { key, value, valueColumn: j };
}
function isQuoted(value) {
  return value.startsWith('"') && value.endsWith('"') || value.startsWith("'") && value.endsWith("'");
}
function quoteProblematicValues(yaml) {
  const quoted = [];
  const lines2 = yaml.split("\n").map((line2, index) => {
    const m = matchKeyValueLine(line2);
    if (!m || isQuoted(m.value)) return line2;
    const special = YAML_SPECIAL.exec(m.value);
    if (!special) return line2;
    quoted.push({ index, key: m.key, valueColumn: m.valueColumn, trigger: special[0] });
    const escaped = m.value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
    return `${m.key}: "${escaped}"`;
  });
  return { text: lines2.join("\n"), quoted };
}

// src/main/runtime/definitions/yaml-read.ts
import { LineCounter, isMap, isScalar, parseDocument, visit } from "yaml";

// src/main/runtime/definitions/flat-yaml.ts
var LINE = /^([A-Za-z_][A-Za-z0-9_-]{0,1023}):( +)(\S.*)$/;
var PLAIN = /^[A-Za-z_/(](?:[^#:]|:(?=\S))*$/;
var UNUSUAL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\ufeff\u2028\u2029]/;
var BOOLEANS = { true: true, True: true, TRUE: true, false: false, False: false, FALSE: false };
var NULLS = /* @__PURE__ */ new Set(["null", "Null", "NULL"]);
function scalar(text2) {
  const v = text2.replace(/ +$/, "");
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) {
    const inner = v.slice(1, -1);
    return inner.replaceAll("''", "").includes("'") ? void 0 : { value: inner.replaceAll("''", "'") };
  }
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    const inner = v.slice(1, -1);
    return /["\\]/.test(inner) ? void 0 : { value: inner };
  }
  if (/^[0-9]{1,15}$/.test(v)) return { value: Number(v) };
  if (!PLAIN.test(v)) return void 0;
  if (v in BOOLEANS) return { value: BOOLEANS[v] };
  return NULLS.has(v) ? { value: null } : { value: v };
}
function readFlatYaml(src, origin) {
  if (UNUSUAL.test(src)) return null;
  const data = {};
  const keys = /* @__PURE__ */ new Map();
  const lines2 = src.split("\n");
  for (let i = 0; i < lines2.length; i++) {
    const line2 = lines2[i];
    if (line2 === "" || line2.startsWith("#")) continue;
    const m = LINE.exec(line2);
    if (!m) return null;
    const [, key, gap, text2] = m;
    const read = scalar(text2);
    if (!read || keys.has(key) || key in BOOLEANS || NULLS.has(key) || key === "__proto__") return null;
    data[key] = read.value;
    const at = (column) => ({ line: origin.line + i, column: i === 0 ? origin.column + column - 1 : column });
    keys.set(key, { key: at(1), value: at(key.length + 1 + gap.length + 1) });
  }
  return keys.size ? { ok: true, data, keys } : null;
}

// src/main/runtime/definitions/yaml-error-at.ts
import { Parser } from "yaml";
var lineStart = (src, offset) => src.lastIndexOf("\n", offset - 1) + 1;
var lineEnd = (src, offset) => {
  const nl = src.indexOf("\n", offset);
  return nl === -1 ? src.length : nl;
};
var firstCharOfLine = (src, offset) => {
  let i = lineStart(src, offset);
  while (src[i] === " " || src[i] === "	") i++;
  return i;
};
function nextContentLine(src, offset) {
  for (let start = lineEnd(src, offset) + 1; start < src.length; start = lineEnd(src, start) + 1) {
    const first = firstCharOfLine(src, start);
    if (first < src.length && src[first] !== "\n" && src[first] !== "#") return first;
  }
  return void 0;
}
function unclosed(src) {
  const out = [];
  const walk = (token) => {
    if (!token) return;
    switch (token.type) {
      case "document":
        walk(token.value);
        return;
      case "block-map":
      case "block-seq":
        for (const item of token.items) {
          walk(item.key);
          walk(item.value);
        }
        return;
      case "flow-collection": {
        const isSeq = token.start.source === "[";
        if (!token.end.some((t) => t.type === (isSeq ? "flow-seq-end" : "flow-map-end"))) out.push({ offset: token.offset, what: isSeq ? "the `[`" : "the `{`", closer: isSeq ? "]" : "}" });
        for (const item of token.items) {
          walk(item.key);
          walk(item.value);
        }
        return;
      }
      case "double-quoted-scalar":
      case "single-quoted-scalar": {
        const q = token.source[0];
        const body = token.source.replace(/\s+$/, "");
        if (body.length < 2 || !body.endsWith(q)) out.push({ offset: token.offset, what: `the ${q === '"' ? "double" : "single"} quote opened` });
        return;
      }
      default:
        return;
    }
  };
  try {
    for (const token of new Parser().parse(src)) walk(token);
  } catch {
  }
  return out;
}
var lineNo = (src, offset) => src.slice(0, offset).split("\n").length;
function locateYamlError(src, errors, lineOffset = 0) {
  const first = errors[0];
  const at = first.pos[0];
  const fileLine = (offset) => lineNo(src, offset) + lineOffset;
  if (first.code === "BLOCK_AS_IMPLICIT_KEY" && /nested mappings/i.test(first.message)) {
    const key = errors.find((e) => e.code === "MULTILINE_IMPLICIT_KEY" && e.pos[0] === at);
    if (key && lineStart(src, key.pos[1]) > lineStart(src, at)) {
      const wrong = firstCharOfLine(src, key.pos[1]);
      return { offset: wrong, hint: `line ${fileLine(wrong)} is indented, so YAML reads it as part of the value on line ${fileLine(at)}, where a \`key:\` cannot start; unindent it if it is a field of its own, or put that value in quotes` };
    }
  }
  if (first.code === "BLOCK_AS_IMPLICIT_KEY" && /block sequence/i.test(first.message) && src.slice(at, lineEnd(src, at)).trim() === "") {
    const next = nextContentLine(src, at);
    if (next !== void 0) return { offset: next, hint: `line ${fileLine(next)} is indented less than the key on line ${fileLine(at)} above it; indent it under the key it belongs to` };
  }
  if (/^flow (sequence|map)|flow collection|missing closing .?quote/i.test(first.message) || first.code === "MISSING_CHAR" && /flow/i.test(first.message)) {
    const open5 = unclosed(src).filter((o) => o.offset <= at).pop();
    if (open5) return { offset: open5.offset, hint: `${open5.what} on line ${fileLine(open5.offset)} is never closed${open5.closer ? ` by a \`${open5.closer}\`` : ""}` };
  }
  if ((first.code === "MULTILINE_IMPLICIT_KEY" || first.code === "MISSING_CHAR" && /implicit map keys/i.test(first.message)) && at === firstCharOfLine(src, at)) {
    if (!src.slice(at, lineEnd(src, at)).includes(":")) return { offset: at, hint: `line ${fileLine(at)} has no \`:\`; a field is written \`key: value\`` };
  }
  return { offset: at };
}

// src/main/runtime/definitions/yaml-read.ts
var MAX_YAML_NESTING = 64;
var MAX_ALIAS_COUNT = 100;
function nestingDepth(src) {
  let max = 0;
  let maxLine = 1;
  let flow = 0;
  const indents = [];
  const lines2 = src.split("\n");
  for (let n = 0; n < lines2.length; n++) {
    const line2 = lines2[n];
    let i = 0;
    while (line2[i] === " " || line2[i] === "	") i++;
    if (i === line2.length || line2[i] === "#") continue;
    if (i === 0) flow = 0;
    while (indents.length && indents[indents.length - 1] >= i) indents.pop();
    indents.push(i);
    let compact = 0;
    let j = i;
    while ((line2[j] === "-" || line2[j] === "?") && (j + 1 === line2.length || line2[j + 1] === " ")) {
      compact++;
      j++;
      while (line2[j] === " ") j++;
    }
    let peak = flow;
    for (; j < line2.length; j++) {
      const ch = line2[j];
      if (ch === "[" || ch === "{") peak = Math.max(peak, ++flow);
      else if ((ch === "]" || ch === "}") && flow > 0) flow--;
    }
    const depth = indents.length + compact + peak;
    if (depth > max) {
      max = depth;
      maxLine = n + 1;
    }
  }
  return { depth: max, line: maxLine };
}
function shift(origin, p) {
  return { line: origin.line + p.line - 1, column: p.line === 1 ? origin.column + p.col - 1 : p.col };
}
function readYaml(src, origin) {
  return readFlatYaml(src, origin) ?? parseYaml(src, origin);
}
function parseYaml(src, origin) {
  const nesting = nestingDepth(src);
  if (nesting.depth > MAX_YAML_NESTING) {
    return {
      ok: false,
      message: `the YAML nests more than ${MAX_YAML_NESTING} levels deep (about ${nesting.depth}); Fanout refuses it rather than risk running out of stack`,
      at: { line: origin.line + nesting.line - 1, column: 1 }
    };
  }
  const lineCounter2 = new LineCounter();
  const at = (offset) => shift(origin, lineCounter2.linePos(offset));
  try {
    const doc = parseDocument(src, { lineCounter: lineCounter2, prettyErrors: false, uniqueKeys: false });
    const first = doc.errors[0];
    if (first) {
      const located = locateYamlError(src, doc.errors, origin.line - 1);
      return { ok: false, message: first.message, at: at(located.offset), ...located.hint ? { hint: located.hint } : {} };
    }
    let duplicate;
    visit(doc, {
      Map(_, map) {
        const seen = /* @__PURE__ */ new Set();
        for (const pair of map.items) {
          if (!isScalar(pair.key)) continue;
          if (seen.has(pair.key.value)) {
            duplicate = { key: String(pair.key.value), offset: pair.key.range?.[0] ?? 0 };
            return visit.BREAK;
          }
          seen.add(pair.key.value);
        }
      }
    });
    if (duplicate) {
      return { ok: false, message: `the key "${duplicate.key}" appears twice in the same mapping (YAML map keys must be unique)`, at: at(duplicate.offset) };
    }
    const data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    const keys = /* @__PURE__ */ new Map();
    if (isMap(doc.contents)) {
      for (const pair of doc.contents.items) {
        if (!isScalar(pair.key)) continue;
        const keyOffset = pair.key.range?.[0] ?? 0;
        const value = pair.value;
        keys.set(String(pair.key.value), { key: at(keyOffset), value: at(value?.range?.[0] ?? keyOffset) });
      }
    }
    return { ok: true, data, keys };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, message: /alias count/i.test(message) ? `aliases expand too much (${message})` : message, at: origin };
  }
}

// src/main/runtime/definitions/parse.ts
var MAX_AGENT_FILE_CHARS = 1024 * 1024;
var MAX_FRONTMATTER_CHARS = 64 * 1024;
var START = { line: 1, column: 1 };
function baseName(file) {
  const name = file.split(/[\\/]/).pop() ?? file;
  return name.replace(/\.md$/i, "");
}
function substitutePlaceholders(body, placeholders) {
  if (!placeholders) return body;
  return body.replace(/\{\{([A-Z0-9_]+)\}\}/g, (whole, key) => Object.hasOwn(placeholders, key) ? placeholders[key] : whole);
}
function firstProseLine(body) {
  for (const line2 of body.split("\n")) {
    const t = line2.trim();
    if (t && !t.startsWith("#") && !t.startsWith("---")) return t.length > 200 ? `${t.slice(0, 197)}...` : t;
  }
  return void 0;
}
function parseAgentMarkdown(text2, file, source, opts = {}) {
  const diagnostics = [];
  const fail = (at, code, message) => {
    diagnostics.push(diagnostic(file, at, "error", code, `${message}; the agent is not loaded`));
    return { diagnostics };
  };
  if (text2.length > MAX_AGENT_FILE_CHARS) {
    return fail(START, "file-too-large", `the file is ${text2.length} characters long, more than the ${MAX_AGENT_FILE_CHARS} an agent file may have`);
  }
  const src = text2.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const isPlugin = source === "plugin" && opts.plugin !== void 0;
  let raw = {};
  let keys = /* @__PURE__ */ new Map();
  let body = src;
  let fmStart = START;
  const split = splitFrontmatter(src);
  if (!split.ok) {
    if (!isPlugin) {
      return split.reason === "unterminated" ? fail(split.at, "unterminated-frontmatter", "the frontmatter opened by `---` on line 1 is never closed by another `---` line") : fail(split.at, "no-frontmatter", "the file has no frontmatter: an agent file starts with a `---` line, then `name:` and `description:`, then a closing `---`");
    }
  } else {
    body = split.body;
    fmStart = split.yamlStart;
    if (split.closeMidLine) {
      diagnostics.push(diagnostic(file, split.close, "warning", "frontmatter-closed-mid-line", "the frontmatter ends at this `---`, which is not on a line of its own; the rest of this line and what follows is read as the prompt (Claude Code reads it the same way)"));
    }
    if (split.yaml.length > MAX_FRONTMATTER_CHARS) {
      return fail(fmStart, "frontmatter-too-large", `the frontmatter is ${split.yaml.length} characters long, more than the ${MAX_FRONTMATTER_CHARS} allowed`);
    }
    const read = readFrontmatter(split.yaml, fmStart, file, diagnostics);
    if (read.ok) {
      raw = read.raw;
      keys = read.keys;
    } else if (isPlugin) {
      diagnostics.push(diagnostic(file, read.at, "warning", read.code, `${read.message}; the frontmatter is ignored and the file name is used as the name`));
    } else {
      return fail(read.at, read.code, read.message);
    }
  }
  const keyAt = (key) => keys.get(key)?.key ?? fmStart;
  const valueAt = (key) => keys.get(key)?.value ?? fmStart;
  let name;
  const rawName = raw.name;
  if (typeof rawName === "string" && rawName) {
    if (rawName.includes(":")) {
      return fail(valueAt("name"), "name-has-colon", `the name "${rawName}" contains ":", which is reserved for plugin agents (plugin:agent)`);
    }
    name = rawName;
  } else if (isPlugin) {
    name = baseName(file);
    if (rawName !== void 0) diagnostics.push(diagnostic(file, valueAt("name"), "warning", "invalid-name", `\`name\` should be a non-empty text, but is ${preview(rawName)}; the file name "${name}" is used instead`));
  } else if (rawName === void 0) {
    return fail(fmStart, "missing-name", "the frontmatter has no `name:`; add `name: some-agent`");
  } else {
    const wrong = notText("name", rawName);
    return fail(valueAt("name"), wrong.code, wrong.message);
  }
  const agentType = isPlugin ? [opts.plugin, ...opts.namespace ?? [], name].join(":") : name;
  let whenToUse;
  const rawDescription = raw.description;
  if (typeof rawDescription === "string" && rawDescription) {
    whenToUse = rawDescription;
  } else if (isPlugin) {
    whenToUse = firstProseLine(body) ?? `Agent from the ${opts.plugin} plugin`;
    diagnostics.push(diagnostic(file, valueAt("description"), "info", "missing-description", `no \`description\`: the parent decides when to use this agent from it, so "${preview(whenToUse, 50)}" (from the prompt) is used`));
  } else if (rawDescription === void 0) {
    return fail(fmStart, "missing-description", "the frontmatter has no `description:`, which tells the parent agent when to use this one");
  } else {
    const wrong = notText("description", rawDescription);
    return fail(valueAt("description"), wrong.code, wrong.message);
  }
  whenToUse = whenToUse.replace(/\\n/g, "\n");
  const { fields, diagnostics: fieldDiagnostics } = readAgentFields(raw, {
    file,
    source,
    keyAt,
    valueAt,
    handled: /* @__PURE__ */ new Set(["name", "description"])
  });
  diagnostics.push(...fieldDiagnostics);
  const definition = {
    ...fields,
    agentType,
    whenToUse,
    systemPrompt: substitutePlaceholders(body.trim(), opts.placeholders),
    source,
    file,
    ...isPlugin ? { plugin: opts.plugin } : {},
    frontmatter: raw
  };
  return { definition, diagnostics };
}
var REQUIRED_TEXT = {
  name: "it is the agent type the main agent asks for; write it after `name:`, e.g. `name: code-reviewer`",
  description: "it tells the parent agent when to use this one; write that after `description:`"
};
function notText(key, value) {
  if (value === null || value === "") return { code: `empty-${key}`, message: `\`${key}\` is empty: ${REQUIRED_TEXT[key]}` };
  const shown2 = preview(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    const what = typeof value === "boolean" ? "a true/false value" : "a number";
    return { code: `invalid-${key}`, message: `\`${key}\` should be text, but YAML reads ${shown2} as ${what}; put it in quotes to keep it as text` };
  }
  if (Array.isArray(value)) {
    return { code: `invalid-${key}`, message: `\`${key}\` should be text, but is a list (${shown2}); write it as one text, in quotes if it starts with \`[\` or \`-\`` };
  }
  if (typeof value === "object") {
    const fix = key === "description" ? "if those lines belong to it, write it as a block (`description: |`) or put it all in quotes" : "write the name on the line of `name:`";
    return { code: `invalid-${key}`, message: `\`${key}\` should be text, but is a set of \`key: value\` lines (${shown2}); ${fix}` };
  }
  return { code: `invalid-${key}`, message: `\`${key}\` should be text, but is ${shown2}` };
}
function readFrontmatter(yaml, origin, file, diagnostics) {
  let read = readYaml(yaml, origin);
  if (!read.ok) {
    const firstError = read;
    const repair = quoteProblematicValues(yaml);
    const retried = repair.quoted.length ? readYaml(repair.text, origin) : void 0;
    if (!retried?.ok) {
      const message = firstError.hint ? `the frontmatter is not valid YAML: ${firstError.hint}` : `the frontmatter is not valid YAML (${firstError.message}) and could not be repaired`;
      return { ok: false, at: firstError.at, code: "invalid-yaml", message };
    }
    for (const q of repair.quoted) {
      const why = q.trigger === ": " ? 'contains ": ", which YAML reads as the start of a nested key' : `contains "${q.trigger}", which has a special meaning in YAML`;
      diagnostics.push(
        diagnostic(file, { line: origin.line + q.index, column: q.valueColumn + 1 }, "warning", "yaml-repaired", `the value of \`${q.key}\` ${why}; it was read as quoted text, as Claude Code does. Put the value in quotes to make the file valid YAML`)
      );
    }
    read = retried;
  }
  if (read.data === null || read.data === void 0) return { ok: true, raw: {}, keys: read.keys };
  if (typeof read.data !== "object" || Array.isArray(read.data)) {
    const what = Array.isArray(read.data) ? "a list" : preview(read.data);
    return { ok: false, at: origin, code: "frontmatter-not-mapping", message: `the frontmatter should be \`key: value\` lines, but is ${what}` };
  }
  return { ok: true, raw: read.data, keys: read.keys };
}

// src/main/runtime/definitions/cli-agents.ts
var CLI_AGENTS_FILE = "--agents";
function jsonErrorOffset2(message) {
  const m = /position (\d+)/.exec(message);
  return m ? Number(m[1]) : 0;
}
function parseCliAgentsJson(json, file = CLI_AGENTS_FILE) {
  const diagnostics = [];
  const definitions = [];
  const perAgent = /* @__PURE__ */ Object.create(null);
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    diagnostics.push(diagnostic(file, positionAt(json, jsonErrorOffset2(message)), "error", "invalid-json", `not valid JSON (${message}); no agents were read from it`));
    return { definitions, diagnostics, perAgent };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    diagnostics.push(diagnostic(file, { line: 1, column: 1 }, "error", "invalid-agents-json", 'expected an object mapping agent names to { "description", "prompt", ... }'));
    return { definitions, diagnostics, perAgent };
  }
  for (const [name, spec2] of Object.entries(parsed)) {
    const nameOffset = json.indexOf(JSON.stringify(name));
    const at = positionAt(json, nameOffset === -1 ? 0 : nameOffset);
    const fail = (code, message) => {
      diagnostics.push(diagnostic(file, at, "error", code, `agent "${name}": ${message}; it is not loaded`));
    };
    if (!name || name.includes(":")) {
      fail("invalid-name", 'a name must be non-empty and may not contain ":" (reserved for plugin agents)');
      continue;
    }
    if (!spec2 || typeof spec2 !== "object" || Array.isArray(spec2)) {
      fail("invalid-agent", `expected an object with "description" and "prompt", but got ${preview(spec2)}`);
      continue;
    }
    const raw = spec2;
    if (typeof raw.description !== "string" || !raw.description.trim()) {
      fail("missing-description", '"description" must be a non-empty text');
      continue;
    }
    if (typeof raw.prompt !== "string" || !raw.prompt.trim()) {
      fail("missing-prompt", '"prompt" (the system prompt) must be a non-empty text');
      continue;
    }
    const { fields, diagnostics: fieldDiagnostics } = readAgentFields(raw, {
      file,
      source: "cli",
      keyAt: () => at,
      valueAt: () => at,
      handled: /* @__PURE__ */ new Set(["description", "prompt"])
    });
    perAgent[name] = fieldDiagnostics.map((d) => ({ ...d, message: `agent "${name}": ${d.message}` }));
    diagnostics.push(...perAgent[name]);
    definitions.push({
      ...fields,
      agentType: name,
      whenToUse: raw.description,
      systemPrompt: raw.prompt.trim(),
      source: "cli",
      frontmatter: raw
    });
  }
  return { definitions, diagnostics, perAgent };
}

// src/main/runtime/definitions/sources.ts
import { readFile as readFile5, realpath as realpath6, stat as stat5 } from "node:fs/promises";
import { dirname as dirname14, join as join22, resolve as resolve19 } from "node:path";

// src/main/runtime/definitions/builtins.ts
import { existsSync as existsSync8, readFileSync as readFileSync4 } from "node:fs";
import { dirname as dirname13, join as join20 } from "node:path";
import { fileURLToPath } from "node:url";
var cachedRoot;
function isFanoutPackage(dir) {
  try {
    return JSON.parse(readFileSync4(join20(dir, "package.json"), "utf8")).name === "fanout";
  } catch {
    return false;
  }
}
function findFanoutRoot(start) {
  for (let dir = start; ; dir = dirname13(dir)) {
    if (existsSync8(join20(dir, "package.json")) && isFanoutPackage(dir)) return dir;
    if (dirname13(dir) === dir) return void 0;
  }
}
function moduleDir() {
  try {
    return dirname13(fileURLToPath(import.meta.url));
  } catch {
    return void 0;
  }
}
function fanoutRoot() {
  if (cachedRoot) return cachedRoot;
  const starts = [moduleDir(), process.argv[1] ? dirname13(process.argv[1]) : void 0, process.cwd()];
  for (const start of starts) {
    const root2 = start ? findFanoutRoot(start) : void 0;
    if (root2) return cachedRoot = root2;
  }
  throw new Error(`cannot find Fanout's installation folder (a package.json named "fanout") above ${starts.filter(Boolean).join(" or ")}`);
}
var defaultBuiltinDir = () => join20(fanoutRoot(), "agents");
var defaultDocsDir = () => join20(fanoutRoot(), "docs");
function builtinPlaceholders(docsDir = defaultDocsDir()) {
  return { FANOUT_DOCS_DIR: docsDir };
}

// src/main/runtime/definitions/scan.ts
import { readdir as readdir5, realpath as realpath5, stat as stat4 } from "node:fs/promises";
import { join as join21 } from "node:path";
var MAX_SCAN_DEPTH = 16;
var MAX_SCAN_FILES = 5e3;
var AT_START = { line: 1, column: 1 };
var errorCode2 = (err) => err?.code;
async function scanAgentDir(root2) {
  const result = { files: [], diagnostics: [], exists: true };
  try {
    if (!(await stat4(root2)).isDirectory()) {
      result.diagnostics.push(diagnostic(root2, AT_START, "warning", "not-a-folder", "expected a folder of agent files, but this is a file"));
      return result;
    }
  } catch (err) {
    if (errorCode2(err) === "ENOENT" || errorCode2(err) === "ENOTDIR") return { ...result, exists: false };
    result.diagnostics.push(diagnostic(root2, AT_START, "warning", "unreadable-folder", `the folder cannot be read (${errorCode2(err) ?? String(err)})`));
    return result;
  }
  const visited = /* @__PURE__ */ new Set();
  let truncated = false;
  const walk = async (dir, namespace) => {
    if (namespace.length > MAX_SCAN_DEPTH) {
      result.diagnostics.push(diagnostic(dir, AT_START, "warning", "folder-too-deep", `folders nested more than ${MAX_SCAN_DEPTH} deep are not searched for agents`));
      return;
    }
    try {
      const real = await realpath5(dir);
      if (visited.has(real)) return;
      visited.add(real);
    } catch {
      return;
    }
    let entries;
    try {
      entries = await readdir5(dir, { withFileTypes: true });
    } catch (err) {
      result.diagnostics.push(diagnostic(dir, AT_START, "warning", "unreadable-folder", `the folder cannot be read (${errorCode2(err) ?? String(err)})`));
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = join21(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const s = await stat4(path);
          isDir = s.isDirectory();
          isFile = s.isFile();
        } catch {
          result.diagnostics.push(diagnostic(path, AT_START, "warning", "broken-link", "this symbolic link points to nothing, so it is skipped"));
          continue;
        }
      }
      if (isDir) {
        await walk(path, [...namespace, entry.name]);
      } else if (isFile) {
        if (!/\.md$/i.test(entry.name)) {
          result.diagnostics.push(diagnostic(path, AT_START, "info", "not-markdown", "skipped: only `.md` files are agent definitions"));
        } else if (result.files.length >= MAX_SCAN_FILES) {
          truncated = true;
        } else {
          result.files.push({ path, namespace });
        }
      }
    }
  };
  await walk(root2, []);
  if (truncated) {
    result.diagnostics.push(diagnostic(root2, AT_START, "warning", "too-many-files", `more than ${MAX_SCAN_FILES} agent files: only the first ${MAX_SCAN_FILES} are read`));
  }
  return result;
}

// src/main/runtime/definitions/sources.ts
var userAgentsDir = (home) => join22(home, ".claude", "agents");
function projectAgentDirs(cwd2, home) {
  const dirs = [];
  const homeDir = resolve19(home);
  for (let dir = resolve19(cwd2); dir !== homeDir; dir = dirname14(dir)) {
    dirs.push(join22(dir, ".claude", "agents"));
    if (dirname14(dir) === dir) break;
  }
  return dirs;
}
async function readAgentFile(path, source, opts) {
  const at = { line: 1, column: 1 };
  try {
    const size2 = (await stat5(path)).size;
    if (size2 > MAX_AGENT_FILE_CHARS) {
      const d = diagnostic(path, at, "error", "file-too-large", `the file is ${size2} bytes, more than the ${MAX_AGENT_FILE_CHARS} an agent file may have; the agent is not loaded`);
      return { source, file: path, diagnostics: [d] };
    }
    const text2 = await readFile5(path, "utf8");
    return { source, file: path, ...parseAgentMarkdown(text2, path, source, opts) };
  } catch (err) {
    const code = err.code ?? String(err);
    return { source, file: path, diagnostics: [diagnostic(path, at, "error", "unreadable-file", `the file cannot be read (${code}); the agent is not loaded`)] };
  }
}
async function readAgentDir(dir, source, seen, opts = () => ({})) {
  const scan = await scanAgentDir(dir);
  const entries = [];
  for (const file of scan.files) {
    const real = await realpath6(file.path).catch(() => file.path);
    if (seen.has(real)) {
      scan.diagnostics.push(diagnostic(file.path, { line: 1, column: 1 }, "info", "duplicate-file", "this file was already read through another path, so it is not read twice"));
      continue;
    }
    seen.add(real);
    entries.push(await readAgentFile(file.path, source, opts(file.namespace)));
  }
  return { entries, diagnostics: scan.diagnostics };
}
async function readAllSources(options) {
  const seen = /* @__PURE__ */ new Set();
  const entries = [];
  const diagnostics = [];
  const add = (r) => {
    entries.push(...r.entries);
    diagnostics.push(...r.diagnostics);
  };
  const placeholders = builtinPlaceholders(options.docsDir ?? defaultDocsDir());
  add(await readAgentDir(options.builtinDir ?? defaultBuiltinDir(), "built-in", seen, () => ({ placeholders })));
  for (const plugin of options.pluginDirs ?? []) {
    add(await readAgentDir(join22(plugin.dir, "agents"), "plugin", seen, (namespace) => ({ plugin: plugin.name, namespace })));
  }
  add(await readAgentDir(userAgentsDir(options.home), "user", seen));
  const projectDirs = projectAgentDirs(options.cwd, options.home);
  for (let i = projectDirs.length - 1; i >= 0; i--) {
    const r = await readAgentDir(projectDirs[i], "project", seen);
    add({ entries: r.entries.map((e) => ({ ...e, distance: i })), diagnostics: r.diagnostics });
  }
  if (options.cliAgentsJson !== void 0) {
    const cli = parseCliAgentsJson(options.cliAgentsJson);
    const attached = new Set(Object.values(cli.perAgent).flat());
    diagnostics.push(...cli.diagnostics.filter((d) => !attached.has(d)));
    entries.push(...cli.definitions.map((definition) => ({ source: "cli", file: CLI_AGENTS_FILE, definition, diagnostics: cli.perAgent[definition.agentType] ?? [] })));
  }
  if (options.managedDir) add(await readAgentDir(options.managedDir, "managed", seen));
  return { entries, diagnostics };
}
function resolvePriority(entries) {
  const byType = /* @__PURE__ */ new Map();
  const winners = /* @__PURE__ */ new Map();
  const diagnostics = [];
  for (const entry of entries) {
    const def = entry.definition;
    if (!def) continue;
    const loaded = { definition: def, shadows: [], diagnostics: [...entry.diagnostics] };
    const previous = byType.get(def.agentType);
    const previousEntry = winners.get(def.agentType);
    if (previous && previousEntry) {
      loaded.shadows = [...previous.shadows, { source: previous.definition.source, ...previous.definition.file ? { file: previous.definition.file } : {} }];
      if (previousEntry.source === entry.source && previousEntry.distance === entry.distance) {
        const d = diagnostic(entry.file, { line: 1, column: 1 }, "warning", "duplicate-name", `another ${entry.source} agent is also named "${def.agentType}" (${previousEntry.file}); this file wins because it is read later`);
        loaded.diagnostics.push(d);
        diagnostics.push(d);
      }
    }
    byType.set(def.agentType, loaded);
    winners.set(def.agentType, entry);
  }
  return { agents: [...byType.values()], byType, diagnostics };
}
async function loadAgents(options) {
  const { entries, diagnostics } = await readAllSources(options);
  const folded = resolvePriority(entries);
  return {
    agents: folded.agents,
    byType: folded.byType,
    diagnostics: [...diagnostics, ...entries.flatMap((e) => e.diagnostics), ...folded.diagnostics]
  };
}

// src/main/runtime/definitions/tool-sets.ts
var ALWAYS_BLOCKED_FOR_SUBAGENTS = /* @__PURE__ */ new Set([
  "ExitPlanMode",
  "EnterPlanMode",
  "AskUserQuestion",
  "TaskOutput",
  "TaskStop"
]);
var CUSTOM_AGENT_BLOCKED = /* @__PURE__ */ new Set([...ALWAYS_BLOCKED_FOR_SUBAGENTS]);
var BACKGROUND_ALLOWED = /* @__PURE__ */ new Set([
  "Read",
  "Write",
  "Edit",
  "Glob",
  "Grep",
  "Bash",
  "NotebookEdit",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "Skill",
  "ToolSearch",
  "StructuredOutput",
  "EnterWorktree",
  "ExitWorktree"
]);
var MEMORY_TOOLS = ["Read", "Write", "Edit"];

// src/main/runtime/definitions/resolve-tools.ts
function subagentFilterReason(name, def, opts) {
  if (isMcpToolName(name)) return void 0;
  if (name === "ExitPlanMode" && def.permissionMode === "plan") return void 0;
  if (ALWAYS_BLOCKED_FOR_SUBAGENTS.has(name)) return "subagents never get this tool (it belongs to the conversation with the person)";
  if (!opts.isBuiltIn && CUSTOM_AGENT_BLOCKED.has(name)) return "custom agents never get this tool";
  if (opts.isBackground && !BACKGROUND_ALLOWED.has(name)) return "background agents get only file, search, shell, web and to-do tools";
  return void 0;
}
function match(toolName, pool) {
  if (toolName === "*") return [...pool];
  const prefix = mcpServerWildcard(toolName);
  if (prefix) return pool.filter((t) => t.startsWith(prefix));
  return pool.includes(toolName) ? [toolName] : [];
}
function resolveAgentTools(def, available, opts) {
  const removed = {};
  const all2 = [.../* @__PURE__ */ new Set([...available, ...opts.mcpTools ?? []])];
  let pool = all2;
  if (opts.isSubagent ?? true) {
    pool = all2.filter((name) => {
      const reason = subagentFilterReason(name, def, opts);
      if (reason) removed[name] = reason;
      return !reason;
    });
  }
  for (const spec2 of def.disallowedTools ?? []) {
    const { toolName, ruleContent } = parseToolSpec(spec2);
    const hits = new Set(match(toolName, pool));
    for (const t of hits) {
      removed[t] = ruleContent ? `disallowedTools lists ${spec2}; a pattern there removes the whole tool` : `disallowedTools lists ${spec2}`;
    }
    pool = pool.filter((t) => !hits.has(t));
  }
  const hasWildcard = !def.tools || def.tools.length === 0 || def.tools.includes("*");
  const validTools = [];
  const invalidTools = [];
  const toolRules = {};
  const unrestricted = /* @__PURE__ */ new Set();
  let allowedAgentTypes;
  let resolved;
  if (hasWildcard) {
    resolved = pool;
  } else {
    const picked = /* @__PURE__ */ new Set();
    for (const spec2 of def.tools ?? []) {
      const { toolName, ruleContent } = parseToolSpec(spec2);
      if (toolName === "Agent" && ruleContent) {
        allowedAgentTypes = [...allowedAgentTypes ?? [], ...ruleContent.split(",").map((s) => s.trim()).filter(Boolean)];
      }
      const hits = toolName === "*" ? [] : match(toolName, pool);
      if (!hits.length) {
        invalidTools.push(spec2);
        continue;
      }
      validTools.push(spec2);
      for (const t of hits) {
        picked.add(t);
        if (ruleContent && toolName !== "Agent") (toolRules[t] ??= []).push(ruleContent);
        else unrestricted.add(t);
      }
    }
    if (def.memory) {
      for (const t of MEMORY_TOOLS) if (pool.includes(t) && !picked.has(t)) picked.add(t);
    }
    resolved = [...picked];
    for (const t of pool) if (!picked.has(t)) removed[t] = "not in the agent's tools list";
  }
  for (const t of unrestricted) delete toolRules[t];
  const resolution = { validTools, invalidTools, resolvedTools: resolved, hasWildcard, removed, toolRules };
  if (allowedAgentTypes) resolution.allowedAgentTypes = allowedAgentTypes;
  if (resolved.length === 0) resolution.error = zeroToolsMessage(def, invalidTools, removed, all2);
  return resolution;
}
function zeroToolsMessage(def, invalid, removed, all2) {
  const where = def.file ? ` (${def.file})` : "";
  let why;
  if (invalid.length) {
    const explained = invalid.map((spec2) => {
      const reason = removed[parseToolSpec(spec2).toolName];
      return reason ? `${spec2}: ${reason}` : `${spec2}: no such tool`;
    });
    why = `none of the tools it lists is available to it \u2014 ${explained.join("; ")}`;
  } else if (all2.length === 0) {
    why = "no tools are available at all";
  } else {
    const byReason = /* @__PURE__ */ new Map();
    for (const [tool, reason] of Object.entries(removed)) byReason.set(reason, [...byReason.get(reason) ?? [], tool]);
    why = `every available tool was removed \u2014 ${[...byReason].map(([reason, tools]) => `${tools.join(", ")}: ${reason}`).join("; ")}`;
  }
  return `agent ${def.agentType}${where} would be spawned with zero tools: ${why}. Change its tools or disallowedTools.`;
}

// src/main/runtime/definitions/listing.ts
function formatToolsForListing(def) {
  const allow = def.tools && def.tools.length > 0 && !def.tools.includes("*") ? def.tools : void 0;
  const deny = def.disallowedTools && def.disallowedTools.length > 0 ? def.disallowedTools : void 0;
  if (allow && deny) {
    const denied = new Set(deny);
    const effective = allow.filter((t) => !denied.has(t));
    return effective.length ? effective.join(", ") : "None";
  }
  if (allow) return allow.join(", ");
  if (deny) return `All tools except ${deny.join(", ")}`;
  return "All tools";
}
function formatAgentLine(def) {
  return `- ${def.agentType}: ${def.whenToUse} (Tools: ${formatToolsForListing(def)})`;
}
function formatAgentListing(agents) {
  return agents.map(formatAgentLine).join("\n");
}

// src/main/runtime/orchestration/main-prompt.ts
var MAIN_AGENT_TYPE = "main";
var MAIN_AGENT_PROMPT = `You are the lead agent in Fanout, working with a person on their software project. You can read and change files, run commands, and delegate to subagents with the Agent tool.

How to work:
- Understand before you act: look at the code that matters rather than guessing from names.
- Delegate when it pays: independent searches or tasks that can run in parallel, work that would fill your context with file contents, or a job that matches a specialised agent type. Start independent subagents in the same message so they run side by side. Do small, targeted lookups yourself.
- A subagent sees only the prompt you write. Make it complete: the goal, what you already know, constraints, and exactly what to report back.
- Subagents report to you, not to the person. Read their results critically, combine them, and tell the person what matters.
- Change only what the task needs, in the style of the surrounding code. Verify your work (run the tests or the command that proves it) when you can.
- Finish with a short, plain summary of what you did and found.`;

// src/main/runtime/orchestration/main-agent.ts
var MAIN_DEFINITION = { agentType: MAIN_AGENT_TYPE, whenToUse: "", systemPrompt: MAIN_AGENT_PROMPT, source: "built-in", extra: {} };
var MainAgent = class {
  constructor(s, config) {
    this.s = s;
    this.config = config;
  }
  s;
  config;
  handle = null;
  history = [];
  agentType;
  queue = Promise.resolve();
  pending = 0;
  userRun = false;
  lastResult = null;
  /** A run is going or queued. */
  get busy() {
    return this.pending > 0;
  }
  /** After a restart: the conversation so far and the definition it ran as. */
  restore(history, agentType) {
    this.history = history;
    this.agentType = agentType;
    this.getHandle().messages = [...history];
  }
  /** The main agent's handle (created idle before its first run, so messages can reach it). */
  getHandle() {
    if (this.handle) return this.handle;
    const def = this.definition();
    this.handle = newAgentHandle({
      id: this.s.mainAgentId,
      parentId: null,
      parentToolUseId: null,
      depth: 0,
      agentType: def?.agentType ?? MAIN_AGENT_TYPE,
      definition: def ?? null,
      model: this.config.model ?? "sonnet",
      cwd: this.s.cwd,
      permissionMode: this.modeFor(def),
      status: "completed",
      messages: [...this.history]
    });
    this.s.registry.add(this.handle);
    return this.handle;
  }
  /** The definition it runs as: the chosen agent, else the coordinator in coordinator mode, else none (main). */
  definition() {
    if (this.agentType) return this.s.agents().get(this.agentType)?.definition;
    return this.config.coordinator ? COORDINATOR_DEFINITION : void 0;
  }
  modeFor(def) {
    return this.config.permissionMode ?? def?.permissionMode ?? this.config.defaultMode ?? "default";
  }
  /** A prompt from the person; queued behind a wake-up run, refused while another prompt is being worked on. */
  async run(prompt, opts) {
    if (this.userRun) throw new Error("The main agent is still working on the previous prompt.");
    this.userRun = true;
    try {
      const result = await this.enqueue(() => this.runOnce(prompt, opts, true));
      return result;
    } finally {
      this.userRun = false;
    }
  }
  /** Runs the main agent on what waits in its inbox, unless it is busy (it will read it) or the person stopped it. */
  wake() {
    const h = this.handle;
    if (!h || this.pending > 0 || h.stoppedByUser || !h.inbox.length) return;
    this.enqueue(() => this.runOnce(void 0, {}, false)).catch((err) => this.s.onError(new Error(`The main agent could not be woken: ${err.message}`)));
  }
  enqueue(fn) {
    this.pending++;
    const run = this.queue.then(fn).finally(() => {
      this.pending--;
      this.wake();
    });
    this.queue = run.catch(() => void 0);
    this.s.track(run);
    return run;
  }
  async runOnce(prompt, opts, byPerson) {
    if (opts.agentType !== void 0) this.agentType = opts.agentType;
    const def = this.definition();
    if (this.agentType && !def) throw new Error(`There is no agent named '${this.agentType}'. Run 'fanout agents list' to see the available agents.`);
    const model = resolveModel({ override: this.config.model, definition: def?.model, parent: this.config.model ?? "sonnet", aliases: this.s.aliases });
    const closeRun = await this.s.prepareRun?.(this.getHandle(), def ?? null);
    let toolNames = this.s.availableToolNames();
    let allowedAgentTypes;
    if (def) {
      const resolution = resolveAgentTools(def, toolNames, { isBuiltIn: def.source === "built-in", isBackground: false, isSubagent: false });
      if (resolution.error) throw new Error(resolution.error);
      toolNames = resolution.resolvedTools;
      allowedAgentTypes = resolution.allowedAgentTypes;
    }
    const handle = this.getHandle();
    if (!byPerson && handle.stoppedByUser) return null;
    Object.assign(handle, {
      agentType: def?.agentType ?? MAIN_AGENT_TYPE,
      definition: def ?? null,
      model,
      permissionMode: this.modeFor(def),
      status: "running",
      abort: new AbortController(),
      stoppedByUser: false,
      startedAt: Date.now(),
      toolNames,
      allowedAgentTypes,
      effort: def?.effort ?? this.config.effort
    });
    await this.s.claimMailbox(handle);
    const opening = prompt ?? inboxPrompt(handle);
    if (!opening.length) return null;
    const mainDef = def ?? MAIN_DEFINITION;
    handle.systemPrompt = await this.s.systemPrompt(mainDef, handle);
    handle.messages = [...this.history];
    const result = await runAgent(
      {
        agentId: handle.id,
        parentAgentId: null,
        parentToolUseId: null,
        sessionId: this.s.sessionId,
        agentType: handle.agentType,
        depth: 0,
        client: this.s.client,
        model,
        ...effortRequest(model, handle.effort),
        systemPrompt: handle.systemPrompt,
        messages: this.history,
        prompt: opening,
        tools: this.s.buildTools(handle, toolNames),
        cwd: this.s.cwd,
        maxTurns: opts.maxTurns ?? def?.maxTurns,
        signal: handle.abort.signal,
        ...def?.criticalSystemReminder ? { criticalSystemReminder: def.criticalSystemReminder } : {},
        canUseTool: this.s.canUseTool(handle),
        drainInbox: () => handle.inbox.splice(0)
      },
      this.s.emit
    );
    await closeRun?.();
    this.history = result.messages;
    handle.messages = result.messages;
    handle.lastResult = result;
    this.lastResult = result;
    return result;
  }
};

// src/main/runtime/orchestration/output-log.ts
import { appendFile as appendFile2, mkdir as mkdir6 } from "node:fs/promises";
import { dirname as dirname15, join as join23 } from "node:path";
var TAIL_CHARS = 2e4;
var OutputLog = class {
  constructor(file, onError) {
    this.file = file;
    this.onError = onError;
    this.ready = mkdir6(dirname15(file), { recursive: true }).then(
      () => void 0,
      (err) => this.fail(err)
    );
  }
  file;
  onError;
  pending = "";
  writing = null;
  tailText = "";
  problem = null;
  ready;
  /** The last 20,000 characters written. */
  tail() {
    return this.tailText;
  }
  add(event) {
    const line2 = describe2(event);
    if (line2) this.write(line2);
  }
  write(text2) {
    this.tailText = (this.tailText + text2).slice(-TAIL_CHARS);
    if (this.problem) return;
    this.pending += text2;
    if (!this.writing) this.writing = this.drain();
  }
  /** Resolves when everything added so far is on disk (or the file failed, which was reported once). */
  async flush() {
    while (this.writing) await this.writing;
  }
  async drain() {
    await this.ready;
    while (this.pending && !this.problem) {
      const chunk = this.pending;
      this.pending = "";
      try {
        await appendFile2(this.file, chunk, "utf8");
      } catch (err) {
        this.fail(err);
      }
    }
    this.writing = null;
  }
  fail(err) {
    if (this.problem) return;
    this.problem = err.message;
    this.onError(new Error(`Could not write the output file ${this.file}: ${err.message}`));
  }
};
var OutputLogs = class {
  constructor(dir, onError) {
    this.dir = dir;
    this.onError = onError;
  }
  dir;
  onError;
  logs = /* @__PURE__ */ new Map();
  for(agentId) {
    let log = this.logs.get(agentId);
    if (!log) this.logs.set(agentId, log = new OutputLog(join23(this.dir, `${agentId}.output.txt`), this.onError));
    return log;
  }
  /** The agent's log if it has one. */
  get(agentId) {
    return this.logs.get(agentId);
  }
  async flush() {
    await Promise.all([...this.logs.values()].map((l) => l.flush()));
  }
};
function describe2(e) {
  switch (e.type) {
    case "agent_start":
      return `[${e.agentType} agent ${e.agentId} started: ${e.description}]
`;
    case "text_delta":
      return e.text;
    case "turn_end":
      return "\n";
    case "tool_run":
      return `
[${e.name} ${JSON.stringify(e.input).slice(0, 300)}]
`;
    case "tool_end":
      return e.isError ? `[${e.name} failed: ${e.output.slice(0, 500)}]
` : null;
    case "message_received":
      return `
[message from ${e.from}${e.summary ? `: ${e.summary}` : ""}]
`;
    case "error":
      return `
[error${e.retrying ? ", retrying" : ""}: ${e.message}]
`;
    case "agent_end":
      return `
[agent ${e.status}${e.error ? `: ${e.error}` : ""}]
`;
    default:
      return null;
  }
}

// src/main/runtime/orchestration/persistence.ts
var SessionPersistence = class {
  constructor(opts) {
    this.opts = opts;
    this.recorder = createSessionRecorder({ dataDir: opts.dataDir, sessionId: opts.sessionId, cwd: opts.cwd, ...opts.title ? { title: opts.title } : {}, onError: opts.onError });
  }
  opts;
  recorder;
  writes = /* @__PURE__ */ new Map();
  get dataDir() {
    return this.opts.dataDir;
  }
  transcriptFile(agentId) {
    return this.recorder.transcriptFile(agentId);
  }
  record(event) {
    this.recorder.record(event);
    if (event.type !== "agent_start" && event.type !== "agent_end") return;
    const handle = this.opts.registry.get(event.agentId);
    if (handle) this.writeState(handle, event.type === "agent_end" ? event.status : "running");
  }
  /** Queues a state.json write for this agent; writes of one agent land in order. */
  writeState(handle, status) {
    const state = stateOf(handle, this.opts.sessionId, status);
    const previous = this.writes.get(handle.id) ?? Promise.resolve();
    const next = previous.then(() => writeAgentState(this.opts.dataDir, state)).then(
      () => void 0,
      (err) => this.opts.onError(new Error(`Could not save the state of agent ${handle.id}: ${err.message}`))
    );
    this.writes.set(handle.id, next);
    void next.then(() => {
      if (this.writes.get(handle.id) === next) this.writes.delete(handle.id);
    });
  }
  async flush() {
    await Promise.all([...this.writes.values()]);
    await this.recorder.flush();
  }
  async close() {
    await Promise.all([...this.writes.values()]);
    await this.recorder.close();
  }
};
function stateOf(handle, sessionId, status) {
  const def = handle.definition;
  const definition = handle.fork ? { name: "fork", source: "built-in" } : def ? { name: def.agentType, source: def.source, ...def.file ? { file: def.file } : {} } : { name: MAIN_AGENT_TYPE, source: "built-in" };
  return {
    agentId: handle.id,
    sessionId,
    agentType: handle.agentType,
    definition,
    model: handle.model,
    turnCount: handle.turnCount,
    status,
    stoppedByUser: handle.stoppedByUser,
    ...handle.worktree ? { worktree: { ...handle.worktree } } : {},
    cwd: handle.isolation?.repoCwd ?? handle.cwd,
    parentAgentId: handle.parentId,
    parentToolUseId: handle.parentToolUseId,
    ...handle.name ? { name: handle.name } : {},
    ...handle.background ? { background: true } : {}
  };
}

// src/main/runtime/orchestration/agent-tool.ts
import { z as z9 } from "zod";
var AGENT_TOOL_NAME = "Agent";
var agentToolInput = z9.object({
  description: z9.string().trim().min(1, "give the task a short (3-5 word) description").describe("A short (3-5 word) description of the task"),
  prompt: z9.string().trim().min(1, "the prompt is the whole task for the subagent; it cannot be empty").describe("The task for the agent to perform"),
  subagent_type: z9.string().trim().min(1).optional().describe(`The type of agent to use (default: general-purpose); "${FORK_AGENT_TYPE}" forks you`),
  model: z9.string().trim().min(1).optional().describe("Model for this agent: haiku, sonnet, opus, inherit or a full model id. Default: the definition's model, else the parent's"),
  max_turns: z9.number().int().positive().optional().describe("Most model calls the agent may make (default: its definition's maxTurns)"),
  effort: z9.union([z9.enum(["low", "medium", "high", "max"]), z9.number().int().min(1024).max(128e3)]).optional().describe("How hard the agent thinks: low, medium, high or max, or a thinking budget in tokens (default: its definition's effort, else yours)"),
  run_in_background: z9.boolean().optional().describe("Run the agent in the background; you are notified when it finishes"),
  resume: z9.string().trim().min(1).optional().describe("Id of an earlier agent (finished or stopped) to continue with its full history; prompt is its next message"),
  isolation: z9.enum(["worktree"]).optional().describe('"worktree" runs the agent in its own git worktree on a new branch'),
  name: z9.string().trim().min(1).optional().describe("A name to address this agent by with SendMessage")
}).strict();
function agentToolDescription(agents) {
  return `Start a subagent: a separate agent with its own context, tools and model that works on one task and returns its final report to you.

Available agent types and the tools they have:
${formatAgentListing(agents)}
- ${FORK_AGENT_TYPE}: ${FORK_DESCRIPTION}

Give each subagent a complete, self-contained prompt: it sees nothing of your conversation, only what you write. Say what to do, what you already know, and what to report back. When you start several agents for independent work, put all the Agent calls in one message so they run at the same time.

- subagent_type picks the agent (default general-purpose).
- The agent's final message comes back to you as this tool's result; the person does not see it, so pass on what matters.
- Continue an agent later with SendMessage (to its id or name), or with resume: <agentId> and the next instructions as prompt; a new Agent call starts fresh.
- isolation: "worktree" gives the agent its own git worktree on a new branch; its changes are committed there and the branch is reported back.
- run_in_background: true returns at once with the agent's id and output file; keep working, and its report reaches you as a <task-notification> message when it finishes. Use TaskOutput to wait for it or read its progress, TaskStop to stop it. Background agents cannot ask for permissions or start agents.
- subagent_type: "${FORK_AGENT_TYPE}" starts a copy of you that sees this conversation; agent types marked with forkContext see it too and run on your model.`;
}
function createAgentTool(opts) {
  const tool = defineTool({
    name: AGENT_TOOL_NAME,
    description: agentToolDescription(opts.agents()),
    schema: agentToolInput,
    readOnly: false,
    // Several Agent calls in one assistant message run in parallel: that is the point of fan-out.
    concurrencySafe: true,
    // The subagent's report is what the parent asked for; let it through whole up to a generous cap.
    maxOutputChars: 1e5,
    execute: (input, ctx) => opts.spawn(input, ctx)
  });
  return tool;
}

// src/main/runtime/orchestration/spawn.ts
var DEFAULT_SUBAGENT_TYPE = "general-purpose";
var refuse = (content) => ({ content, isError: true });
function childPermissionMode(parent, own) {
  return effectiveMode(parent, own);
}
async function spawnSubagent(session, parent, input, ctx) {
  if (parent.fork) return refuse("A forked agent cannot start agents. Do this work yourself.");
  if (input.resume) return resumeSubagent(session, parent, input, ctx);
  const depth = parent.depth + 1;
  const planned = plan(session, parent, input, depth);
  if (typeof planned === "string") return refuse(planned);
  const refusal2 = session.gate.refusal(depth);
  if (refusal2) return refuse(refusal2);
  if (planned.isolated && planned.background) {
    try {
      await readRepo(parent.cwd);
    } catch (err) {
      return refuse(`Could not isolate the agent: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  session.gate.admit();
  const handle = newAgentHandle({
    id: session.newAgentId(),
    parentId: parent.id,
    parentToolUseId: ctx.toolUseId,
    depth,
    agentType: planned.agentType,
    definition: planned.def,
    ...input.name ? { name: input.name } : {},
    description: input.description,
    model: planned.model,
    cwd: parent.cwd,
    permissionMode: planned.permissionMode,
    ...planned.allowedAgentTypes ? { allowedAgentTypes: planned.allowedAgentTypes } : {},
    toolNames: planned.toolNames,
    ...planned.effort !== void 0 ? { effort: planned.effort } : {},
    ...planned.fork && parent.systemPrompt ? { systemPrompt: parent.systemPrompt } : {},
    ...planned.background ? { background: true } : {},
    ...planned.fork ? { fork: true } : {},
    ...planned.isolated ? { isolation: { repoCwd: parent.cwd } } : {}
  });
  session.registry.add(handle);
  if (planned.background) handle.outputFile = session.outputLog(handle).file;
  ctx.onUpdate?.({ agentId: handle.id, agentType: handle.agentType, model: handle.model, status: "queued", ...planned.background ? { background: true } : {} });
  const inherited = planned.fork || planned.forkContext ? forkMessages(parent.messages, ctx.toolUseId, input.prompt) : null;
  const req = {
    prompt: inherited ? inherited.prompt : input.prompt,
    history: inherited ? inherited.history : [],
    ...planned.maxTurns !== void 0 ? { maxTurns: planned.maxTurns } : {},
    ...inherited ? { recordHistory: true } : {},
    ...planned.background ? { reportTo: parent.id } : { linkTo: ctx.signal }
  };
  const run = startSubagentRun(session, handle, req);
  if (planned.background) return launched(handle);
  const result = await run;
  if (result.notStarted) return refuse(result.error ?? `The ${handle.agentType} agent did not start.`);
  return formatAgentReport(handle, result);
}
function plan(session, parent, input, depth) {
  const agentType = input.subagent_type ?? DEFAULT_SUBAGENT_TYPE;
  if (parent.allowedAgentTypes && !parent.allowedAgentTypes.includes(agentType))
    return `This agent may only start these agent types: ${parent.allowedAgentTypes.join(", ")}; '${agentType}' is not one of them.`;
  const isolated = (input.isolation ?? (agentType === FORK_AGENT_TYPE ? void 0 : session.agents().get(agentType)?.definition.isolation)) === "worktree";
  if (agentType === FORK_AGENT_TYPE) {
    const background3 = input.run_in_background === true;
    const toolNames2 = (parent.toolNames ?? []).filter((t) => t !== AGENT_TOOL_NAME && !ALWAYS_BLOCKED_FOR_SUBAGENTS.has(t) && (!background3 || BACKGROUND_ALLOWED.has(t)));
    if (!toolNames2.length) return "A fork of this agent would have no tools left; start a regular agent type instead.";
    return { def: parent.definition, agentType: FORK_AGENT_TYPE, model: parent.model, toolNames: toolNames2, permissionMode: parent.permissionMode, fork: true, forkContext: true, background: background3, isolated, ...input.max_turns ? { maxTurns: input.max_turns } : {}, ...(input.effort ?? parent.effort) !== void 0 ? { effort: input.effort ?? parent.effort } : {} };
  }
  const loaded = session.agents().get(agentType);
  if (!loaded) return `There is no agent type '${agentType}'. Available agent types: ${[...session.agents().keys(), FORK_AGENT_TYPE].join(", ")}.`;
  const def = loaded.definition;
  const background2 = input.run_in_background === true || def.background === true;
  let model;
  try {
    model = def.forkContext ? parent.model : resolveModel({ override: input.model, definition: def.model, parent: parent.model, aliases: session.aliases });
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  const resolution = resolveAgentTools(def, session.availableToolNames(), { isBuiltIn: def.source === "built-in", isBackground: background2, isSubagent: true });
  if (resolution.error && !(def.mcpServers && resolution.invalidTools.every((t) => t.startsWith("mcp__")))) return resolution.error;
  const toolNames = depth >= session.gate.limits.maxDepth ? resolution.resolvedTools.filter((t) => t !== AGENT_TOOL_NAME) : resolution.resolvedTools;
  return {
    def,
    agentType: def.agentType,
    model,
    toolNames,
    ...resolution.allowedAgentTypes ? { allowedAgentTypes: resolution.allowedAgentTypes } : {},
    permissionMode: childPermissionMode(parent.permissionMode, def.permissionMode),
    fork: false,
    forkContext: def.forkContext === true,
    background: background2,
    isolated,
    ...(input.max_turns ?? def.maxTurns) !== void 0 ? { maxTurns: input.max_turns ?? def.maxTurns } : {},
    ...(input.effort ?? def.effort ?? parent.effort) !== void 0 ? { effort: input.effort ?? def.effort ?? parent.effort } : {}
  };
}
async function resumeSubagent(session, caller, input, ctx) {
  const id = input.resume;
  let handle;
  try {
    handle = await session.findAgent(id);
  } catch (err) {
    return refuse(`Agent ${id} cannot be resumed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!handle) return refuse(`There is no agent '${id}' in this session to resume. Start a new agent with the whole task in its prompt.`);
  if (handle.id === session.mainAgentId || handle.id === caller.id) return refuse(`Agent ${handle.id} is ${handle.id === caller.id ? "you" : "the main agent"}; only subagents can be resumed.`);
  if (handle.run) return refuse(`Agent ${handle.id} is still running. Send it more instructions with SendMessage (to: '${handle.name ?? handle.id}'), or wait for its report.`);
  const background2 = input.run_in_background === true;
  handle.stoppedByUser = false;
  handle.parentToolUseId = ctx.toolUseId;
  handle.background = background2 || void 0;
  if (input.effort !== void 0) handle.effort = input.effort;
  if (background2) handle.outputFile = session.outputLog(handle).file;
  ctx.onUpdate?.({ agentId: handle.id, agentType: handle.agentType, model: handle.model, status: "queued", resumed: true });
  const maxTurns = input.max_turns ?? handle.definition?.maxTurns;
  const req = {
    prompt: input.prompt,
    // The conversation of a stopped run can end in an unanswered tool call; answer it so the API accepts it.
    history: repairConversation(handle.messages).messages,
    ...maxTurns !== void 0 ? { maxTurns } : {},
    ...background2 ? { reportTo: caller.id } : { linkTo: ctx.signal }
  };
  const run = startSubagentRun(session, handle, req);
  if (background2) return launched(handle);
  const result = await run;
  if (result.notStarted) return refuse(result.error ?? `Agent ${handle.id} did not start.`);
  return formatAgentReport(handle, result);
}
function launched(handle) {
  const details = { status: "async_launched", agentId: handle.id, outputFile: handle.outputFile ?? "" };
  return {
    content: `${JSON.stringify(details)}
The ${handle.agentType} agent ${handle.id}${handle.name ? ` (name: ${handle.name})` : ""} is running in the background. Its final report will reach you as a <task-notification> message when it finishes; carry on with other work meanwhile. Its output so far is in ${details.outputFile}. Check on it with TaskOutput, stop it with TaskStop, or send it instructions with SendMessage.`,
    details
  };
}

// src/main/runtime/orchestration/resume.ts
var RESUME_AFTER_RESTART_NOTE = "Fanout stopped (it was closed or crashed) while you were working, and has now restarted. Your conversation so far is above; a tool call that was running when it stopped is marked as interrupted. Continue the task from where you left off.";
function cutOffNote(agents) {
  const list = agents.map((a) => `- ${a.agentId} (${a.agentType}${a.description ? `: ${a.description}` : ""})`).join("\n");
  return `Fanout stopped (it was closed or crashed) and has restarted since these subagents were started. They were cut off and are not running now, so no report will come from them:
${list}
To have one continue, send it a message with SendMessage; otherwise do the work another way.`;
}
async function stateOf2(ctx, idOrName) {
  const byId = isSafeId(idOrName) ? await readAgentState(ctx.dataDir, ctx.sessionId, idOrName) : null;
  if (byId) return byId;
  const { states } = await listAgentStates(ctx.dataDir, ctx.sessionId);
  const named = states.filter((s) => s.name === idOrName).sort((a, b) => a.updatedAt - b.updatedAt);
  return named[named.length - 1] ?? null;
}
function definitionOf(ctx, name, state) {
  if (name === MAIN_AGENT_TYPE) return MAIN_DEFINITION;
  const def = ctx.agents().get(name)?.definition;
  if (!def) throw new Error(`it ran as the '${name}' agent${state.definition.file ? ` (${state.definition.file})` : ""}, and no definition with that name is loaded now; restore it to resume the agent`);
  return def;
}
async function loadDormantAgent(ctx, idOrName) {
  const state = await stateOf2(ctx, idOrName);
  if (!state || state.agentId === ctx.mainAgentId) return void 0;
  const existing = ctx.registry.get(state.agentId);
  if (existing) return existing;
  const loaded = await loadAgentForResume(ctx.dataDir, ctx.sessionId, state.agentId);
  let depth = 1;
  let parentState = null;
  for (let p = state.parentAgentId; p && p !== ctx.mainAgentId && depth < 50; depth++) {
    const s = await readAgentState(ctx.dataDir, ctx.sessionId, p).catch(() => null);
    if (!s) break;
    parentState ??= s;
    p = s.parentAgentId;
  }
  const fork = state.definition.name === FORK_AGENT_TYPE;
  const defName = fork ? parentState?.definition.name ?? MAIN_AGENT_TYPE : state.definition.name;
  const def = definitionOf(ctx, defName, state);
  const isMainLike = def === MAIN_DEFINITION;
  const resolution = isMainLike ? { resolvedTools: ctx.availableToolNames(), error: void 0, allowedAgentTypes: void 0 } : resolveAgentTools(def, ctx.availableToolNames(), { isBuiltIn: def.source === "built-in", isBackground: state.background === true, isSubagent: true });
  if (resolution.error) throw new Error(resolution.error);
  let toolNames = resolution.resolvedTools;
  if (fork) toolNames = toolNames.filter((t) => t !== AGENT_TOOL_NAME && !ALWAYS_BLOCKED_FOR_SUBAGENTS.has(t));
  else if (depth >= ctx.gate.limits.maxDepth) toolNames = toolNames.filter((t) => t !== AGENT_TOOL_NAME);
  const handle = {
    id: state.agentId,
    parentId: state.parentAgentId ?? ctx.mainAgentId,
    parentToolUseId: state.parentToolUseId ?? null,
    depth,
    agentType: state.agentType,
    definition: def,
    ...state.name ? { name: state.name } : {},
    model: state.model,
    cwd: state.cwd,
    permissionMode: childPermissionMode(ctx.mainPermissionMode ?? "default", def.permissionMode),
    ...resolution.allowedAgentTypes ? { allowedAgentTypes: resolution.allowedAgentTypes } : {},
    // Cut off mid-run: it is not running now; resuming it is a decision for the caller.
    status: isFinished(state.status) ? state.status : "interrupted",
    abort: new AbortController(),
    stoppedByUser: state.stoppedByUser,
    inbox: [],
    // Spend before the restart is counted once, from the reopened session's index (see AgentSession.open).
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    startedAt: Date.now(),
    messages: loaded.messages,
    run: null,
    turnCount: state.turnCount,
    lastEventAt: Date.now(),
    toolNames,
    ...state.background ? { background: true } : {},
    ...fork ? { fork: true } : {},
    ...state.worktree ? { isolation: { repoCwd: state.cwd }, worktree: state.worktree } : {}
  };
  ctx.registry.add(handle);
  return handle;
}
var DormantAgents = class {
  constructor(ctx) {
    this.ctx = ctx;
  }
  ctx;
  /** Subagents a crash cut off, not run since. */
  cutOff = [];
  loads = /* @__PURE__ */ new Map();
  /** The agent with this id or name, from disk (see loadDormantAgent). */
  find(idOrName) {
    let load2 = this.loads.get(idOrName);
    if (!load2) {
      load2 = loadDormantAgent(this.ctx, idOrName);
      this.loads.set(idOrName, load2);
      load2.finally(() => this.loads.delete(idOrName)).catch(() => void 0);
    }
    return load2;
  }
  /** The cut-off note for the main agent's next prompt, said once; null when every cut-off agent was resumed or messaged since. */
  takeCutOffNote() {
    const cutOff = this.cutOff.filter((a) => (this.ctx.registry.get(a.agentId)?.status ?? "interrupted") === "interrupted");
    this.cutOff = [];
    return cutOff.length ? cutOffNote(cutOff) : null;
  }
};
async function resumeInterrupted(ctx, wakeMain) {
  const { states, problems } = await agentsToResume(ctx.dataDir, ctx.sessionId);
  const resumed = [];
  let mainCutOff = false;
  for (const state of states) {
    if (state.agentId === ctx.mainAgentId) {
      mainCutOff = true;
      continue;
    }
    if (ctx.registry.get(state.agentId)?.run) continue;
    try {
      const handle = await loadDormantAgent(ctx, state.agentId);
      if (!handle || handle.run) continue;
      startSubagentRun(ctx, handle, {
        prompt: RESUME_AFTER_RESTART_NOTE,
        history: repairConversation(handle.messages).messages,
        reportTo: handle.parentId ?? ctx.mainAgentId,
        ...handle.definition?.maxTurns !== void 0 ? { maxTurns: handle.definition.maxTurns } : {}
      });
      resumed.push(handle.id);
    } catch (err) {
      problems.push(`Agent ${state.agentId} was not resumed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (mainCutOff) {
    const list = resumed.length ? ` These subagents were cut off too and are running again in the background; their reports will reach you when they finish: ${resumed.join(", ")}.` : "";
    wakeMain(`${RESUME_AFTER_RESTART_NOTE}${list}`);
    resumed.unshift(ctx.mainAgentId);
  }
  return { resumed, problems };
}

// src/main/runtime/orchestration/send-message.ts
import { z as z10 } from "zod";
var SEND_MESSAGE_TOOL_NAME = "SendMessage";
async function sendMessage(session, to, message, from, summary) {
  if (!to.trim()) throw new Error("SendMessage needs a recipient: an agent id or name.");
  if (!message.trim()) throw new Error("SendMessage needs a message; it was empty.");
  const sender = from === "user" ? void 0 : session.registry.get(from);
  const label = sender ? sender.name ?? sender.id : from;
  const target2 = to === session.mainAgentId || to === "main" ? session.mainHandle() : session.registry.find(to) ?? await session.findAgent(to);
  if (target2) {
    if (target2.id === from) throw new Error("An agent cannot send a message to itself.");
    const text2 = formatAgentMessage(label, message, summary);
    if (!target2.run) target2.stoppedByUser = false;
    const delivery = session.deliver(target2, text2, { from: sender ? sender.id : from, ...summary ? { summary } : {}, reportTo: sender ? sender.id : null });
    return { delivery, agentId: target2.id };
  }
  if (!session.dataDir) throw new Error(`There is no agent '${to}' in this session. Use an agent id or a name given with the Agent tool's name parameter.`);
  try {
    assertSafeId(to, "agent id or name");
  } catch {
    throw new Error(`There is no agent '${to}' in this session, and '${to}' cannot name a mailbox (use letters, digits, '.', '_' and '-').`);
  }
  await postMessage(session.dataDir, session.sessionId, to, { from: label, text: message, ...summary ? { summary } : {} });
  return { delivery: "mailbox", agentId: null };
}
async function claimMailbox(session, handle) {
  if (!session.dataDir) return;
  const boxes = [handle.id, ...handle.name && handle.name !== handle.id && isSafeId(handle.name) ? [handle.name] : []];
  for (const box of boxes) {
    try {
      for (const m of await claimMessages(session.dataDir, session.sessionId, box, { onProblem: (p) => session.onError(new Error(p)) }))
        session.deliver(handle, formatAgentMessage(m.from, m.text, m.summary), { from: m.from, ...m.summary ? { summary: m.summary } : {}, wake: false });
    } catch (err) {
      session.onError(new Error(`Could not read the mailbox of agent ${handle.id}: ${err instanceof Error ? err.message : String(err)}`));
    }
  }
}
var sendMessageInput = z10.object({
  to: z10.string().trim().min(1, "name the recipient: an agent id or name").describe("The recipient: an agent's id, or the name it was started with"),
  message: z10.string().trim().min(1, "the message is empty").describe("What to tell the agent"),
  summary: z10.string().trim().min(1).max(200).optional().describe("A few words saying what the message is about (shown in the UI)")
}).strict();
var CONFIRMATION = {
  inbox: (to) => `Message sent to ${to}; it will read it at the start of its next turn.`,
  resumed: (to) => `${to} was not running, so it was resumed with your message. Its report will reach you as a <task-notification>.`,
  woke: (to) => `Message sent to ${to}, which will now answer it.`,
  held: (to) => `Message sent to ${to}; it is stopped and will read it when it is resumed.`,
  mailbox: (to) => `No agent '${to}' is running in this session. The message was saved to its mailbox and will be delivered when it starts or resumes.`
};
function createSendMessageTool(session, caller) {
  return defineTool({
    name: SEND_MESSAGE_TOOL_NAME,
    description: `Send a message to another agent of this session, by its id or name (e.g. a subagent you started, or 'main'). A running agent reads it at its next turn; an agent that has finished is resumed with it, and its report comes back to you as a <task-notification>; an agent that does not exist yet gets it when it starts.`,
    schema: sendMessageInput,
    readOnly: false,
    // Messages to different agents are independent; several in one turn go out together.
    concurrencySafe: true,
    async execute(input) {
      try {
        const out = await sendMessage(session, input.to, input.message, caller.id, input.summary);
        const shown2 = out.agentId ? session.registry.get(out.agentId)?.name ?? out.agentId : input.to;
        return { content: CONFIRMATION[out.delivery](shown2), details: { to: input.to, ...out } };
      } catch (err) {
        return { content: err instanceof Error ? err.message : String(err), isError: true };
      }
    }
  });
}

// src/main/runtime/context/claude-md.ts
import { readFile as readFile6, realpath as realpath8 } from "node:fs/promises";
import { join as join26 } from "node:path";

// src/main/runtime/context/imports.ts
import { open as open3, realpath as realpath7, stat as stat6 } from "node:fs/promises";
import { dirname as dirname16, isAbsolute as isAbsolute9, join as join24, resolve as resolve20 } from "node:path";
var MAX_IMPORT_BYTES = 512 * 1024;
function withoutCode(markdown) {
  const lines2 = markdown.split("\n");
  let fence = null;
  const kept = lines2.map((line2) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line2)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line2.trim() === marker) fence = null;
      return "";
    }
    if (marker) {
      fence = marker;
      return "";
    }
    return line2.replace(/(`+)[\s\S]*?\1/g, " ");
  });
  return kept.join("\n");
}
function extractImports(markdown) {
  const found = [];
  for (const match2 of withoutCode(markdown).matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
    found.push(match2[1].replace(/\\ /g, " "));
  }
  return found;
}
async function resolveImport(target2, fromFile, home) {
  const candidates = [target2];
  const trimmed = target2.replace(/[.,;:!?)\]]+$/, "");
  if (trimmed && trimmed !== target2) candidates.push(trimmed);
  for (const candidate of candidates) {
    const path = candidate.startsWith("~/") ? join24(home, candidate.slice(2)) : isAbsolute9(candidate) ? candidate : resolve20(dirname16(fromFile), candidate);
    if (await isTextFile(path)) return realpath7(path);
  }
  return null;
}
async function isTextFile(path) {
  try {
    const info = await stat6(path);
    if (!info.isFile() || info.size > MAX_IMPORT_BYTES) return false;
    const handle = await open3(path, "r");
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(8192), 0, 8192, 0);
      return !buffer.subarray(0, bytesRead).includes(0);
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

// src/main/runtime/context/project-root.ts
import { stat as stat7 } from "node:fs/promises";
import { dirname as dirname17, join as join25, resolve as resolve21 } from "node:path";
async function exists(path) {
  try {
    await stat7(path);
    return true;
  } catch {
    return false;
  }
}
async function findRepoRoot(cwd2) {
  let dir = resolve21(cwd2);
  for (; ; ) {
    if (await exists(join25(dir, ".git"))) return dir;
    const parent = dirname17(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
function foldersUpTo(cwd2, top) {
  const out = [];
  let dir = resolve21(cwd2);
  for (; ; ) {
    out.push(dir);
    const parent = dirname17(dir);
    if (top && dir === resolve21(top) || parent === dir) return out;
    dir = parent;
  }
}
async function projectFolders(cwd2) {
  return foldersUpTo(cwd2, await findRepoRoot(cwd2));
}
async function projectRootOf(cwd2) {
  return await findRepoRoot(cwd2) ?? resolve21(cwd2);
}

// src/main/runtime/context/claude-md.ts
var DEFAULT_MAX_IMPORT_DEPTH = 5;
async function loadClaudeMd(options) {
  const maxDepth = options.maxImportDepth ?? DEFAULT_MAX_IMPORT_DEPTH;
  const seen = /* @__PURE__ */ new Set();
  const entries = [];
  const add = async (path, scope, depth, importedFrom) => {
    let real;
    let content;
    try {
      real = await realpath8(path);
      if (seen.has(real)) return;
      content = await readFile6(real, "utf8");
    } catch {
      return;
    }
    seen.add(real);
    entries.push({ path: real, scope, content, ...importedFrom ? { importedFrom } : {} });
    if (depth >= maxDepth) return;
    for (const target2 of extractImports(content)) {
      const imported = await resolveImport(target2, real, options.home);
      if (imported) await add(imported, scope, depth + 1, real);
    }
  };
  await add(join26(options.home, ".claude", "CLAUDE.md"), "user", 0);
  const folders = foldersUpTo(options.cwd, await findRepoRoot(options.cwd)).reverse();
  for (const dir of folders) {
    await add(join26(dir, "CLAUDE.md"), "project", 0);
    await add(join26(dir, ".claude", "CLAUDE.md"), "project", 0);
    await add(join26(dir, "CLAUDE.local.md"), "local", 0);
  }
  return entries;
}
var SCOPE_NOTE = {
  user: "the user's own instructions for every project",
  project: "project instructions, shared with everyone who works on this codebase",
  local: "the user's private instructions for this project, not checked in"
};
function formatClaudeMd(entries) {
  const files = entries.filter((e) => e.content.trim() !== "");
  if (!files.length) return "";
  const parts = files.map((e) => {
    const origin = e.importedFrom ? `${SCOPE_NOTE[e.scope]}; imported by ${e.importedFrom}` : SCOPE_NOTE[e.scope];
    return `Contents of ${e.path} (${origin}):

${e.content.trim()}`;
  });
  return [
    "The user and the project left instructions in CLAUDE.md files. They come before your default habits: follow them as written. Where two disagree, the later one (closer to the working directory) is more specific.",
    ...parts
  ].join("\n\n");
}

// src/main/runtime/context/agent-memory.ts
import { mkdir as mkdir7, readFile as readFile7 } from "node:fs/promises";
import { join as join27 } from "node:path";
var MEMORY_FILE = "MEMORY.md";
var MEMORY_MAX_LINES = 200;
var MEMORY_MAX_BYTES = 25 * 1024;
function memoryFolderName(agentType) {
  const safe = agentType.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "");
  return safe || "agent";
}
async function agentMemoryDir(options) {
  const name = memoryFolderName(options.agentType);
  if (options.scope === "user") return join27(options.home, ".claude", "agent-memory", name);
  const root2 = options.projectRoot ?? await projectRootOf(options.cwd);
  return join27(root2, ".claude", options.scope === "project" ? "agent-memory" : "agent-memory-local", name);
}
function truncateMemory(text2) {
  const lines2 = text2.split("\n");
  let content = lines2.length > MEMORY_MAX_LINES ? lines2.slice(0, MEMORY_MAX_LINES).join("\n") : text2;
  if (Buffer.byteLength(content, "utf8") > MEMORY_MAX_BYTES) {
    const bytes = Buffer.from(content, "utf8").subarray(0, MEMORY_MAX_BYTES);
    let cut2 = bytes.toString("utf8").replace(/\uFFFD$/, "");
    const lastNewline = cut2.lastIndexOf("\n");
    if (lastNewline > 0) cut2 = cut2.slice(0, lastNewline);
    content = cut2;
  }
  return { content, truncated: content !== text2 };
}
async function loadAgentMemory(options) {
  const dir = await agentMemoryDir(options);
  await mkdir7(dir, { recursive: true });
  const file = join27(dir, MEMORY_FILE);
  let text2 = null;
  try {
    text2 = await readFile7(file, "utf8");
  } catch (err) {
    if (err.code !== "ENOENT") throw new Error(`cannot read agent memory ${file}: ${err.message}`, { cause: err });
  }
  const base = { agentType: options.agentType, scope: options.scope, dir, file };
  if (text2 === null) return { ...base, content: "", exists: false, truncated: false, totalLines: 0, totalBytes: 0 };
  const { content, truncated } = truncateMemory(text2);
  return {
    ...base,
    content,
    exists: true,
    truncated,
    totalLines: text2 === "" ? 0 : text2.replace(/\n$/, "").split("\n").length,
    totalBytes: Buffer.byteLength(text2, "utf8")
  };
}
var SCOPE_GUIDANCE = {
  user: "This memory is yours across every project the user works on, and nobody else reads it: keep notes that hold in general, not facts about one codebase.",
  project: "This memory lives in the project's .claude folder and is usually checked into version control, so the whole team sees it: keep notes specific to this project, and never write secrets or personal details there.",
  local: "This memory lives in the project's .claude folder but stays out of version control: notes about this project for this user on this machine."
};
function agentMemoryPrompt(memory) {
  const lines2 = [
    `You have a persistent memory folder at ${memory.dir}. It survives between runs of the ${memory.agentType} agent.`,
    SCOPE_GUIDANCE[memory.scope],
    "",
    `How to use it:`,
    `- ${memory.file} is the index. It is loaded into your instructions at the start of every run, but only its first ${MEMORY_MAX_LINES} lines (and at most ${MEMORY_MAX_BYTES / 1024} KB), so keep it short: key facts and pointers to topic files.`,
    `- Put longer notes in other files in ${memory.dir} (for example debugging.md or conventions.md) and Read them when a task calls for them.`,
    "- Create and change these files with your Write and Edit tools as you go. Record what will still be true next time: conventions, decisions and why, pitfalls, where things live. Skip the details of this one task.",
    "- Check a note against the code before relying on it, and fix or delete notes that turn out wrong or stale.",
    ""
  ];
  if (!memory.exists || memory.content.trim() === "") {
    lines2.push(`${memory.file} does not exist yet or is empty. Create it when you learn something worth keeping.`);
  } else {
    lines2.push(`Contents of ${memory.file}:`, "", memory.content.trimEnd());
    if (memory.truncated) {
      lines2.push(
        "",
        `[MEMORY.md is longer (${memory.totalLines} lines, ${Math.ceil(memory.totalBytes / 1024)} KB) and was cut here. Read the file for the rest, and move detail into topic files so the index fits.]`
      );
    }
  }
  return lines2.join("\n");
}

// src/main/runtime/context/skills.ts
import { readFile as readFile8, realpath as realpath9 } from "node:fs/promises";
import { dirname as dirname18, join as join28 } from "node:path";
import { isMap as isMap2, parseDocument as parseDocument2 } from "yaml";
var SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
function parseFrontmatter(text2) {
  const source = text2.replace(/^\uFEFF/, "");
  const match2 = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match2) return { data: {}, body: source };
  const body = source.slice(match2[0].length);
  const doc = parseDocument2(match2[1] ?? "");
  if (doc.errors.length) {
    const first = doc.errors[0];
    const pos = first.linePos?.[0];
    return { data: {}, body, error: { message: first.message.split("\n")[0], line: (pos?.line ?? 1) + 1, column: pos?.col ?? 1 } };
  }
  const value = doc.toJS();
  return { data: isMap2(doc.contents) && value && typeof value === "object" ? value : {}, body };
}
async function readSkill(path) {
  try {
    const real = await realpath9(path);
    return { real, text: await readFile8(real, "utf8") };
  } catch {
    return null;
  }
}
async function loadSkills(options) {
  const where = options.definitionFile ?? options.cwd;
  const warn = (code, message, line2 = 1, column = 1, file = where) => ({
    file,
    line: line2,
    column,
    severity: "warning",
    code,
    message
  });
  const skills = [];
  const diagnostics = [];
  const folders = await projectFolders(options.cwd);
  for (const name of [...new Set(options.names)]) {
    if (!SKILL_NAME.test(name)) {
      diagnostics.push(warn("skill-name-invalid", `Skill name ${JSON.stringify(name)} is not a folder name under .claude/skills; it was skipped.`));
      continue;
    }
    const candidates = [
      ...folders.map((dir) => ({ path: join28(dir, ".claude", "skills", name, "SKILL.md"), scope: "project" })),
      { path: join28(options.home, ".claude", "skills", name, "SKILL.md"), scope: "user" }
    ];
    let found;
    for (const candidate of candidates) {
      const read = await readSkill(candidate.path);
      if (read) {
        found = { ...candidate, ...read };
        break;
      }
    }
    if (!found) {
      diagnostics.push(
        warn(
          "skill-not-found",
          `Skill "${name}" was not found: no .claude/skills/${name}/SKILL.md in ${folders[folders.length - 1]} or the folders below it down to ${folders[0]}, nor in ${join28(options.home, ".claude", "skills")}. The agent runs without it.`
        )
      );
      continue;
    }
    const fm = parseFrontmatter(found.text);
    if (fm.error) {
      diagnostics.push(
        warn("skill-frontmatter-invalid", `The frontmatter of skill "${name}" is not valid YAML (${fm.error.message}); its instructions are loaded without it.`, fm.error.line, fm.error.column, found.real)
      );
    }
    const description = typeof fm.data.description === "string" ? fm.data.description.trim() : void 0;
    skills.push({
      name,
      ...description ? { description } : {},
      scope: found.scope,
      path: found.real,
      dir: dirname18(found.real),
      body: fm.body.trim(),
      frontmatter: fm.data
    });
  }
  return { skills, diagnostics };
}
function formatSkills(skills) {
  if (!skills.length) return "";
  const blocks = skills.map((s) => {
    const title = typeof s.frontmatter.name === "string" && s.frontmatter.name.trim() ? s.frontmatter.name.trim() : s.name;
    const head = [`## Skill: ${title}`, `Folder: ${s.dir}`, ...s.description ? [`Use it for: ${s.description}`] : []];
    return `${head.join("\n")}

${s.body}`;
  });
  return [
    "These skills were loaded for you. Each one is a way of doing a kind of task: when your task matches a skill, follow its instructions. Files a skill refers to are relative to its folder; Read them when needed.",
    ...blocks
  ].join("\n\n");
}

// src/main/runtime/context/environment.ts
function formatDate(date) {
  if (typeof date === "string") return date;
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
function environmentDetails(input) {
  const git = !input.isGitRepo ? "no" : input.branch ? `yes, on branch ${input.branch}` : "yes, detached HEAD";
  const lines2 = [
    `Working directory: ${input.cwd}`,
    `Git repository: ${git}`,
    `Platform: ${input.platform}`,
    ...input.osVersion ? [`OS version: ${input.osVersion}`] : [],
    `Today's date: ${formatDate(input.date)}`,
    `Model: ${input.model}`
  ];
  const wt = input.worktree;
  if (wt) {
    const from = [wt.baseCommit ? `commit ${wt.baseCommit.slice(0, 12)}` : null, wt.repoRoot ? `of ${wt.repoRoot}` : null].filter(Boolean).join(" ");
    lines2.push(
      "",
      `You are working in an isolated git worktree at ${wt.path}${from ? `, created from ${from}` : ""}. Your changes stay here and do not affect the user's checkout. Uncommitted changes in the original checkout are not present in this copy. When you finish, everything you changed is committed to the branch ${wt.branch} for the user to review; you do not need to commit it yourself.`
    );
  }
  return lines2.join("\n");
}

// src/main/runtime/context/system-prompt.ts
function section(tag, text2) {
  const inner = text2.trim();
  return inner ? `<${tag}>
${inner}
</${tag}>` : null;
}
function buildSystemPrompt(parts) {
  const env = typeof parts.environment === "string" ? parts.environment : environmentDetails(parts.environment);
  const sections = [
    parts.body.trim() || null,
    parts.omitClaudeMd ? null : section("claude_md", formatClaudeMd(parts.claudeMd ?? [])),
    parts.agentMemory ? section("agent_memory", agentMemoryPrompt(parts.agentMemory)) : null,
    section("skills", formatSkills(parts.skills ?? [])),
    section("env", env)
  ];
  return sections.filter((s) => s !== null).join("\n\n");
}

// src/main/runtime/orchestration/agent-prompt.ts
async function agentSystemPrompt(src, def, handle, worktree) {
  const [git, memory, skills] = await Promise.all([
    src.git(handle.cwd),
    def.memory ? loadAgentMemory({ agentType: def.agentType, scope: def.memory, cwd: src.cwd, home: src.home }) : void 0,
    def.skills?.length ? loadSkills({ names: def.skills, cwd: src.cwd, home: src.home, ...def.file ? { definitionFile: def.file } : {} }) : void 0
  ]);
  return buildSystemPrompt({
    body: def.systemPrompt,
    environment: { cwd: handle.cwd, isGitRepo: git.isGitRepo, branch: git.branch, platform: process.platform, date: /* @__PURE__ */ new Date(), model: handle.model, ...worktree ? { worktree } : {} },
    claudeMd: src.claudeMd,
    omitClaudeMd: def.omitClaudeMd === true,
    ...memory ? { agentMemory: memory } : {},
    ...skills ? { skills: skills.skills } : {}
  });
}

// src/main/runtime/orchestration/session-definitions.ts
var SessionDefinitions = class {
  constructor(opts) {
    this.opts = opts;
  }
  opts;
  loaded = /* @__PURE__ */ new Map();
  claudeMd = [];
  gitInfo = /* @__PURE__ */ new Map();
  async reload() {
    const { cwd: cwd2, home } = this.opts;
    const [agents, claudeMd] = await Promise.all([loadAgents({ cwd: cwd2, home, ...this.opts.agentSources }), loadClaudeMd({ cwd: cwd2, home })]);
    this.loaded = agents.byType;
    this.claudeMd = claudeMd;
  }
  /** The effective definitions by agent type, as last loaded. */
  agents() {
    return this.loaded;
  }
  systemPrompt(def, handle, worktree) {
    return agentSystemPrompt({ cwd: this.opts.cwd, home: this.opts.home, claudeMd: this.claudeMd, git: (cwd2) => this.git(cwd2) }, def, handle, worktree);
  }
  git(cwd2) {
    let probe = this.gitInfo.get(cwd2);
    if (!probe) this.gitInfo.set(cwd2, probe = probeGit(cwd2));
    return probe;
  }
};

// src/main/runtime/orchestration/session-options.ts
var DEFAULT_BACKGROUND_STALL_MS = 15 * 6e4;

// src/main/runtime/orchestration/permission-broker.ts
import { randomBytes as randomBytes2 } from "node:crypto";
var PermissionBroker = class {
  constructor(opts) {
    this.opts = opts;
    this.root = createPermissionGate({ mode: "default", rules: opts.rules, cwd: opts.cwd, headless: opts.headless, additionalDirectories: opts.additionalDirectories, home: opts.home, ...opts.sandbox ? { sandbox: opts.sandbox } : {} });
  }
  opts;
  root;
  waiting = /* @__PURE__ */ new Map();
  /** The rules in force, session rules included. */
  rules() {
    return this.root.rules();
  }
  /** New rules (settings changed on disk) for gates built from now on; "allow always" answers given so far are dropped. */
  setRules(rules, additionalDirectories) {
    this.opts.rules = rules;
    this.opts.additionalDirectories = additionalDirectories;
    this.root = createPermissionGate({ mode: "default", rules, cwd: this.opts.cwd, headless: this.opts.headless, additionalDirectories, home: this.opts.home, ...this.opts.sandbox ? { sandbox: this.opts.sandbox } : {} });
  }
  /** The permission hook for one run of this agent (its mode and cwd as they are now). */
  canUseTool(handle) {
    const gate = this.root.forSubagent({
      definitionMode: handle.permissionMode,
      cwd: handle.cwd,
      ask: (req) => this.ask(handle, req),
      headless: this.opts.headless || handle.background === true,
      readOnlyAgent: isReadOnlyAgent(handle.definition)
    });
    return async (tool, input, toolUseId) => {
      const decision = await gate.canUseTool(tool, input, toolUseId);
      if (decision.behavior === "deny") this.opts.onDenied?.(decision.message, tool.name, handle.id);
      return decision;
    };
  }
  /** A deny rule covering this call, even in bypass mode (a PreToolUse hook's "allow" skips the prompt, never a deny rule). */
  ruleDenial(handle, tool, input) {
    const d = decidePermission({ mode: "bypassPermissions", tool, input, rules: this.root.rules(), cwd: handle.cwd, additionalDirectories: this.opts.additionalDirectories, home: this.opts.home });
    return d.behavior === "deny" ? d.message : null;
  }
  /** Puts one call to the person whatever the rules say (a PreToolUse hook answered "ask"); denied where nobody can answer. */
  async askAbout(handle, toolName, input, toolUseId, reason) {
    if (this.opts.headless || handle.background === true) return { behavior: "deny", message: `${toolName} was not run: a PreToolUse hook asked for approval (${reason}), and nobody can answer in this run.` };
    const answer = await this.ask(handle, { toolName, input, toolUseId, reason, suggestedRules: [], mode: handle.permissionMode, cwd: handle.cwd }, { byHook: true });
    return answer === "deny" ? { behavior: "deny", message: `The user denied permission to use ${toolName} for this call. Do not retry it as is; take another approach or ask the user how to proceed.` } : { behavior: "allow" };
  }
  /** Requests waiting for an answer, oldest first. */
  pending() {
    return [...this.waiting.values()].map((w) => w.event);
  }
  has(requestId) {
    return this.waiting.has(requestId);
  }
  respond(requestId, decision) {
    const w = this.waiting.get(requestId);
    if (!w) throw new Error(`No permission request ${requestId} is waiting: it was answered already, or its agent stopped.`);
    if (decision === "allow_always") {
      for (const rule of w.event.suggestedRules ?? []) this.root.addSessionRule(rule);
      w.settle(decision);
      for (const other of [...this.waiting.values()]) if (this.coveredByRules(other)) other.settle("allow");
      return;
    }
    w.settle(decision);
  }
  /** Whether the rules now in force allow a waiting call without asking. */
  coveredByRules(w) {
    if (!w.mode) return false;
    const tool = { name: w.event.toolName };
    const d = decidePermission({ mode: w.mode, tool, input: w.event.input, rules: this.root.rules(), cwd: w.handle.cwd, additionalDirectories: this.opts.additionalDirectories, home: this.opts.home });
    return d.behavior === "allow";
  }
  ask(handle, req, opts = {}) {
    const signal = handle.abort.signal;
    if (signal.aborted) return Promise.resolve("deny");
    const target2 = this.watcherOf(handle);
    const requestId = `perm-${randomBytes2(8).toString("hex")}`;
    const base = (h) => ({ agentId: h.id, parentAgentId: h.parentId, parentToolUseId: h.parentToolUseId, sessionId: this.opts.sessionId, ts: Date.now() });
    const event = {
      ...base(target2),
      type: "permission_request",
      requestId,
      toolName: req.toolName,
      input: req.input,
      reason: req.reason,
      requestingAgentId: handle.id,
      toolUseId: req.toolUseId,
      suggestedRules: req.suggestedRules
    };
    return new Promise((resolve24) => {
      const settle = (answer, why) => {
        if (!this.waiting.delete(requestId)) return;
        signal.removeEventListener("abort", onAbort);
        this.opts.emit({ ...base(target2), type: "permission_response", requestId, decision: answer, ...why ? { reason: why } : {} });
        const stillWaiting = [...this.waiting.values()].some((w) => w.handle === handle);
        if (!stillWaiting && !signal.aborted) this.opts.emit({ ...base(handle), type: "status", status: "running" });
        resolve24(answer);
      };
      const onAbort = () => settle("deny", "the agent was stopped");
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(requestId, { event, handle, mode: opts.byHook ? null : req.mode, settle: (a) => settle(a) });
      this.opts.emit({ ...base(handle), type: "status", status: "waiting_permission", detail: req.reason });
      this.opts.emit(event);
    });
  }
  /** Who is shown the request: the agent itself, or for `bubble` the first ancestor not in bubble mode. */
  watcherOf(handle) {
    let h = handle;
    while (h.permissionMode === "bubble" && h.parentId) {
      const parent = this.opts.registry.get(h.parentId);
      if (!parent) break;
      h = parent;
    }
    return h;
  }
};

// src/main/runtime/orchestration/session-permissions.ts
var SessionPermissions = class {
  constructor(s, options) {
    this.s = s;
    this.options = options;
  }
  s;
  options;
  /** The permission settings in force (rules, defaultMode, and problems found in the files). */
  settings = null;
  broker = null;
  /** Re-reads the settings files and applies their rules to gates built from now on; null when the session's own hook decides. */
  reload() {
    const { options, s } = this;
    const settings = loadPermissionSettings({ cwd: s.cwd, home: s.home, ...options.managedSettingsFile !== void 0 ? { managedFile: options.managedSettingsFile } : {} });
    this.settings = settings;
    if (options.permissions) return null;
    const rules = options.permissionRules ? mergeRules(settings.rules, options.permissionRules) : settings.rules;
    if (this.broker) this.broker.setRules(rules, settings.additionalDirectories);
    else
      this.broker = new PermissionBroker({
        sessionId: s.sessionId,
        cwd: s.cwd,
        home: s.home,
        rules,
        additionalDirectories: settings.additionalDirectories,
        headless: options.headless === true,
        sandbox: s.sandbox.state,
        registry: s.registry,
        emit: s.emit,
        ...options.onPermissionDenied ? { onDenied: options.onPermissionDenied } : {}
      });
    return settings;
  }
  /** The rules in force: the settings files', the session's own, and "allow always" answers. */
  rules() {
    if (this.broker) return this.broker.rules();
    const base = this.settings?.rules ?? emptyRules();
    return this.options.permissionRules ? mergeRules(base, this.options.permissionRules) : base;
  }
  /** The one path check for an agent: its cwd, the additional directories, the deny rules in force. */
  pathPolicy(handle) {
    return new PathPolicy({ cwd: handle.cwd, roots: () => this.settings?.additionalDirectories ?? [], rules: () => this.rules(), home: this.s.home });
  }
  canUseTool(handle) {
    if (this.options.permissions) return this.s.extensions.canUseTool(handle, this.options.permissions(handle), null);
    return this.s.extensions.canUseTool(handle, this.broker?.canUseTool(handle), this.broker);
  }
  /** Answers a `permission_request` event. Throws when no such request is waiting. */
  respond(requestId, decision) {
    if (!this.broker) throw new Error(`No permission request ${requestId} is waiting: this session's permissions are decided by its own hook.`);
    this.broker.respond(requestId, decision);
  }
  /** Permission requests waiting for an answer. */
  pending() {
    return this.broker?.pending() ?? [];
  }
};

// src/main/runtime/security/sandbox/sandbox-runtime.ts
init_child_env();
import { spawn as spawn3 } from "node:child_process";
import { randomBytes as randomBytes3 } from "node:crypto";
import { accessSync, constants } from "node:fs";
import { createRequire as createRequire2 } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join as join29 } from "node:path";
function executable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (dir && executable(join29(dir, name))) return join29(dir, name);
  return null;
}
var INSTALL_HINT = process.platform === "darwin" ? "install ripgrep (brew install ripgrep)" : "install them with: apt-get install bubblewrap socat ripgrep";
function missingDependencies(opts) {
  if (process.platform !== "linux" && process.platform !== "darwin") return [`sandboxing is not supported on ${process.platform}`];
  const missing2 = [];
  if (process.platform === "linux") {
    if (opts.bwrapPath ? !executable(opts.bwrapPath) : !onPath("bwrap")) missing2.push(opts.bwrapPath ? `bubblewrap not found at ${opts.bwrapPath}` : "bubblewrap (bwrap) is not installed");
    if (opts.socatPath ? !executable(opts.socatPath) : !onPath("socat")) missing2.push(opts.socatPath ? `socat not found at ${opts.socatPath}` : "socat is not installed");
  }
  if (!onPath("rg")) missing2.push("ripgrep (rg) is not installed");
  return missing2;
}
function runProbe(command) {
  return new Promise((resolve24) => {
    const child2 = spawn3("/bin/bash", ["-c", command], { stdio: ["ignore", "pipe", "pipe"], env: childEnv() });
    let output = "";
    child2.stdout.on("data", (c) => output += c.toString());
    child2.stderr.on("data", (c) => output += c.toString());
    child2.on("error", (err) => resolve24({ code: null, output: err.message }));
    child2.on("close", (code) => resolve24({ code, output: output.trim() }));
  });
}
var library;
var loadLibrary = () => library ??= createRequire2(import.meta.url)("@anthropic-ai/sandbox-runtime");
var initialized;
var wrapping = Promise.resolve();
function inDirectory(dir, tmpDir, fn) {
  const run = wrapping.then(async () => {
    const before = process.cwd();
    const tmpBefore = process.env.CLAUDE_CODE_TMPDIR;
    process.chdir(dir);
    if (tmpDir) process.env.CLAUDE_CODE_TMPDIR = tmpDir;
    try {
      return await fn();
    } finally {
      process.chdir(before);
      if (tmpBefore === void 0) delete process.env.CLAUDE_CODE_TMPDIR;
      else process.env.CLAUDE_CODE_TMPDIR = tmpBefore;
    }
  });
  wrapping = run.catch(() => void 0);
  return run;
}
var SandboxRuntime = class {
  constructor(opts = {}) {
    this.opts = opts;
  }
  opts;
  status;
  /** Starts the sandbox once; later calls get the same answer. */
  ready() {
    return this.status ??= this.start();
  }
  async start() {
    if (this.opts.disabledReason) return { available: false, reason: this.opts.disabledReason };
    const started = performance.now();
    const missing2 = missingDependencies(this.opts);
    if (missing2.length) return { available: false, reason: `${missing2.join("; ")} (${INSTALL_HINT})` };
    try {
      const srt = loadLibrary();
      const deps = srt.SandboxManager.checkDependencies();
      if (deps.errors.length) return { available: false, reason: deps.errors.join("; ") };
      await (initialized ??= srt.SandboxManager.initialize({
        network: { allowedDomains: [], deniedDomains: [] },
        filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
        ...this.opts.bwrapPath ? { bwrapPath: this.opts.bwrapPath } : {},
        ...this.opts.socatPath ? { socatPath: this.opts.socatPath } : {}
      }));
      const probe = await this.wrap("true", { cwd: tmpdir(), allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [] });
      const run = await runProbe(probe.command);
      probe.release();
      if (run.code !== 0) return { available: false, reason: `bubblewrap could not start a sandbox here (${run.output.split("\n").slice(-2).join(" ") || `exit ${run.code}`})` };
      return { available: true, startMs: Math.round(performance.now() - started) };
    } catch (err) {
      initialized = void 0;
      return { available: false, reason: `the sandbox could not start (${err instanceof Error ? err.message : String(err)})` };
    }
  }
  /** The command wrapped in its sandbox. Call only after ready() said available. */
  async wrap(command, policy, signal) {
    const srt = loadLibrary();
    const manager = srt.SandboxManager;
    const commandId = randomBytes3(16).toString("base64url");
    const wrapped = await inDirectory(
      policy.cwd,
      policy.tmpDir,
      () => manager.wrapWithSandbox(
        command,
        "bash",
        {
          network: { allowedDomains: policy.allowedDomains, deniedDomains: [] },
          filesystem: { denyRead: policy.denyRead, allowWrite: policy.allowWrite, denyWrite: policy.denyWrite }
        },
        signal,
        { commandId, commandText: command }
      )
    );
    if (policy.allowedDomains.length) manager.registerCommandNetworkLists(commandId, { allowedDomains: policy.allowedDomains });
    let released = false;
    return {
      command: wrapped,
      release: () => {
        if (released) return;
        released = true;
        manager.unregisterCommandNetworkLists(commandId);
        manager.cleanupAfterCommand();
      }
    };
  }
};
var shared;
function sharedSandboxRuntime() {
  return shared ??= new SandboxRuntime();
}

// src/main/runtime/orchestration/session-sandbox.ts
function sandboxUnavailableNotice(reason, headless) {
  return `The Bash sandbox is unavailable: ${reason}. Commands that would run without asking inside it (read-only commands, allowed commands, plan mode) ${headless ? "are denied in this headless run" : "ask for approval instead"}.`;
}
var SessionSandbox = class {
  constructor(opts, disabledBy, headless) {
    this.opts = opts;
    this.disabledBy = disabledBy;
    this.headless = headless;
  }
  opts;
  disabledBy;
  headless;
  noticed = false;
  last;
  runtime() {
    if (this.opts.runtime) return this.opts.runtime;
    const off = this.disabledBy();
    return off ? new SandboxRuntime({ disabledReason: `it is turned off by ${off}` }) : sharedSandboxRuntime();
  }
  /** Whether commands can be sandboxed; the first "no" is told to the person as a notice on the main agent. */
  state = async () => {
    const status = await this.runtime().ready();
    this.last = status.available ? { available: true } : { available: false, reason: status.reason };
    if (!status.available && !this.noticed) {
      this.noticed = true;
      const o = this.opts;
      o.emit({ agentId: o.mainAgentId, parentAgentId: null, parentToolUseId: null, sessionId: o.sessionId, ts: Date.now(), type: "error", message: sandboxUnavailableNotice(status.reason, this.headless()), retrying: false, notice: true });
    }
    return this.last;
  };
  /** The last answer (for decisions that cannot wait); available until asked. */
  lastState() {
    return this.last ?? { available: true };
  }
};

// src/main/runtime/tools/bash.ts
import { spawn as spawn4 } from "node:child_process";
import { appendFileSync, closeSync, mkdirSync as mkdirSync2, openSync } from "node:fs";
import { stat as stat8 } from "node:fs/promises";
import { tmpdir as tmpdir3 } from "node:os";
import { join as join32 } from "node:path";
import { z as z11 } from "zod";

// src/main/runtime/tools/output-capture.ts
import { StringDecoder } from "node:string_decoder";
var OutputCapture = class {
  constructor(headChars = 15e3, tailChars = 15e3) {
    this.headChars = headChars;
    this.tailChars = tailChars;
  }
  headChars;
  tailChars;
  head = "";
  tail = "";
  dropped = 0;
  total = 0;
  decoders = /* @__PURE__ */ new Map();
  /** Appends a chunk from a named stream (UTF-8 split across chunks is decoded correctly per stream). */
  push(stream, chunk) {
    let decoder = this.decoders.get(stream);
    if (!decoder) this.decoders.set(stream, decoder = new StringDecoder("utf8"));
    const text2 = decoder.write(chunk);
    this.append(text2);
    return text2;
  }
  flush() {
    for (const d of this.decoders.values()) this.append(d.end());
  }
  append(text2) {
    if (!text2) return;
    this.total += text2.length;
    const room = this.headChars - this.head.length;
    if (room > 0) {
      this.head += text2.slice(0, room);
      text2 = text2.slice(room);
    }
    if (!text2) return;
    this.tail += text2;
    if (this.tail.length > this.tailChars) {
      this.dropped += this.tail.length - this.tailChars;
      this.tail = this.tail.slice(this.tail.length - this.tailChars);
    }
  }
  get totalChars() {
    return this.total;
  }
  get truncated() {
    return this.dropped > 0;
  }
  /** The last `n` characters seen, for live progress. */
  recent(n) {
    const all2 = this.head + this.tail;
    return all2.slice(Math.max(0, all2.length - n));
  }
  text() {
    if (!this.dropped) return this.head + this.tail;
    return `${this.head}

[\u2026 ${this.dropped} characters of output omitted \u2026]

${this.tail}`;
  }
};

// src/main/runtime/tools/bash.ts
init_process_group();

// src/main/runtime/tools/bash-sandbox.ts
init_child_env();
import { mkdirSync } from "node:fs";
import { tmpdir as tmpdir2 } from "node:os";
import { join as join31 } from "node:path";

// src/main/runtime/security/sandbox/sandbox-policy.ts
import { existsSync as existsSync9, readFileSync as readFileSync5, statSync as statSync3 } from "node:fs";
import { dirname as dirname19, isAbsolute as isAbsolute10, join as join30, resolve as resolve22 } from "node:path";
var CREDENTIAL_STORES = [".ssh", ".aws", ".gnupg", ".config/gh", ".config/gcloud", ".azure", ".kube", ".docker/config.json", ".netrc", ".git-credentials", ".npmrc", ".pypirc", ".claude/.credentials.json", ".anthropic"];
var RUNS_LATER_FILES = [".claude/settings.json", ".claude/settings.local.json", ".claude/hooks", ".mcp.json", ".gitmodules"];
var LIBRARY_SCRATCH = (home) => ["/tmp/claude", join30(home, ".npm", "_logs"), join30(home, ".claude", "debug")];
function ruleToSandboxPath(content, root2, paths2) {
  const { base, pattern } = resolvePattern(content, root2, paths2.ctx);
  const body = pattern.replace(/^\//, "").replace(/\/\*\*$/, "");
  const anywhere = !pattern.slice(1).replace(/\/$/, "").includes("/") && !pattern.startsWith("/");
  return anywhere ? join30(base, "**", body.replace(/\/$/, "")) : join30(base, body);
}
function outsideGitDir(cwd2) {
  for (let d = cwd2; ; d = dirname19(d)) {
    const dotGit = join30(d, ".git");
    const info = statSync3(dotGit, { throwIfNoEntry: false });
    if (info?.isDirectory()) return d === cwd2 ? null : dotGit;
    if (info?.isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync5(dotGit, "utf8"));
      if (!m) return null;
      const gitDir = resolve22(d, m[1].trim());
      const common = join30(gitDir, "commondir");
      return existsSync9(common) ? resolve22(gitDir, readFileSync5(common, "utf8").trim()) : gitDir;
    }
    if (dirname19(d) === d) return null;
  }
}
function sandboxPolicy(level, opts) {
  const { paths: paths2 } = opts;
  const home = paths2.home;
  const denyRead = [
    ...paths2.rulesFor("read", "Bash").map((r) => ruleToSandboxPath(r.content, r.root, paths2)),
    ...CREDENTIAL_STORES.map((p) => join30(home, p)),
    ...opts.secretFiles ?? []
  ].filter((p) => isAbsolute10(p));
  if (level === "read-only") {
    return { cwd: paths2.cwd, allowWrite: [], denyWrite: LIBRARY_SCRATCH(home).filter((p) => existsSync9(p)), denyRead, allowedDomains: [] };
  }
  const allowWrite = [paths2.cwd, opts.tmpDir];
  const denyWrite = [
    ...paths2.rulesFor("write", "Bash").map((r) => ruleToSandboxPath(r.content, r.root, paths2)),
    ...RUNS_LATER_FILES.map((f) => join30(paths2.cwd, f)).filter((f) => existsSync9(f))
  ];
  const gitDir = outsideGitDir(paths2.cwd);
  if (gitDir) {
    allowWrite.push(gitDir);
    denyWrite.push(join30(gitDir, "hooks"), join30(gitDir, "config"));
  }
  return { cwd: paths2.cwd, tmpDir: opts.tmpDir, allowWrite, denyWrite: denyWrite.filter((p) => isAbsolute10(p)), denyRead, allowedDomains: [...opts.allowedDomains] };
}

// src/main/runtime/tools/bash-sandbox.ts
var NO_PROMPTS = { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };
var READ_ONLY_GIT = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.fsmonitor", GIT_CONFIG_VALUE_0: "false" };
function safeName(s) {
  return s.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 80) || "x";
}
function effectiveLevel(floor, granted) {
  if (granted === "off") return "off";
  return granted === "read-only" || floor === "read-only" ? "read-only" : "workspace";
}
function describeSandbox(level) {
  if (level === "read-only") return "the read-only sandbox: no file writes, no network";
  if (level === "workspace") return "the sandbox: writes only in the working tree and $TMPDIR, network only to allowed domains";
  return "no sandbox";
}
async function prepareCommand(command, ctx, paths2, opts) {
  const level = opts === false ? "off" : effectiveLevel(opts?.floor ?? "workspace", ctx.sandbox);
  const baseEnv = (extra) => childEnv({ pass: opts ? opts.passEnv : void 0, set: { ...NO_PROMPTS, ...extra } });
  if (level === "off" || opts === false) return { line: command, env: baseEnv({}), sandbox: "off", release: () => void 0 };
  const runtime = opts?.runtime ?? sharedSandboxRuntime();
  const status = await runtime.ready();
  if (!status.available) {
    if (ctx.sandbox) return { refused: `Bash did not run the command: it was approved to run in ${describeSandbox(level)}, and the sandbox is unavailable (${status.reason}).` };
    return { line: command, env: baseEnv({}), sandbox: "off", release: () => void 0 };
  }
  const tmpDir = join31(tmpdir2(), "fanout-sandbox", safeName(ctx.agentId));
  mkdirSync(tmpDir, { recursive: true });
  const policy = sandboxPolicy(level, { paths: paths2, tmpDir, allowedDomains: opts?.allowedDomains?.() ?? [], secretFiles: opts?.secretFiles });
  const wrapped = await runtime.wrap(command, policy, ctx.signal);
  const env = baseEnv(level === "read-only" ? READ_ONLY_GIT : {});
  return { line: wrapped.command, env, sandbox: level, release: wrapped.release };
}
var BLOCKED = /Read-only file system|Operation not permitted|Permission denied|Could not resolve host|Temporary failure in name resolution|Network is unreachable|Connection refused|blocked-by-sandbox-runtime|403 Forbidden/i;
function sandboxHint(level, output, failed) {
  if (level === "off" || !failed || !BLOCKED.test(output)) return null;
  return `(This command ran in ${describeSandbox(level)}. If it needs more, say so to the user; a command that must run outside the sandbox can be retried with dangerouslyDisableSandbox: true, which always needs the user's approval${level === "read-only" ? " and is not possible in plan mode or for read-only agents" : ""}.)`;
}

// src/main/runtime/tools/tool-options.ts
function pathPolicyOf(opts) {
  return opts.paths ?? new PathPolicy({ cwd: opts.cwd });
}

// src/main/runtime/tools/bash.ts
var BASH_DEFAULT_TIMEOUT_MS = 12e4;
var BASH_MAX_TIMEOUT_MS = 6e5;
var KILL_GRACE_MS = 2e3;
var PIPE_DRAIN_MS = 250;
var UPDATE_INTERVAL_MS = 100;
var schema = z11.object({
  command: z11.string().min(1).describe("The command to execute"),
  timeout: z11.number().int().min(1).max(BASH_MAX_TIMEOUT_MS).optional().describe(`Optional timeout in milliseconds (max ${BASH_MAX_TIMEOUT_MS}; default ${BASH_DEFAULT_TIMEOUT_MS})`),
  description: z11.string().optional().describe("A short description of what the command does, in 5-10 words"),
  run_in_background: z11.boolean().optional().describe("Run the command in the background and return at once; its output goes to a file you can Read"),
  dangerouslyDisableSandbox: z11.boolean().optional().describe("Run outside the sandbox. Only when a command failed because of the sandbox and truly needs more (network, writes outside the project); it always needs the user's approval")
});
function human(ms) {
  return ms % 6e4 === 0 ? `${ms / 6e4} minute${ms === 6e4 ? "" : "s"}` : `${(ms / 1e3).toFixed(ms % 1e3 ? 1 : 0)} s`;
}
function runForeground(command, prepared, cwd2, timeoutMs, ctx) {
  const started = Date.now();
  const capture = new OutputCapture();
  const child2 = spawn4("/bin/bash", ["-c", prepared.line], { cwd: cwd2, detached: true, stdio: ["ignore", "pipe", "pipe"], env: prepared.env });
  const pid = child2.pid;
  let timedOut = false;
  let aborted = false;
  let exitCode = null;
  let exitSignal = null;
  let spawnError = null;
  let lastUpdate = 0;
  let updateTimer = null;
  let killTimer = null;
  let drainTimer = null;
  const emitUpdate = () => {
    updateTimer = null;
    lastUpdate = Date.now();
    ctx.onUpdate?.({ kind: "bash_output", output: capture.recent(4e3), outputChars: capture.totalChars, elapsedMs: lastUpdate - started });
  };
  const scheduleUpdate = () => {
    if (!ctx.onUpdate || updateTimer) return;
    const wait = UPDATE_INTERVAL_MS - (Date.now() - lastUpdate);
    if (wait <= 0) emitUpdate();
    else updateTimer = setTimeout(emitUpdate, wait);
  };
  child2.stdout.on("data", (chunk) => (capture.push("stdout", chunk), scheduleUpdate()));
  child2.stderr.on("data", (chunk) => (capture.push("stderr", chunk), scheduleUpdate()));
  const terminate = () => {
    if (pid === void 0 || killTimer) return;
    killProcessGroup(pid, "SIGTERM");
    killTimer = setTimeout(() => killProcessGroup(pid, "SIGKILL"), KILL_GRACE_MS);
  };
  const timeoutTimer = setTimeout(() => {
    timedOut = true;
    terminate();
  }, timeoutMs);
  const onAbort = () => {
    aborted = true;
    terminate();
  };
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  return new Promise((resolve24) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      prepared.release();
      for (const t of [timeoutTimer, killTimer, drainTimer, updateTimer]) if (t) clearTimeout(t);
      ctx.signal.removeEventListener("abort", onAbort);
      capture.flush();
      const durationMs = Date.now() - started;
      const output = capture.text().replace(/\s+$/, "");
      const parts = output ? [output] : [];
      if (spawnError) parts.push(`Could not start bash: ${spawnError.message}`);
      else if (timedOut) parts.push(`Command timed out after ${human(timeoutMs)}; it and every process it started were killed.`);
      else if (aborted) parts.push("Command was stopped because the agent was interrupted; it and every process it started were killed.");
      else if (exitCode !== 0) parts.push(exitCode === null ? `Command was killed by signal ${exitSignal}.` : `Exit code ${exitCode}`);
      else if (!output) parts.push("(Command completed with no output)");
      const hint = sandboxHint(prepared.sandbox, output, exitCode !== 0);
      if (hint) parts.push(hint);
      const details = {
        command,
        exitCode,
        signal: exitSignal,
        durationMs,
        timedOut,
        aborted,
        outputChars: capture.totalChars,
        truncated: capture.truncated,
        pid,
        sandbox: prepared.sandbox
      };
      resolve24({ content: parts.join("\n"), isError: Boolean(spawnError) || timedOut || aborted || exitCode !== 0, details });
    };
    child2.on("error", (err) => {
      spawnError = err;
      finish();
    });
    child2.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      if ((timedOut || aborted) && pid !== void 0) killProcessGroup(pid, "SIGKILL");
      drainTimer = setTimeout(() => {
        child2.stdout.destroy();
        child2.stderr.destroy();
        finish();
      }, PIPE_DRAIN_MS);
    });
    child2.on("close", finish);
  });
}
function safeName2(s) {
  return s.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 80) || "x";
}
function runBackground(command, prepared, cwd2, ctx) {
  const dir = join32(tmpdir3(), "fanout-bash");
  mkdirSync2(dir, { recursive: true });
  const outputFile = join32(dir, `${safeName2(ctx.agentId)}-${safeName2(ctx.toolUseId)}.log`);
  const fd = openSync(outputFile, "a");
  const child2 = spawn4("/bin/bash", ["-c", prepared.line], { cwd: cwd2, detached: true, stdio: ["ignore", fd, fd], env: prepared.env });
  closeSync(fd);
  const pid = child2.pid;
  if (pid === void 0) {
    prepared.release();
    return { content: "Could not start bash in the background.", isError: true };
  }
  child2.unref();
  const untrack = trackBackgroundGroup(pid);
  const onAbort = () => void killProcessGroup(pid, "SIGTERM");
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  child2.on("exit", (code, signal) => {
    untrack();
    prepared.release();
    ctx.signal.removeEventListener("abort", onAbort);
    try {
      appendFileSync(outputFile, `
[fanout: command exited ${code === null ? `on signal ${signal}` : `with code ${code}`}]
`);
    } catch {
    }
  });
  return {
    content: [
      `Command is running in the background (process group ${pid}).`,
      `Its output is being written to: ${outputFile}`,
      `Read that file to check on it (a final "[fanout: command exited \u2026]" line appears when it ends). To stop it: kill -TERM -- -${pid}`
    ].join("\n"),
    details: { command, background: true, pid, outputFile, sandbox: prepared.sandbox }
  };
}
function createBashTool(opts) {
  const paths2 = pathPolicyOf(opts);
  return defineTool({
    name: "Bash",
    description: [
      `Executes a bash command in ${opts.cwd} and returns its combined stdout and stderr, then the exit code if non-zero.`,
      "Each call runs in a fresh shell in that directory: `cd` and variables do not carry over to the next call.",
      `Timeout in ms (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}); on timeout the command and all its child processes are killed.`,
      "There is no terminal and no stdin: avoid interactive commands. Long output is cut in the middle.",
      "Prefer Read, Glob, Grep, Edit and Write over cat, find, grep, sed and echo redirection.",
      "Commands run in an OS sandbox: writes only inside the working tree and $TMPDIR (none at all in plan mode), no network except allowed domains, and no credentials in the environment."
    ].join("\n"),
    schema,
    readOnly: false,
    maxOutputChars: 32e3,
    async execute(input, ctx) {
      const dir = await stat8(opts.cwd).catch(() => null);
      if (!dir?.isDirectory()) return { content: `The working directory ${opts.cwd} does not exist; the command was not run.`, isError: true };
      const prepared = await prepareCommand(input.command, ctx, paths2, opts.sandbox);
      if ("refused" in prepared) return { content: prepared.refused, isError: true };
      if (input.run_in_background) return runBackground(input.command, prepared, opts.cwd, ctx);
      return runForeground(input.command, prepared, opts.cwd, input.timeout ?? BASH_DEFAULT_TIMEOUT_MS, ctx);
    }
  });
}

// src/main/runtime/tools/edit.ts
import { readFile as readFile12, stat as stat12 } from "node:fs/promises";
import { z as z14 } from "zod";

// src/main/runtime/tools/file-state.ts
import { createHash as createHash3 } from "node:crypto";
import { readFile as readFile9, stat as stat9 } from "node:fs/promises";
function hashContent(content) {
  return createHash3("sha256").update(content).digest("hex");
}
var FileState = class {
  files = /* @__PURE__ */ new Map();
  /** Records the bytes this agent has seen (after a Read, or after it wrote the file itself). */
  record(absPath, content, mtimeMs) {
    const size2 = typeof content === "string" ? Buffer.byteLength(content) : content.length;
    this.files.set(absPath, { mtimeMs, size: size2, hash: hashContent(content) });
  }
  get(absPath) {
    return this.files.get(absPath);
  }
  has(absPath) {
    return this.files.has(absPath);
  }
  forget(absPath) {
    this.files.delete(absPath);
  }
  /**
   * Null when the agent may overwrite the file; otherwise a message the model can act on.
   * A file that does not exist may always be created. A touched-but-identical file is fine: only content counts.
   */
  async checkWritable(absPath, displayName = absPath) {
    let current;
    try {
      current = await stat9(absPath);
    } catch (err) {
      if (err.code === "ENOENT") return null;
      throw err;
    }
    const seen = this.files.get(absPath);
    if (!seen) return `${displayName} already exists and has not been read yet. Read it first, then write or edit it.`;
    if (current.mtimeMs === seen.mtimeMs && current.size === seen.size) return null;
    const bytes = await readFile9(absPath);
    if (hashContent(bytes) === seen.hash) {
      this.files.set(absPath, { ...seen, mtimeMs: current.mtimeMs });
      return null;
    }
    return `${displayName} has been modified on disk since you last read it (by the user or another process). Read it again before changing it, so those changes are not lost.`;
  }
};

// src/main/runtime/tools/read.ts
import { readdir as readdir6, readFile as readFile10, stat as stat10 } from "node:fs/promises";
import { basename as basename3, dirname as dirname20, extname, join as join33 } from "node:path";
import { z as z12 } from "zod";
var READ_DEFAULT_LIMIT = 2e3;
var READ_MAX_LINE_CHARS = 2e3;
var READ_MAX_WHOLE_FILE_BYTES = 256 * 1024;
var READ_MAX_FILE_BYTES = 50 * 1024 * 1024;
var READ_MAX_OUTPUT_CHARS = 1e5;
var IMAGE_TYPES = { ".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".webp": "WebP", ".bmp": "BMP", ".ico": "ICO" };
var schema2 = z12.object({
  file_path: z12.string().min(1).describe("The path of the file to read (absolute, or relative to the working directory)"),
  offset: z12.number().int().min(1).optional().describe("The line number to start reading from (1-based). Use with limit for large files"),
  limit: z12.number().int().min(1).optional().describe(`The number of lines to read (default ${READ_DEFAULT_LIMIT})`)
});
function kb2(bytes) {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}
function binaryKind(path, head) {
  const ext = extname(path).toLowerCase();
  if (IMAGE_TYPES[ext]) return `a ${IMAGE_TYPES[ext]} image`;
  if (head.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))) return "a PNG image";
  if (head[0] === 255 && head[1] === 216 && head[2] === 255) return "a JPEG image";
  if (head.subarray(0, 4).toString("latin1") === "%PDF") return "a PDF document";
  if (head.subarray(0, 6).toString("latin1").startsWith("GIF8")) return "a GIF image";
  const probe = head.subarray(0, 8e3);
  if (probe.length >= 2 && (probe[0] === 255 && probe[1] === 254 || probe[0] === 254 && probe[1] === 255)) return null;
  return probe.includes(0) ? "a binary file" : null;
}
function decode(bytes) {
  if (bytes[0] === 255 && bytes[1] === 254) return bytes.subarray(2).toString("utf16le");
  if (bytes[0] === 239 && bytes[1] === 187 && bytes[2] === 191) return bytes.subarray(3).toString("utf8");
  return bytes.toString("utf8");
}
async function notFoundMessage(abs, shown2, cwd2) {
  let hint = "";
  try {
    const stem = basename3(abs, extname(abs)).toLowerCase();
    const siblings = (await readdir6(dirname20(abs))).filter((n) => basename3(n, extname(n)).toLowerCase() === stem);
    if (siblings.length) hint = ` Did you mean ${siblings.slice(0, 3).map((n) => join33(dirname20(shown2), n)).join(", ")}?`;
  } catch {
  }
  return `File does not exist: ${shown2}.${hint} (Working directory: ${cwd2})`;
}
function numberLine(line2, lineNumber) {
  const text2 = line2.length > READ_MAX_LINE_CHARS ? `${line2.slice(0, READ_MAX_LINE_CHARS)}\u2026 [line cut: ${line2.length} characters]` : line2;
  return `${String(lineNumber).padStart(6)}	${text2}`;
}
function numberLines(lines2, first, budget) {
  const out = [];
  let used = 0;
  for (let i = 0; i < lines2.length; i++) {
    const row = numberLine(lines2[i], first + i);
    if (out.length > 0 && used + row.length + 1 > budget) break;
    out.push(row);
    used += row.length + 1;
  }
  return { text: out.join("\n"), count: out.length };
}
function createReadTool(opts) {
  const fileState = opts.fileState ?? new FileState();
  const paths2 = pathPolicyOf(opts);
  return defineTool({
    name: "Read",
    description: [
      "Reads a file from the local filesystem and returns its lines numbered like `cat -n` (number, tab, text).",
      `Paths may be absolute or relative to the working directory (${opts.cwd}).`,
      `By default up to ${READ_DEFAULT_LIMIT} lines from the start; use offset and limit for long files. Lines longer than ${READ_MAX_LINE_CHARS} characters are cut.`,
      "The line-number prefix is not part of the file: leave it out of Edit old_string.",
      "Read a file before you Write over it or Edit it. It cannot read directories (use Glob or Bash ls) or show images."
    ].join("\n"),
    schema: schema2,
    readOnly: true,
    maxOutputChars: READ_MAX_OUTPUT_CHARS + 500,
    async execute(input) {
      const abs = resolveToolPath(opts.cwd, input.file_path);
      const shown2 = displayPath(opts.cwd, abs);
      const refused = paths2.check("Read", abs, "read");
      if (refused) return { content: refused, isError: true };
      let info;
      try {
        info = await stat10(abs);
      } catch (err) {
        if (err.code === "ENOENT") return { content: await notFoundMessage(abs, shown2, opts.cwd), isError: true };
        throw err;
      }
      if (info.isDirectory())
        return { content: `${shown2} is a directory, not a file. Use Glob (e.g. pattern "*" with path "${shown2}") or Bash ls to list it.`, isError: true };
      if (info.size > READ_MAX_FILE_BYTES)
        return { content: `${shown2} is ${(info.size / 1048576).toFixed(1)} MB, too large to read. Use Grep to search it, or Bash (head, sed -n) to look at parts.`, isError: true };
      const ranged = input.offset !== void 0 || input.limit !== void 0;
      if (!ranged && info.size > READ_MAX_WHOLE_FILE_BYTES)
        return {
          content: `${shown2} is ${kb2(info.size)}, more than ${kb2(READ_MAX_WHOLE_FILE_BYTES)}. Read part of it with offset and limit (e.g. offset 1, limit 500), or use Grep to find what you need.`,
          isError: true
        };
      const bytes = await readFile10(abs);
      const kind = binaryKind(abs, bytes);
      if (kind)
        return {
          content: `${shown2} is ${kind} (${kb2(bytes.length)}). Read returns text only; use Bash (e.g. file, xxd | head) to inspect it.`,
          isError: true,
          details: { filePath: abs, binary: kind, bytes: bytes.length }
        };
      fileState.record(abs, bytes, info.mtimeMs);
      const text2 = decode(bytes);
      const lines2 = text2.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
      if (lines2.length > 1 && lines2[lines2.length - 1] === "") lines2.pop();
      const totalLines = text2 === "" ? 0 : lines2.length;
      if (totalLines === 0) return { content: `${shown2} exists but is empty (0 lines).`, details: { filePath: abs, totalLines: 0 } };
      const start = input.offset ?? 1;
      if (start > totalLines)
        return {
          content: `${shown2} has ${totalLines} line${totalLines === 1 ? "" : "s"}; offset ${start} is past the end. Use an offset from 1 to ${totalLines}.`,
          details: { filePath: abs, totalLines }
        };
      const limit = input.limit ?? READ_DEFAULT_LIMIT;
      const numbered = numberLines(lines2.slice(start - 1, start - 1 + limit), start, READ_MAX_OUTPUT_CHARS);
      const end = start + numbered.count - 1;
      let content = numbered.text;
      const more = end < totalLines;
      if (more) content += `

[Showing lines ${start}-${end} of ${totalLines}. Use offset ${end + 1} to read more.]`;
      return { content, details: { filePath: abs, startLine: start, endLine: end, totalLines, truncated: more } };
    }
  });
}

// src/main/runtime/tools/text-patch.ts
var MAX_DETAIL_LINES = 400;
function lineCounter(text2) {
  let pos = 0;
  let line2 = 0;
  return (offset) => {
    for (let i = text2.indexOf("\n", pos); i !== -1 && i < offset; i = text2.indexOf("\n", i + 1)) {
      line2++;
      pos = i + 1;
    }
    return line2;
  };
}
function toChanges(before, replacements) {
  const sorted = [...replacements].sort((a, b) => a.index - b.index);
  const changes = [];
  const lineIndexAt = lineCounter(before);
  let lineDelta = 0;
  let i = 0;
  while (i < sorted.length) {
    const regionStart = before.lastIndexOf("\n", sorted[i].index - 1) + 1;
    let regionEnd = before.indexOf("\n", sorted[i].index + sorted[i].oldText.length);
    if (regionEnd === -1) regionEnd = before.length;
    let j = i + 1;
    while (j < sorted.length && sorted[j].index <= regionEnd) {
      const end = before.indexOf("\n", sorted[j].index + sorted[j].oldText.length);
      regionEnd = end === -1 ? before.length : end;
      j++;
    }
    let newRegion = "";
    let cursor = regionStart;
    for (const r of sorted.slice(i, j)) {
      newRegion += before.slice(cursor, r.index) + r.newText;
      cursor = r.index + r.oldText.length;
    }
    newRegion += before.slice(cursor, regionEnd);
    const oldLines = before.slice(regionStart, regionEnd).split("\n");
    const newLines = newRegion.split("\n");
    if (regionEnd === before.length) {
      if (oldLines[oldLines.length - 1] === "") oldLines.pop();
      if (newLines[newLines.length - 1] === "") newLines.pop();
    }
    let start = lineIndexAt(regionStart);
    while (oldLines.length && newLines.length && oldLines[0] === newLines[0]) {
      oldLines.shift();
      newLines.shift();
      start++;
    }
    while (oldLines.length && newLines.length && oldLines[oldLines.length - 1] === newLines[newLines.length - 1]) {
      oldLines.pop();
      newLines.pop();
    }
    if (oldLines.length || newLines.length) {
      changes.push({ oldStart: start, oldLines, newStart: start + lineDelta, newLines });
      lineDelta += newLines.length - oldLines.length;
    }
    i = j;
  }
  return changes;
}
function patchFromReplacements(before, replacements, context = 3) {
  const oldAll = before.split("\n");
  const lastRealLine = before.endsWith("\n") ? oldAll.length - 1 : oldAll.length;
  const changes = toChanges(before, replacements);
  const hunks = [];
  let additions = 0;
  let deletions = 0;
  let budget = MAX_DETAIL_LINES;
  let truncated = false;
  const push = (hunk, line2) => {
    if (line2[0] !== "+") hunk.oldLines++;
    if (line2[0] !== "-") hunk.newLines++;
    if (budget-- > 0) hunk.lines.push(line2);
    else truncated = true;
  };
  let k = 0;
  while (k < changes.length) {
    let last = k;
    while (last + 1 < changes.length && changes[last + 1].oldStart - (changes[last].oldStart + changes[last].oldLines.length) <= 2 * context) last++;
    const first = changes[k];
    const ctxStart = Math.max(0, first.oldStart - context);
    const hunk = { oldStart: ctxStart + 1, oldLines: 0, newStart: first.newStart - (first.oldStart - ctxStart) + 1, newLines: 0, lines: [] };
    let cursor = ctxStart;
    for (const c of changes.slice(k, last + 1)) {
      for (; cursor < c.oldStart; cursor++) push(hunk, ` ${oldAll[cursor]}`);
      for (const l of c.oldLines) push(hunk, `-${l}`);
      for (const l of c.newLines) push(hunk, `+${l}`);
      deletions += c.oldLines.length;
      additions += c.newLines.length;
      cursor = c.oldStart + c.oldLines.length;
    }
    const ctxEnd = Math.min(lastRealLine, cursor + context);
    for (; cursor < ctxEnd; cursor++) push(hunk, ` ${oldAll[cursor]}`);
    if (hunk.oldLines === 0) hunk.oldStart--;
    if (hunk.newLines === 0) hunk.newStart--;
    hunks.push(hunk);
    k = last + 1;
  }
  return { hunks, additions, deletions, truncated };
}
function patchFromTexts(before, after, context = 3) {
  if (before === "") {
    const lines2 = after.split("\n");
    if (after.endsWith("\n")) lines2.pop();
    const shown2 = lines2.slice(0, MAX_DETAIL_LINES).map((l) => `+${l}`);
    const hunks = lines2.length ? [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines2.length, lines: shown2 }] : [];
    return { hunks, additions: lines2.length, deletions: 0, truncated: lines2.length > MAX_DETAIL_LINES };
  }
  let head = 0;
  const max = Math.min(before.length, after.length);
  while (head < max && before[head] === after[head]) head++;
  let tail2 = 0;
  while (tail2 < max - head && before[before.length - 1 - tail2] === after[after.length - 1 - tail2]) tail2++;
  return patchFromReplacements(before, [{ index: head, oldText: before.slice(head, before.length - tail2), newText: after.slice(head, after.length - tail2) }], context);
}

// src/main/runtime/tools/write.ts
import { mkdir as mkdir8, readFile as readFile11, stat as stat11, writeFile as writeFile4 } from "node:fs/promises";
import { dirname as dirname21 } from "node:path";
import { z as z13 } from "zod";
var schema3 = z13.object({
  file_path: z13.string().min(1).describe("The path of the file to write (absolute, or relative to the working directory)"),
  content: z13.string().describe("The full content to write to the file")
});
async function writeAndRecord(fileState, abs, content) {
  await mkdir8(dirname21(abs), { recursive: true });
  await writeFile4(abs, content, "utf8");
  const info = await stat11(abs);
  fileState.record(abs, content, info.mtimeMs);
}
function createWriteTool(opts) {
  const fileState = opts.fileState ?? new FileState();
  const paths2 = pathPolicyOf(opts);
  return defineTool({
    name: "Write",
    description: [
      "Writes a file to the local filesystem, creating parent directories as needed.",
      "Overwriting an existing file requires that you Read it first in this conversation; prefer Edit for changes to existing files.",
      `Paths may be absolute or relative to the working directory (${opts.cwd}).`
    ].join("\n"),
    schema: schema3,
    readOnly: false,
    async execute(input) {
      const abs = resolveToolPath(opts.cwd, input.file_path);
      const shown2 = displayPath(opts.cwd, abs);
      const refused = paths2.check("Write", abs, "write");
      if (refused) return { content: refused, isError: true };
      const existing = await stat11(abs).catch(() => null);
      if (existing?.isDirectory()) return { content: `${shown2} is a directory; give the path of a file inside it.`, isError: true };
      const refusal2 = await fileState.checkWritable(abs, shown2);
      if (refusal2) return { content: refusal2, isError: true };
      const before = existing ? await readFile11(abs, "utf8") : "";
      await writeAndRecord(fileState, abs, input.content);
      const lines2 = input.content === "" ? 0 : input.content.split("\n").length - (input.content.endsWith("\n") ? 1 : 0);
      const patch = patchFromTexts(before, input.content);
      const kind = existing ? "update" : "create";
      const content = kind === "create" ? `File created successfully at: ${shown2} (${lines2} line${lines2 === 1 ? "" : "s"})` : `The file ${shown2} has been overwritten (${lines2} line${lines2 === 1 ? "" : "s"}; +${patch.additions} -${patch.deletions}).`;
      return { content, details: { filePath: abs, kind, lines: lines2, bytes: Buffer.byteLength(input.content), patch } };
    }
  });
}

// src/main/runtime/tools/edit.ts
var schema4 = z14.object({
  file_path: z14.string().min(1).describe("The path of the file to modify (absolute, or relative to the working directory)"),
  old_string: z14.string().describe("The exact text to replace (must match the file, including whitespace and indentation)"),
  new_string: z14.string().describe("The text to replace it with (must differ from old_string)"),
  replace_all: z14.boolean().optional().default(false).describe("Replace every occurrence of old_string (default false)")
});
function findAll(haystack, needle) {
  const out = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}
function lineOf(text2, offset) {
  let n = 1;
  for (let i = text2.indexOf("\n"); i !== -1 && i < offset; i = text2.indexOf("\n", i + 1)) n++;
  return n;
}
var LINE_PREFIX = /^\s*\d+\t/;
function notFoundHint(content, oldString) {
  const lines2 = oldString.split("\n");
  if (lines2.some((l) => LINE_PREFIX.test(l)) && lines2.every((l) => l === "" || LINE_PREFIX.test(l))) {
    const stripped = lines2.map((l) => l.replace(LINE_PREFIX, "")).join("\n");
    return content.includes(stripped) ? " old_string includes the line-number prefixes Read shows (number and tab); without them it matches, so remove them." : " old_string seems to include the line-number prefixes Read shows (number and tab); remove them and copy the text exactly.";
  }
  const firstLine2 = lines2.find((l) => l.trim() !== "")?.trim();
  if (firstLine2 && content.includes(firstLine2))
    return ` Its first line "${firstLine2.slice(0, 80)}" does occur (line ${lineOf(content, content.indexOf(firstLine2))}); the difference is in the lines after it or in whitespace. Read that part again and copy it exactly.`;
  return " Read the file again and copy the text exactly, including whitespace and indentation.";
}
function snippet(after, hunk) {
  if (!hunk) return "";
  const lines2 = after.split("\n");
  const start = Math.max(1, hunk.newStart);
  const end = Math.min(lines2.length, start + Math.min(hunk.newLines, 30) - 1);
  const rows = [];
  for (let n = start; n <= end; n++) rows.push(numberLine(lines2[n - 1], n));
  return rows.length ? `
Here is the edited part of the file:
${rows.join("\n")}` : "";
}
function createEditTool(opts) {
  const fileState = opts.fileState ?? new FileState();
  const paths2 = pathPolicyOf(opts);
  return defineTool({
    name: "Edit",
    description: [
      "Performs an exact string replacement in a file. Read the file first in this conversation.",
      "old_string must match the file exactly (whitespace and indentation included; never the line-number prefix Read shows) and be unique in the file,",
      "unless replace_all is true. Add surrounding lines to old_string to make it unique.",
      "An empty old_string on a missing (or empty) file creates it with new_string."
    ].join("\n"),
    schema: schema4,
    readOnly: false,
    async execute(input) {
      const abs = resolveToolPath(opts.cwd, input.file_path);
      const shown2 = displayPath(opts.cwd, abs);
      const refused = paths2.check("Edit", abs, "write") ?? paths2.check("Edit", abs, "read");
      if (refused) return { content: refused, isError: true };
      if (input.old_string === input.new_string)
        return { content: "No changes to make: old_string and new_string are exactly the same.", isError: true };
      const info = await stat12(abs).catch(() => null);
      if (info?.isDirectory()) return { content: `${shown2} is a directory, not a file.`, isError: true };
      if (!info) {
        if (input.old_string !== "") return { content: `File does not exist: ${shown2}. To create it, use Write (or Edit with an empty old_string).`, isError: true };
        await writeAndRecord(fileState, abs, input.new_string);
        const patch2 = patchFromReplacements("", [{ index: 0, oldText: "", newText: input.new_string }]);
        return { content: `Created ${shown2}.`, details: { filePath: abs, created: true, replacements: 1, ...patch2 } };
      }
      const refusal2 = await fileState.checkWritable(abs, shown2);
      if (refusal2) return { content: refusal2, isError: true };
      const before = await readFile12(abs, "utf8");
      let oldString = input.old_string;
      let newString = input.new_string;
      let matches2;
      if (oldString === "") {
        if (before.trim() !== "")
          return { content: `old_string is empty but ${shown2} already has content. Give the exact text to replace, or use Write to replace the whole file.`, isError: true };
        oldString = before;
        matches2 = [0];
      } else matches2 = findAll(before, oldString);
      if (matches2.length === 0 && before.includes("\r\n") && oldString.includes("\n") && !oldString.includes("\r")) {
        oldString = oldString.replace(/\n/g, "\r\n");
        newString = newString.replace(/\r?\n/g, "\r\n");
        matches2 = findAll(before, oldString);
      }
      if (matches2.length === 0)
        return { content: `old_string was not found in ${shown2}.${notFoundHint(before, input.old_string)}`, isError: true };
      if (matches2.length > 1 && !input.replace_all) {
        const where = matches2.slice(0, 10).map((m) => lineOf(before, m));
        return {
          content: `Found ${matches2.length} matches of old_string in ${shown2} (at lines ${where.join(", ")}${matches2.length > 10 ? ", \u2026" : ""}), but replace_all is false. Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to replace all ${matches2.length}.`,
          isError: true
        };
      }
      const replacements = matches2.map((index) => ({ index, oldText: oldString, newText: newString }));
      let after = "";
      let cursor = 0;
      for (const r of replacements) {
        after += before.slice(cursor, r.index) + r.newText;
        cursor = r.index + r.oldText.length;
      }
      after += before.slice(cursor);
      await writeAndRecord(fileState, abs, after);
      const patch = patchFromReplacements(before, replacements);
      const count = replacements.length;
      return {
        content: `The file ${shown2} has been updated (${count} replacement${count === 1 ? "" : "s"}; +${patch.additions} -${patch.deletions}).${snippet(after, patch.hunks[0])}`,
        details: { filePath: abs, replacements: count, ...patch }
      };
    }
  });
}

// src/main/runtime/tools/glob.ts
import { statSync as statSync4 } from "node:fs";
import { isAbsolute as isAbsolute11, join as join37, resolve as resolve23 } from "node:path";
import { z as z15 } from "zod";

// src/main/runtime/tools/ignore-rules.ts
import { existsSync as existsSync10, readFileSync as readFileSync6 } from "node:fs";
import { dirname as dirname22, join as join34, relative as relative7 } from "node:path";
function parseIgnoreFile(text2) {
  const rules = [];
  for (const raw of text2.split(/\r?\n/)) {
    const line2 = raw.replace(/(?<!\\)\s+$/, "");
    if (!line2 || line2.startsWith("#")) continue;
    try {
      rules.push(compileGlob(line2));
    } catch {
    }
  }
  return rules;
}
function readRules(file) {
  if (!existsSync10(file)) return [];
  try {
    return parseIgnoreFile(readFileSync6(file, "utf8"));
  } catch {
    return [];
  }
}
function loadDir(dir) {
  const hasGit = existsSync10(join34(dir, ".git"));
  const frame = {
    dir,
    hasGit,
    rgignore: readRules(join34(dir, ".rgignore")),
    ignore: readRules(join34(dir, ".ignore")),
    gitignore: readRules(join34(dir, ".gitignore")),
    exclude: hasGit ? readRules(join34(dir, ".git", "info", "exclude")) : []
  };
  return hasGit || frame.rgignore.length || frame.ignore.length || frame.gitignore.length ? frame : null;
}
function decide(rules, rel, isDir) {
  for (let i = rules.length - 1; i >= 0; i--) if (matchGlob(rules[i], rel, isDir)) return !rules[i].negated;
  return void 0;
}
var IgnoreStack = class _IgnoreStack {
  /** Deepest first. */
  constructor(frames) {
    this.frames = frames;
  }
  frames;
  /** Starts at `root`, with the ignore files of every directory above it (as rg reads its parents'). */
  static forRoot(root2) {
    const frames = [];
    for (let dir = root2; ; ) {
      const f = loadDir(dir);
      if (f) frames.push(f);
      const up = dirname22(dir);
      if (up === dir) break;
      dir = up;
    }
    return new _IgnoreStack(frames);
  }
  /** The stack for a subdirectory: this one plus the subdirectory's own ignore files. */
  descend(dir) {
    const own = loadDir(dir);
    return own ? new _IgnoreStack([own, ...this.frames]) : this;
  }
  ignores(absPath, isDir) {
    let rg3;
    let ig;
    let gi;
    let ex;
    let sawGit = false;
    for (const f of this.frames) {
      const rel = toPosix(relative7(f.dir, absPath));
      if (rel === "" || rel.startsWith("..")) continue;
      rg3 ??= decide(f.rgignore, rel, isDir);
      ig ??= decide(f.ignore, rel, isDir);
      if (!sawGit) {
        gi ??= decide(f.gitignore, rel, isDir);
        ex ??= decide(f.exclude, rel, isDir);
      }
      sawGit ||= f.hasGit;
    }
    return rg3 ?? ig ?? gi ?? ex ?? false;
  }
};
var OverrideGlobs = class {
  globs;
  hasWhitelist;
  constructor(patterns) {
    this.globs = patterns.map((p) => compileGlob(p));
    this.hasWhitelist = this.globs.some((g) => !g.negated);
  }
  get empty() {
    return this.globs.length === 0;
  }
  match(relPath, isDir) {
    for (let i = this.globs.length - 1; i >= 0; i--) {
      const g = this.globs[i];
      if (matchGlob(g, relPath, isDir)) return g.negated ? "ignore" : "whitelist";
    }
    return this.hasWhitelist && !isDir ? "ignore" : "none";
  }
};

// src/main/runtime/tools/file-walk.ts
import { readdir as readdir7 } from "node:fs/promises";
import { join as join35 } from "node:path";
async function walkTree(opts) {
  const out = [];
  const overrides = opts.overrides ?? new OverrideGlobs([]);
  let seen = 0;
  let complete = true;
  const visit2 = async (dir, rel, ignore) => {
    if (opts.signal?.aborted) throw new Error("aborted");
    if (!complete || opts.maxFiles !== void 0 && out.length >= opts.maxFiles) return;
    let entries;
    try {
      entries = await readdir7(dir, { withFileTypes: true });
    } catch {
      return;
    }
    seen += entries.length;
    if (opts.maxEntries !== void 0 && seen > opts.maxEntries) {
      complete = false;
      return;
    }
    const subdirs = [];
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const isDir = entry.isDirectory();
      if (!isDir && !entry.isFile()) continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = join35(dir, entry.name);
      const override = overrides.match(childRel, isDir);
      if (override === "ignore") continue;
      if (override === "none" && ignore.ignores(childAbs, isDir)) continue;
      if (isDir) subdirs.push(visit2(childAbs, childRel, ignore.descend(childAbs)));
      else if (!opts.accept || opts.accept(childRel)) out.push(childRel);
    }
    await Promise.all(subdirs);
  };
  await visit2(opts.root, "", IgnoreStack.forRoot(opts.root));
  return { files: out, complete };
}
async function walkFiles(opts) {
  return (await walkTree(opts)).files;
}

// src/main/runtime/tools/ripgrep.ts
init_child_env();
import { spawn as spawn5 } from "node:child_process";
import { accessSync as accessSync2, constants as constants2 } from "node:fs";
import { delimiter as delimiter2, join as join36 } from "node:path";
var cached;
function findRipgrep() {
  if (cached !== void 0) return cached;
  cached = null;
  for (const dir of (process.env.PATH ?? "").split(delimiter2)) {
    if (!dir) continue;
    const candidate = join36(dir, process.platform === "win32" ? "rg.exe" : "rg");
    try {
      accessSync2(candidate, constants2.X_OK);
      cached = candidate;
      break;
    } catch {
    }
  }
  return cached;
}
function ripgrepPath(option) {
  if (option === false) return null;
  return option ?? findRipgrep();
}
function runRipgrep(rg3, args, opts) {
  const sep2 = opts.separator ?? "\n";
  return new Promise((resolve24, reject) => {
    const child2 = spawn5(rg3, args, { cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"], env: childEnv() });
    let stderr = "";
    let pending = "";
    let stopped = false;
    const stop = () => {
      stopped = true;
      child2.kill("SIGKILL");
    };
    const onAbort = () => stop();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child2.stdout.setEncoding("utf8");
    child2.stdout.on("data", (chunk) => {
      if (stopped) return;
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf(sep2)) >= 0) {
        const line2 = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (opts.onLine(line2) === false) {
          stop();
          return;
        }
      }
    });
    child2.stderr.setEncoding("utf8");
    child2.stderr.on("data", (chunk) => {
      if (stderr.length < 1e4) stderr += chunk;
    });
    child2.on("error", (err) => {
      opts.signal?.removeEventListener("abort", onAbort);
      reject(err);
    });
    child2.on("close", (code) => {
      opts.signal?.removeEventListener("abort", onAbort);
      if (!stopped && pending) opts.onLine(pending);
      if (opts.signal?.aborted) reject(new Error("aborted"));
      else resolve24({ code: stopped ? 0 : code, stderr: stderr.trim() });
    });
  });
}

// src/main/runtime/tools/search-engine.ts
var IN_PROCESS_SEARCH_UP_TO = 1500;
var LARGE_FOR_MS = 6e4;
var large = /* @__PURE__ */ new Map();
function knownLarge(root2) {
  const at = large.get(root2);
  if (at === void 0) return false;
  if (Date.now() - at < LARGE_FOR_MS) return true;
  large.delete(root2);
  return false;
}
async function smallTreeFiles(opts) {
  if (opts.upTo <= 0 || knownLarge(opts.root)) return null;
  const walk = await walkTree({ ...opts, maxEntries: opts.upTo });
  if (walk.complete) return walk.files;
  if (large.size > 1e3) large.clear();
  large.set(opts.root, Date.now());
  return null;
}

// src/main/runtime/tools/list-files.ts
var RG_BASE_ARGS = ["--no-config", "--hidden", "--no-require-git"];
var LIST_FILES_CAP = 25e4;
async function listFiles(root2, rg3, signal, upTo = IN_PROCESS_SEARCH_UP_TO) {
  const overrides = new OverrideGlobs(["!.git"]);
  if (!rg3) return { files: await walkFiles({ root: root2, overrides, signal, maxFiles: LIST_FILES_CAP }), engine: "js" };
  const small = await smallTreeFiles({ root: root2, overrides, signal, upTo });
  if (small) return { files: small, engine: "js" };
  const files = [];
  const run = await runRipgrep(rg3, ["--files", "--null", ...RG_BASE_ARGS, "--glob", "!.git", "--", "."], {
    cwd: root2,
    signal,
    separator: "\0",
    onLine: (line2) => {
      if (line2) files.push(line2.startsWith("./") ? line2.slice(2) : line2);
      return files.length < LIST_FILES_CAP;
    }
  });
  if (run.code === 2 && files.length === 0) throw new Error(`ripgrep failed: ${run.stderr || "unknown error"}`);
  return { files, engine: "rg" };
}

// src/main/runtime/tools/glob.ts
var GLOB_MAX_RESULTS = 100;
var schema5 = z15.object({
  pattern: z15.string().min(1).describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/*.{ts,tsx}"'),
  path: z15.string().optional().describe('The directory to search in (default: the working directory). Omit it rather than passing "undefined" or "null"')
});
var STAT_BATCH = 512;
function statOrNull(path) {
  try {
    return statSync4(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
var mtimeOf = (path) => statOrNull(path)?.mtimeMs ?? 0;
async function sortByMtime(root2, rels) {
  const withTime = [];
  for (let i = 0; i < rels.length; i++) {
    if (i > 0 && i % STAT_BATCH === 0) await new Promise((r) => setImmediate(r));
    const rel = rels[i];
    withTime.push({ rel, mtime: mtimeOf(join37(root2, rel)) });
  }
  withTime.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return withTime.map((x) => x.rel);
}
function createGlobTool(opts) {
  const paths2 = pathPolicyOf(opts);
  return defineTool({
    name: "Glob",
    description: [
      "Fast file pattern matching. Returns matching file paths, most recently modified first.",
      'Patterns: "**/*.ts" (any depth), "src/**/*.{ts,tsx}", "*.md" (a pattern without "/" matches names at any depth), "src/*.ts" (anchored).',
      `Files ignored by .gitignore are skipped. At most ${GLOB_MAX_RESULTS} results; narrow the pattern or path if truncated.`
    ].join("\n"),
    schema: schema5,
    readOnly: true,
    async execute(input, ctx) {
      const searchDir = resolveToolPath(opts.cwd, input.path ?? ".");
      const info = statOrNull(searchDir);
      if (!info) return { content: `Directory does not exist: ${displayPath(opts.cwd, searchDir)} (working directory: ${opts.cwd}).`, isError: true };
      if (!info.isDirectory()) return { content: `path must be a directory, but ${displayPath(opts.cwd, searchDir)} is a file. Use Read for a single file.`, isError: true };
      let pattern = input.pattern.trim();
      if (pattern.startsWith("~/")) pattern = resolveToolPath(opts.cwd, pattern);
      const { base, rest } = splitGlobBase(pattern);
      const root2 = isAbsolute11(pattern) ? resolve23(base) : resolve23(searchDir, base);
      let glob;
      try {
        glob = compileGlob(rest);
      } catch (err) {
        if (err instanceof GlobSyntaxError) return { content: `Invalid glob pattern "${input.pattern}": ${err.message}.`, isError: true };
        throw err;
      }
      const refused = paths2.check("Glob", root2, "read");
      if (refused) return { content: refused, isError: true };
      const rootInfo = statOrNull(root2);
      const rg3 = ripgrepPath(opts.ripgrep);
      const listed = rootInfo?.isDirectory() ? await listFiles(root2, rg3, ctx.signal, opts.inProcessSearchUpTo) : { files: [], engine: rg3 && opts.inProcessSearchUpTo === 0 ? "rg" : "js" };
      const all2 = listed.files;
      const visible = paths2.searchFilter(root2, "Glob");
      const matched = await sortByMtime(root2, all2.filter((rel) => matchGlob(glob, rel) && visible(join37(root2, rel))));
      const shown2 = matched.slice(0, GLOB_MAX_RESULTS).map((rel) => displayPath(opts.cwd, join37(root2, rel)));
      const details = { pattern: input.pattern, root: root2, total: matched.length, truncated: matched.length > GLOB_MAX_RESULTS, engine: listed.engine };
      if (matched.length === 0) return { content: `No files found matching "${input.pattern}" in ${displayPath(opts.cwd, root2)}.`, details };
      const note = matched.length > GLOB_MAX_RESULTS ? `
(Results are truncated: showing ${GLOB_MAX_RESULTS} of ${matched.length}. Use a more specific pattern or path.)` : "";
      return { content: shown2.join("\n") + note, details };
    }
  });
}

// src/main/runtime/tools/grep.ts
import { stat as stat14 } from "node:fs/promises";
import { z as z16 } from "zod";

// src/main/runtime/tools/grep-search.ts
import { readFile as readFile13, stat as stat13 } from "node:fs/promises";
import { basename as basename4, dirname as dirname23, join as join38 } from "node:path";

// src/main/runtime/tools/grep-types.ts
var RG_TYPES = {
  asciidoc: ["*.adoc", "*.asc", "*.asciidoc"],
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  clojure: ["*.clj", "*.cljc", "*.cljs", "*.cljx"],
  cmake: ["*.cmake", "CMakeLists.txt"],
  config: ["*.cfg", "*.conf", "*.config", "*.ini"],
  cpp: ["*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"],
  csharp: ["*.cs"],
  css: ["*.css", "*.scss"],
  csv: ["*.csv"],
  dart: ["*.dart"],
  docker: ["*Dockerfile*"],
  elixir: ["*.eex", "*.ex", "*.exs"],
  erlang: ["*.erl", "*.hrl"],
  fsharp: ["*.fs", "*.fsi", "*.fsx"],
  go: ["*.go"],
  gradle: ["*.gradle"],
  groovy: ["*.gradle", "*.groovy"],
  h: ["*.h", "*.hpp"],
  haskell: ["*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"],
  html: ["*.ejs", "*.htm", "*.html"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  js: ["*.js", "*.jsx", "*.vue"],
  json: ["*.json", "composer.lock"],
  jsonl: ["*.jsonl"],
  julia: ["*.jl"],
  kotlin: ["*.kt", "*.kts"],
  less: ["*.less"],
  lock: ["*.lock", "package-lock.json"],
  lua: ["*.lua"],
  make: ["*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"],
  markdown: ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  nix: ["*.nix"],
  objc: ["*.h", "*.m"],
  ocaml: ["*.ml", "*.mli", "*.mll", "*.mly"],
  perl: ["*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"],
  protobuf: ["*.proto"],
  py: ["*.py"],
  r: ["*.R", "*.Rmd", "*.Rnw", "*.r"],
  rst: ["*.rst"],
  ruby: ["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"],
  rust: ["*.rs"],
  sass: ["*.sass", "*.scss"],
  scala: ["*.sbt", "*.scala"],
  sh: ["*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login", "bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"],
  sql: ["*.psql", "*.sql"],
  svg: ["*.svg"],
  swift: ["*.swift"],
  tex: ["*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"],
  tf: ["*.tf"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx"],
  txt: ["*.txt"],
  vim: ["*.vim"],
  xml: ["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"],
  yaml: ["*.yaml", "*.yml"],
  zig: ["*.zig"]
};

// src/main/runtime/tools/rust-regex.ts
var WORD = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";
var BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`;
var NOT_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`;
var hex = (c) => `\\u{${c.codePointAt(0).toString(16)}}`;
var isAlnum = (c) => /^[A-Za-z0-9]$/.test(c);
function escape(p, i, inClass) {
  const c = p[i + 1];
  if (c === void 0) return null;
  switch (c) {
    case "d":
      return ["\\p{Nd}", i + 2];
    case "D":
      return ["\\P{Nd}", i + 2];
    case "s":
      return ["\\p{White_Space}", i + 2];
    case "S":
      return ["\\P{White_Space}", i + 2];
    case "w":
      return [inClass ? WORD : `[${WORD}]`, i + 2];
    case "W":
      return inClass ? null : [`[^${WORD}]`, i + 2];
    case "b":
      return inClass ? null : [BOUNDARY, i + 2];
    case "B":
      return inClass ? null : [NOT_BOUNDARY, i + 2];
    case "A":
      return inClass ? null : ["(?<![\\s\\S])", i + 2];
    case "z":
      return inClass ? null : ["(?![\\s\\S])", i + 2];
    case "n":
    case "t":
    case "r":
    case "f":
    case "v":
      return [`\\${c}`, i + 2];
    case "x": {
      const braced = /^\{([0-9A-Fa-f]{1,8})\}/.exec(p.slice(i + 2));
      if (braced) return [`\\u{${braced[1]}}`, i + 2 + braced[0].length];
      const two = /^[0-9A-Fa-f]{2}/.exec(p.slice(i + 2));
      return two ? [`\\x${two[0]}`, i + 4] : null;
    }
    case "p":
    case "P": {
      const braced = /^\{([A-Za-z_=]+)\}/.exec(p.slice(i + 2));
      if (braced) return [`\\${c}{${braced[1]}}`, i + 2 + braced[0].length];
      const one = p[i + 2];
      return one && /[A-Za-z]/.test(one) ? [`\\${c}{${one}}`, i + 3] : null;
    }
    default:
      if (isAlnum(c)) return null;
      return [hex(c), i + 2];
  }
}
function rustRegexSource(p, opts) {
  let out = "";
  let inClass = false;
  for (let i = 0; i < p.length; ) {
    const c = p[i];
    if (c === "\\") {
      const e = escape(p, i, inClass);
      if (!e) return null;
      out += e[0];
      i = e[1];
      continue;
    }
    if (inClass) {
      if (c === "[") return null;
      if ((c === "&" || c === "-" || c === "~") && p[i + 1] === c) return null;
      if (c === "]") inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += "[";
      i++;
      if (p[i] === "^") {
        out += "^";
        i++;
      }
      if (p[i] === "]") {
        out += "\\]";
        i++;
      }
      continue;
    }
    if (c === "(" && p[i + 1] === "?") {
      const rest = p.slice(i + 2);
      if (rest.startsWith(":")) {
        out += "(?:";
        i += 3;
      } else if (/^P?<[A-Za-z_][A-Za-z0-9_]*>/.test(rest)) {
        const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
        out += `(?<${named[1]}>`;
        i += 2 + named[0].length;
      } else return null;
      continue;
    }
    if (c === ".") out += opts.dotAll ? "[^]" : "[^\\n]";
    else if (c === "^") out += opts.multiLine ? "(?<![^\\n])" : "^";
    else if (c === "$") out += opts.multiLine ? "(?![^\\n])" : "$";
    else out += c;
    i++;
  }
  return inClass ? null : out;
}
function rustRegex(pattern, opts) {
  const source = rustRegexSource(pattern, { dotAll: opts.multiline, multiLine: opts.multiline });
  if (source === null) return null;
  try {
    return new RegExp(source, `u${opts.multiline ? "g" : ""}${opts.ignoreCase ? "i" : ""}`);
  } catch {
    return null;
  }
}

// src/main/runtime/tools/grep-search.ts
var GREP_MAX_COLLECTED_LINES = 2e4;
var GrepInputError = class extends Error {
};
function decodeField(field) {
  if (!field) return "";
  return field.text ?? Buffer.from(field.bytes ?? "", "base64").toString("utf8");
}
function stripEol(line2) {
  return line2.endsWith("\r") ? line2.slice(0, -1) : line2;
}
async function grepWithRipgrep(rg3, q) {
  const rootIsDir = (await stat13(q.root)).isDirectory();
  const cwd2 = rootIsDir ? q.root : dirname23(q.root);
  const target2 = rootIsDir ? "." : basename4(q.root);
  const args = [...RG_BASE_ARGS, ...q.globs.flatMap((g) => ["--glob", g]), "--glob", "!.git"];
  if (q.type) args.push("--type", q.type);
  args.push(q.ignoreCase ? "--ignore-case" : "--case-sensitive");
  if (q.multiline) args.push("--multiline", "--multiline-dotall");
  if (q.filesOnly) args.push("--files-with-matches", "--null");
  else args.push("--json", "--after-context", String(q.after), "--before-context", String(q.before));
  args.push("--regexp", q.pattern, "--", target2);
  const byPath2 = /* @__PURE__ */ new Map();
  let collected = 0;
  let capped = false;
  const abs = (p) => join38(cwd2, p.startsWith("./") ? p.slice(2) : p);
  const run = await runRipgrep(rg3, args, {
    cwd: cwd2,
    signal: q.signal,
    ...q.filesOnly ? { separator: "\0" } : {},
    onLine: (line2) => {
      if (!line2) return;
      if (q.filesOnly) {
        byPath2.set(abs(line2), { path: abs(line2), lines: [], matchLines: 0 });
        return ++collected < GREP_MAX_COLLECTED_LINES || (capped = true, false);
      }
      const msg = JSON.parse(line2);
      if (msg.type !== "match" && msg.type !== "context") return;
      const path = abs(decodeField(msg.data.path));
      let file = byPath2.get(path);
      if (!file) byPath2.set(path, file = { path, lines: [], matchLines: 0 });
      const text2 = decodeField(msg.data.lines);
      const parts = (text2.endsWith("\n") ? text2.slice(0, -1) : text2).split("\n");
      parts.forEach((part, i) => file.lines.push({ n: msg.data.line_number + i, text: stripEol(part), match: msg.type === "match" }));
      if (msg.type === "match") file.matchLines += parts.length;
      collected += parts.length;
      if (collected >= GREP_MAX_COLLECTED_LINES) {
        capped = true;
        return false;
      }
    }
  });
  if (run.code === 2 && byPath2.size === 0) {
    const reason = run.stderr.replace(/^rg: /gm, "").trim();
    throw new GrepInputError(reason.includes("regex") ? `Invalid regex pattern: ${reason}` : reason || "ripgrep failed");
  }
  return { files: [...byPath2.values()], capped };
}
function compileGrepRegex(pattern, ignoreCase, multiline) {
  const faithful = rustRegex(pattern, { ignoreCase, multiline });
  if (faithful) return faithful;
  const flags = `${multiline ? "gms" : ""}${ignoreCase ? "i" : ""}`;
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (err) {
      throw new GrepInputError(`Invalid regex pattern: ${err.message}`);
    }
  }
}
function typeFilter(type) {
  if (!type) return void 0;
  const globs = RG_TYPES[type];
  if (!globs) throw new GrepInputError(`unrecognized file type: ${type}. Known types include: ${Object.keys(RG_TYPES).join(", ")}.`);
  const compiled = globs.map((g) => compileGlob(g));
  return (rel) => compiled.some((g) => matchGlob(g, rel));
}
function withContext(lines2, matched, before, after) {
  const keep = /* @__PURE__ */ new Set();
  for (const n of matched) for (let k = Math.max(1, n - before); k <= Math.min(lines2.length, n + after); k++) keep.add(k);
  return [...keep].sort((a, b) => a - b).map((n) => ({ n, text: lines2[n - 1], match: matched.has(n) }));
}
function searchText(text2, regex, q) {
  const raw = text2.split("\n");
  if (raw.length > 0 && text2.endsWith("\n")) raw.pop();
  const lines2 = raw.map(stripEol);
  const matched = /* @__PURE__ */ new Set();
  if (!q.multiline) {
    raw.forEach((line2, i) => {
      if (regex.test(line2)) matched.add(i + 1);
    });
  } else {
    const starts = [0];
    for (let i = text2.indexOf("\n"); i !== -1; i = text2.indexOf("\n", i + 1)) starts.push(i + 1);
    const lineOf2 = (offset) => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = lo + hi + 1 >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo + 1;
    };
    regex.lastIndex = 0;
    for (let m = regex.exec(text2); m; m = regex.exec(text2)) {
      const first = lineOf2(m.index);
      const last = lineOf2(Math.max(m.index, m.index + m[0].length - 1));
      for (let n = first; n <= Math.min(last, lines2.length); n++) matched.add(n);
      if (m[0].length === 0) regex.lastIndex++;
    }
  }
  if (matched.size === 0) return null;
  return { lines: q.filesOnly ? [] : withContext(lines2, matched, q.before, q.after), matchLines: matched.size };
}
async function grepWithJs(q) {
  const regex = compileGrepRegex(q.pattern, q.ignoreCase, q.multiline);
  const accept = typeFilter(q.type);
  const rootIsDir = (await stat13(q.root)).isDirectory();
  const paths2 = rootIsDir ? (await walkFiles({ root: q.root, overrides: new OverrideGlobs([...q.globs, "!.git"]), accept, signal: q.signal })).map((rel) => join38(q.root, rel)) : [q.root];
  return await searchFiles(q, regex, paths2, Infinity);
}
var IN_PROCESS_GREP_BYTES = 2 * 1024 * 1024;
async function grepSearch(q, rg3, upTo = IN_PROCESS_SEARCH_UP_TO) {
  if (!rg3) return { ...await grepWithJs(q), engine: "js" };
  const regex = upTo > 0 ? inProcessRegex(q) : null;
  if (regex) {
    const rootIsDir = (await stat13(q.root)).isDirectory();
    const rels = rootIsDir ? await smallTreeFiles({ root: q.root, overrides: new OverrideGlobs([...q.globs, "!.git"]), accept: typeFilter(q.type), signal: q.signal, upTo }) : [""];
    const found = rels && await searchFiles(q, regex, rels.map((rel) => join38(q.root, rel)), IN_PROCESS_GREP_BYTES);
    if (found) return { ...found, engine: "js" };
  }
  return { ...await grepWithRipgrep(rg3, q), engine: "rg" };
}
function inProcessRegex(q) {
  return rustRegex(q.pattern, { ignoreCase: q.ignoreCase, multiline: q.multiline });
}
function decodeText(bytes) {
  let text2;
  if (bytes[0] === 255 && bytes[1] === 254) text2 = new TextDecoder("utf-16le").decode(bytes.subarray(2));
  else if (bytes[0] === 254 && bytes[1] === 255) text2 = new TextDecoder("utf-16be").decode(bytes.subarray(2));
  else if (bytes.includes(0)) return null;
  else text2 = bytes.toString("utf8", bytes[0] === 239 && bytes[1] === 187 && bytes[2] === 191 ? 3 : 0);
  return text2.includes("\0") ? null : text2;
}
async function searchFiles(q, regex, paths2, maxBytes) {
  const files = [];
  let collected = 0;
  let capped = false;
  let bytesRead = 0;
  let tooBig = false;
  let next = 0;
  const worker = async () => {
    while (next < paths2.length && !capped && !tooBig) {
      if (q.signal?.aborted) throw new Error("aborted");
      const path = paths2[next++];
      const bytes = await readFile13(path).catch(() => null);
      if (bytes && (bytesRead += bytes.length) > maxBytes) tooBig = true;
      const text2 = bytes && !tooBig ? decodeText(bytes) : null;
      if (text2 === null) continue;
      const found = searchText(text2, regex, q);
      if (!found) continue;
      files.push({ path, ...found });
      collected += q.filesOnly ? 1 : found.lines.length;
      if (collected >= GREP_MAX_COLLECTED_LINES) capped = true;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return tooBig ? null : { files, capped };
}

// src/main/runtime/tools/grep.ts
var MAX_LINE_CHARS = 500;
var schema6 = z16.object({
  pattern: z16.string().min(1).describe('The regular expression to search for (ripgrep syntax; escape literal braces, e.g. "interface\\{\\}")'),
  path: z16.string().optional().describe("File or directory to search in (default: the working directory)"),
  glob: z16.string().optional().describe('Glob to filter files, e.g. "*.js", "*.{ts,tsx}", "src/**/*.ts"; several separated by spaces'),
  type: z16.string().optional().describe("File type to search (rg --type), e.g. js, ts, py, rust, go, java, md"),
  output_mode: z16.enum(["content", "files_with_matches", "count"]).optional().default("files_with_matches").describe('"content" shows matching lines, "files_with_matches" shows file paths (default), "count" shows match counts per file'),
  "-i": z16.boolean().optional().describe("Case insensitive search"),
  "-n": z16.boolean().optional().describe("Show line numbers (content mode; default true)"),
  "-A": z16.number().int().min(0).optional().describe("Lines of context after each match (content mode)"),
  "-B": z16.number().int().min(0).optional().describe("Lines of context before each match (content mode)"),
  "-C": z16.number().int().min(0).optional().describe("Lines of context before and after each match (content mode)"),
  multiline: z16.boolean().optional().describe('Let patterns span lines; "." also matches newlines (rg -U --multiline-dotall)'),
  head_limit: z16.number().int().min(1).optional().describe("Only the first N output lines (content) or entries (files, count)")
});
function splitGlobs(glob) {
  if (!glob) return [];
  const out = [];
  let depth = 0;
  let cur = "";
  for (const c of glob) {
    if (c === "{") depth++;
    if (c === "}") depth = Math.max(0, depth - 1);
    if (c === "," && depth === 0 || /\s/.test(c)) {
      if (cur) out.push(cur);
      cur = "";
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}
function cut(text2) {
  return text2.length > MAX_LINE_CHARS ? `${text2.slice(0, MAX_LINE_CHARS)}\u2026 [${text2.length} chars]` : text2;
}
function byPath(a, b) {
  return a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0;
}
function headLimit(rows, limit, what) {
  if (limit === void 0 || rows.length <= limit) return rows.join("\n");
  return `${rows.slice(0, limit).join("\n")}

[Showing the first ${limit} of ${rows.length} ${what} (head_limit).]`;
}
async function formatGrep(files, input, cwd2, withContext2) {
  const mode2 = input.output_mode;
  const entries = files.map((f) => ({ ...f, shown: displayPath(cwd2, f.path) }));
  if (entries.length === 0) return mode2 === "files_with_matches" ? "No files found" : "No matches found";
  if (mode2 === "files_with_matches") {
    const timed = await Promise.all(entries.map(async (e) => ({ ...e, mtime: (await stat14(e.path).catch(() => null))?.mtimeMs ?? 0 })));
    timed.sort((a, b) => b.mtime - a.mtime || byPath(a, b));
    const rows2 = timed.map((e) => e.shown);
    return `Found ${rows2.length} file${rows2.length === 1 ? "" : "s"}
${headLimit(rows2, input.head_limit, "files")}`;
  }
  entries.sort(byPath);
  if (mode2 === "count") {
    const total = entries.reduce((n, e) => n + e.matchLines, 0);
    const rows2 = entries.map((e) => `${e.shown}:${e.matchLines}`);
    return `${headLimit(rows2, input.head_limit, "files")}

Found ${total} matching line${total === 1 ? "" : "s"} across ${entries.length} file${entries.length === 1 ? "" : "s"}.`;
  }
  const numbers = input["-n"] ?? true;
  const rows = [];
  for (const e of entries) {
    const lines2 = [...e.lines].sort((a, b) => a.n - b.n);
    let prev = -1;
    for (const l of lines2) {
      if (withContext2 && rows.length > 0 && l.n !== prev + 1) rows.push("--");
      const sep2 = l.match ? ":" : "-";
      rows.push(numbers ? `${e.shown}${sep2}${l.n}${sep2}${cut(l.text)}` : `${e.shown}${sep2}${cut(l.text)}`);
      prev = l.n;
    }
  }
  return headLimit(rows, input.head_limit, "lines");
}
function createGrepTool(opts) {
  const paths2 = pathPolicyOf(opts);
  return defineTool({
    name: "Grep",
    description: [
      "Searches file contents with a regular expression (ripgrep syntax), honouring .gitignore.",
      'output_mode: "files_with_matches" (default; newest first), "content" (matching lines, with -n line numbers, -A/-B/-C context), "count".',
      'Filter with glob ("*.ts", "src/**/*.{ts,tsx}") or type ("ts", "py"). Use multiline for patterns that span lines.',
      "Use this instead of running grep or rg through Bash."
    ].join("\n"),
    schema: schema6,
    readOnly: true,
    async execute(input, ctx) {
      const root2 = resolveToolPath(opts.cwd, input.path ?? ".");
      const refused = paths2.check("Grep", root2, "read");
      if (refused) return { content: refused, isError: true };
      if (!await stat14(root2).catch(() => null))
        return { content: `Path does not exist: ${displayPath(opts.cwd, root2)} (working directory: ${opts.cwd}).`, isError: true };
      const content = input.output_mode === "content";
      const query = {
        pattern: input.pattern,
        root: root2,
        globs: splitGlobs(input.glob),
        type: input.type,
        ignoreCase: input["-i"] ?? false,
        multiline: input.multiline ?? false,
        before: content ? input["-B"] ?? input["-C"] ?? 0 : 0,
        after: content ? input["-A"] ?? input["-C"] ?? 0 : 0,
        filesOnly: input.output_mode === "files_with_matches",
        signal: ctx.signal
      };
      let outcome;
      try {
        outcome = await grepSearch(query, ripgrepPath(opts.ripgrep), opts.inProcessSearchUpTo);
      } catch (err) {
        if (err instanceof GrepInputError) return { content: err.message, isError: true };
        throw err;
      }
      const visible = paths2.searchFilter(root2, "Grep");
      outcome = { ...outcome, files: outcome.files.filter((f) => visible(f.path)) };
      let text2 = await formatGrep(outcome.files, input, opts.cwd, query.before > 0 || query.after > 0);
      if (outcome.capped) text2 += "\n\n[Search stopped early: too many results. Narrow the pattern, path, glob or type.]";
      const matchLines = outcome.files.reduce((n, f) => n + f.matchLines, 0);
      return { content: text2, details: { pattern: input.pattern, root: root2, mode: input.output_mode, files: outcome.files.length, matchLines, capped: outcome.capped, engine: outcome.engine } };
    }
  });
}

// src/main/runtime/tools/notebook-edit.ts
import { readFile as readFile14, stat as stat15 } from "node:fs/promises";
import { extname as extname2 } from "node:path";
import { z as z17 } from "zod";
var schema7 = z17.object({
  notebook_path: z17.string().min(1).describe("The path of the .ipynb file (absolute, or relative to the working directory)"),
  cell_id: z17.string().optional().describe('The id of the cell to edit (or "cell-N" for the N-th cell, 0-based). For insert: the new cell goes after it, or first when omitted'),
  new_source: z17.string().describe("The new source of the cell (ignored for delete)"),
  cell_type: z17.enum(["code", "markdown"]).optional().describe("The cell type; required for insert"),
  edit_mode: z17.enum(["replace", "insert", "delete"]).optional().default("replace")
});
function toSourceLines(source) {
  return source === "" ? [] : source.split(/(?<=\n)/);
}
function findCell(cells, cellId) {
  const byId = cells.findIndex((c) => c.id === cellId);
  if (byId !== -1) return byId;
  const m = /^(?:cell-)?(\d+)$/.exec(cellId);
  return m && Number(m[1]) < cells.length ? Number(m[1]) : -1;
}
function createNotebookEditTool(opts) {
  const fileState = opts.fileState ?? new FileState();
  const paths2 = pathPolicyOf(opts);
  return defineTool({
    name: "NotebookEdit",
    description: "Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb). Read the notebook first. Cells are addressed by cell_id.",
    schema: schema7,
    readOnly: false,
    async execute(input) {
      const abs = resolveToolPath(opts.cwd, input.notebook_path);
      const shown2 = displayPath(opts.cwd, abs);
      const refused = paths2.check("NotebookEdit", abs, "write") ?? paths2.check("NotebookEdit", abs, "read");
      if (refused) return { content: refused, isError: true };
      if (extname2(abs) !== ".ipynb") return { content: `${shown2} is not a .ipynb notebook; use Edit for other files.`, isError: true };
      if (!await stat15(abs).catch(() => null)) return { content: `Notebook does not exist: ${shown2}.`, isError: true };
      const refusal2 = await fileState.checkWritable(abs, shown2);
      if (refusal2) return { content: refusal2, isError: true };
      let nb;
      try {
        nb = JSON.parse(await readFile14(abs, "utf8"));
      } catch (err) {
        return { content: `${shown2} is not valid notebook JSON: ${err.message}`, isError: true };
      }
      if (!Array.isArray(nb.cells)) return { content: `${shown2} has no "cells" array; it is not a Jupyter notebook.`, isError: true };
      const cells = nb.cells;
      const mode2 = input.edit_mode;
      let index = input.cell_id === void 0 ? -1 : findCell(cells, input.cell_id);
      if (input.cell_id !== void 0 && index === -1)
        return { content: `No cell with id "${input.cell_id}" in ${shown2} (it has ${cells.length} cells). Read the notebook to see the cell ids.`, isError: true };
      if (mode2 !== "insert" && index === -1) return { content: `cell_id is required to ${mode2} a cell.`, isError: true };
      let cellId = input.cell_id;
      if (mode2 === "delete") {
        cells.splice(index, 1);
      } else if (mode2 === "insert") {
        if (!input.cell_type) return { content: 'cell_type ("code" or "markdown") is required when inserting a cell.', isError: true };
        const cell = { cell_type: input.cell_type, metadata: {}, source: toSourceLines(input.new_source) };
        if ((nb.nbformat ?? 4) > 4 || (nb.nbformat ?? 4) === 4 && (nb.nbformat_minor ?? 0) >= 5) cell.id = cellId = Math.random().toString(36).slice(2, 10);
        if (input.cell_type === "code") Object.assign(cell, { execution_count: null, outputs: [] });
        index = index + 1;
        cells.splice(index, 0, cell);
      } else {
        const cell = cells[index];
        cell.source = toSourceLines(input.new_source);
        if (input.cell_type && input.cell_type !== cell.cell_type) cell.cell_type = input.cell_type;
        if (cell.cell_type === "code") Object.assign(cell, { execution_count: null, outputs: [] });
        else {
          delete cell.outputs;
          delete cell.execution_count;
        }
      }
      await writeAndRecord(fileState, abs, `${JSON.stringify(nb, null, 1)}
`);
      const verb = mode2 === "delete" ? "Deleted" : mode2 === "insert" ? "Inserted" : "Replaced";
      return { content: `${verb} cell ${cellId ?? index} in ${shown2}.`, details: { notebookPath: abs, editMode: mode2, cellId, index, cells: cells.length } };
    }
  });
}

// src/main/runtime/tools/todo-write.ts
import { z as z18 } from "zod";
var TODO_STATUSES = ["pending", "in_progress", "completed"];
var todoSchema = z18.object({
  content: z18.string().min(1).describe('What needs doing, in the imperative ("Run the tests")'),
  status: z18.enum(TODO_STATUSES),
  activeForm: z18.string().min(1).optional().describe('The same task in the present continuous ("Running the tests"), shown while in progress'),
  id: z18.string().optional()
});
var schema8 = z18.object({ todos: z18.array(todoSchema).describe("The updated todo list (replaces the previous one)") });
var TodoList = class {
  items = [];
};
function createTodoWriteTool(opts) {
  const list = opts.todos ?? new TodoList();
  return defineTool({
    name: "TodoWrite",
    description: [
      "Creates and updates your structured task list for this task: use it for work with several steps, to track progress and show it to the user.",
      "Send the whole list each time. Keep exactly one task in_progress while working; mark tasks completed as soon as they are done."
    ].join("\n"),
    schema: schema8,
    readOnly: true,
    concurrencySafe: false,
    async execute(input) {
      const previous = list.items;
      list.items = input.todos;
      const count = (s) => input.todos.filter((t) => t.status === s).length;
      const summary = `${count("completed")} completed, ${count("in_progress")} in progress, ${count("pending")} pending`;
      return {
        content: `Todo list updated (${summary}). Keep it current as you work: mark each task completed as soon as it is done.`,
        details: { todos: input.todos, previous }
      };
    }
  });
}

// src/main/runtime/tools/web-fetch.ts
import { z as z19 } from "zod";

// src/main/runtime/tools/html-to-text.ts
var NAMED_ENTITIES = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "\u2014",
  ndash: "\u2013",
  hellip: "\u2026",
  copy: "\xA9",
  reg: "\xAE",
  trade: "\u2122",
  rsquo: "\u2019",
  lsquo: "\u2018",
  ldquo: "\u201C",
  rdquo: "\u201D",
  bull: "\u2022",
  middot: "\xB7",
  times: "\xD7",
  euro: "\u20AC",
  pound: "\xA3",
  laquo: "\xAB",
  raquo: "\xBB",
  deg: "\xB0",
  para: "\xB6",
  sect: "\xA7",
  larr: "\u2190",
  rarr: "\u2192"
};
function decodeEntities(text2) {
  return text2.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code) => {
    if (code[0] === "#") {
      const n = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 1114111 ? String.fromCodePoint(n) : whole;
    }
    return NAMED_ENTITIES[code.toLowerCase()] ?? whole;
  });
}
var BLOCK = /<\/?(p|div|section|article|header|footer|main|nav|aside|ul|ol|table|thead|tbody|tr|blockquote|figure|figcaption|form|fieldset|dl|dt|dd|details|summary|hr|address)\b[^>]*>/gi;
function htmlToText(html) {
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = titleMatch ? decodeEntities(titleMatch[1].replace(/\s+/g, " ").trim()) || void 0 : void 0;
  let s = html.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style|noscript|svg|template|iframe|head|object|canvas)\b[\s\S]*?<\/\1\s*>/gi, "");
  const pres = [];
  s = s.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, body) => {
    pres.push(decodeEntities(body.replace(/<[^>]+>/g, "")));
    return `
\0PRE${pres.length - 1}\0
`;
  });
  s = s.replace(/\s+/g, " ").replace(/<h([1-6])\b[^>]*>/gi, (_, level) => `

${"#".repeat(Number(level))} `).replace(/<\/h[1-6]\s*>/gi, "\n\n").replace(/<li\b[^>]*>/gi, "\n- ").replace(/<br\s*\/?>/gi, "\n").replace(/<(td|th)\b[^>]*>/gi, " | ").replace(BLOCK, "\n").replace(/<a\b[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi, (_, d, q, u, inner) => {
    const href = decodeEntities(d ?? q ?? u ?? "");
    const label = inner.replace(/<[^>]+>/g, "").trim();
    if (!/^https?:/i.test(href) || !label || decodeEntities(label) === href) return inner;
    return `[${label}](${href})`;
  }).replace(/<code\b[^>]*>([\s\S]*?)<\/code\s*>/gi, "`$1`").replace(/<(strong|b)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, "**$2**").replace(/<[^>]+>/g, "");
  s = decodeEntities(s);
  const text2 = s.split("\n").map((line2) => line2.replace(/[ \t\f\v\u00a0]+/g, " ").trim()).join("\n").replace(/\n{3,}/g, "\n\n").replace(/\u0000PRE(\d+)\u0000/g, (_, i) => `\`\`\`
${pres[Number(i)].replace(/^\n+|\s+$/g, "")}
\`\`\``).trim();
  return { title, text: text2 };
}

// src/main/runtime/tools/web-fetch.ts
var WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;
var WEB_FETCH_MAX_CHARS = 6e4;
var WEB_FETCH_TIMEOUT_MS = 3e4;
var schema9 = z19.object({
  url: z19.string().url().describe("The URL to fetch (http or https)"),
  prompt: z19.string().optional().describe("What to look for in the page")
});
var NETWORK_CODES2 = {
  ENOTFOUND: "the host name could not be resolved",
  EAI_AGAIN: "DNS lookup failed (no network?)",
  ECONNREFUSED: "the connection was refused",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  ENETUNREACH: "the network is unreachable",
  EHOSTUNREACH: "the host is unreachable",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out"
};
function describeFetchError(err) {
  const cause = err.cause;
  const code = cause?.code;
  if (code && NETWORK_CODES2[code]) return `${NETWORK_CODES2[code]} (${code})`;
  if (err.name === "TimeoutError") return `no response within ${WEB_FETCH_TIMEOUT_MS / 1e3} s`;
  return cause?.message ?? err.message;
}
async function readCapped(res, max) {
  if (!res.body) return { bytes: Buffer.alloc(0), cut: false };
  const chunks = [];
  let size2 = 0;
  const reader = res.body.getReader();
  for (; ; ) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
    size2 += value.length;
    if (size2 >= max) {
      await reader.cancel().catch(() => {
      });
      return { bytes: Buffer.concat(chunks).subarray(0, max), cut: true };
    }
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}
function isTextual(contentType) {
  return contentType === "" || /^text\/|json|xml|javascript|ecmascript|yaml|csv|markdown/i.test(contentType);
}
function createWebFetchTool(_opts) {
  return defineTool({
    name: "WebFetch",
    description: [
      "Fetches a URL and returns its content as text (HTML is converted to readable text; at most " + WEB_FETCH_MAX_CHARS + " characters).",
      "Use prompt to say what you are looking for. Fails clearly when the network is unavailable."
    ].join("\n"),
    schema: schema9,
    readOnly: true,
    maxOutputChars: WEB_FETCH_MAX_CHARS + 2e3,
    async execute(input, ctx) {
      const url2 = new URL(input.url);
      if (url2.protocol !== "http:" && url2.protocol !== "https:")
        return { content: `Only http and https URLs can be fetched, not ${url2.protocol}`, isError: true };
      const started = Date.now();
      let res;
      try {
        res = await fetch(url2, {
          redirect: "follow",
          signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(WEB_FETCH_TIMEOUT_MS)]),
          headers: { "user-agent": "Fanout-WebFetch/0.1", accept: "text/html,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5" }
        });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        return { content: `Could not fetch ${input.url}: ${describeFetchError(err)}. The machine may be offline or the site unreachable.`, isError: true };
      }
      const contentType = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
      const { bytes, cut: cut2 } = await readCapped(res, WEB_FETCH_MAX_BYTES);
      const details = { url: input.url, finalUrl: res.url, status: res.status, contentType, bytes: bytes.length, durationMs: Date.now() - started };
      if (!isTextual(contentType))
        return { content: `${res.url} returned ${contentType} (${bytes.length} bytes), which is not text; WebFetch returns text only.`, isError: true, details };
      const raw = bytes.toString("utf8");
      const isHtml = contentType.includes("html") || contentType === "" && /^\s*<(!doctype html|html)/i.test(raw);
      const page = isHtml ? htmlToText(raw) : { title: void 0, text: raw };
      let text2 = page.text;
      const notes = [];
      if (cut2) notes.push(`[The response was larger than ${WEB_FETCH_MAX_BYTES / 1048576} MB; only the start was read.]`);
      if (text2.length > WEB_FETCH_MAX_CHARS) {
        notes.push(`[Content cut at ${WEB_FETCH_MAX_CHARS} of ${text2.length} characters.]`);
        text2 = text2.slice(0, WEB_FETCH_MAX_CHARS);
      }
      const header = [`URL: ${res.url}`, `Status: ${res.status} ${res.statusText}`.trim()];
      if (res.url !== url2.href) header.push(`(redirected from ${input.url})`);
      if (page.title) header.push(`Title: ${page.title}`);
      if (input.prompt) header.push(`Look for: ${input.prompt}`);
      const content = [header.join("\n"), "", text2 || "(empty response)", ...notes].join("\n");
      return { content, isError: !res.ok, details };
    }
  });
}

// src/main/runtime/tools/index.ts
function createBuiltinTools(opts) {
  const shared2 = { ...opts, fileState: opts.fileState ?? new FileState(), todos: opts.todos ?? new TodoList() };
  return [
    createBashTool(shared2),
    createGlobTool(shared2),
    createGrepTool(shared2),
    createReadTool(shared2),
    createEditTool(shared2),
    createWriteTool(shared2),
    createNotebookEditTool(shared2),
    createWebFetchTool(shared2),
    createTodoWriteTool(shared2)
  ];
}

// src/main/runtime/orchestration/task-tools.ts
import { z as z20 } from "zod";
var TASK_OUTPUT_TOOL_NAME = "TaskOutput";
var TASK_STOP_TOOL_NAME = "TaskStop";
var DEFAULT_WAIT_MS = 3e4;
var MAX_WAIT_MS = 6e5;
var target = {
  agentId: z20.string().trim().min(1).optional().describe("Id (or name) of the agent, as returned when it was launched"),
  task_id: z20.string().trim().min(1).optional().describe("Same as agentId (Claude Code name)")
};
var needsId = (v) => Boolean(v.agentId ?? v.task_id);
var idMissing = { message: "give agentId: the id returned when the agent was launched" };
var taskOutputInput = z20.object({
  ...target,
  block: z20.boolean().optional().describe("Wait for the agent to finish (default true)"),
  timeout: z20.number().int().min(0).max(MAX_WAIT_MS).optional().describe(`Most milliseconds to wait when block is true (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS})`)
}).strict().refine(needsId, idMissing);
var taskStopInput = z20.object(target).strict().refine(needsId, idMissing);
function find(host, id) {
  return host.registry.find(id);
}
var unknown = (id) => ({ content: `There is no agent '${id}' in this session. Use the agentId returned when the agent was launched.`, isError: true });
function progress(host, handle) {
  const text2 = host.outputTail(handle) ?? lastAssistantText(handle.messages);
  return text2.trim() ? `Its output so far (the latest part):
${text2.trim()}` : "It has produced no output yet.";
}
function createTaskOutputTool(host) {
  return defineTool({
    name: TASK_OUTPUT_TOOL_NAME,
    description: `Get the status and output of a background agent (one started with run_in_background). By default waits up to ${DEFAULT_WAIT_MS / 1e3} s for it to finish; block: false returns at once. You are notified when a background agent finishes anyway, so call this only when you need its result now.`,
    schema: taskOutputInput,
    readOnly: true,
    concurrencySafe: true,
    maxOutputChars: 1e5,
    async execute(input, ctx) {
      const id = input.agentId ?? input.task_id;
      const handle = find(host, id);
      if (!handle) return unknown(id);
      const started = Date.now();
      if (handle.run && input.block !== false) {
        let timer;
        let onAbort;
        await Promise.race([
          handle.run,
          new Promise((resolve24) => {
            timer = setTimeout(resolve24, input.timeout ?? DEFAULT_WAIT_MS);
            onAbort = resolve24;
            ctx.signal.addEventListener("abort", onAbort, { once: true });
          })
        ]);
        clearTimeout(timer);
        if (onAbort) ctx.signal.removeEventListener("abort", onAbort);
      }
      const details = { agentId: handle.id, status: handle.status, ...handle.outputFile ? { outputFile: handle.outputFile } : {} };
      if (handle.run || !handle.lastResult) {
        const waited = input.block !== false ? ` (waited ${Math.round((Date.now() - started) / 1e3)} s)` : "";
        return { content: `Agent ${handle.id} is still ${handle.status === "queued" ? "queued" : "running"}${waited}; ${handle.turnCount} turns so far. ${progress(host, handle)}`, details };
      }
      const report = formatAgentReport(handle, handle.lastResult);
      return { content: `Agent ${handle.id} has finished (status: ${handle.lastResult.status}).

${report.content}`, details };
    }
  });
}
function createTaskStopTool(host) {
  return defineTool({
    name: TASK_STOP_TOOL_NAME,
    description: "Stop a running background agent (and any agent it started). You get its output so far; no notification follows.",
    schema: taskStopInput,
    readOnly: false,
    concurrencySafe: true,
    async execute(input) {
      const id = input.agentId ?? input.task_id;
      const handle = find(host, id);
      if (!handle) return unknown(id);
      if (!handle.run) return { content: `Agent ${handle.id} is not running (status: ${handle.status}); there is nothing to stop.`, details: { agentId: handle.id, status: handle.status } };
      handle.quiet = true;
      const run = handle.run;
      host.registry.stop(handle.id, false);
      await run;
      return { content: `Stopped agent ${handle.id}. ${progress(host, handle)}`, details: { agentId: handle.id, status: handle.status } };
    }
  });
}

// src/main/runtime/orchestration/team/names.ts
var TEAM_CREATE = "TeamCreate";
var TEAM_DELETE = "TeamDelete";
var TASK_CREATE = "TaskCreate";
var TASK_LIST = "TaskList";
var TASK_GET = "TaskGet";
var TASK_UPDATE = "TaskUpdate";
var TASK_CLAIM = "TaskClaim";
var REQUEST_SHUTDOWN = "RequestShutdown";
var REQUEST_PLAN_APPROVAL = "RequestPlanApproval";
var RESPOND_TO_REQUEST = "RespondToRequest";
var LEAD_TOOL_NAMES = [TEAM_CREATE, TEAM_DELETE, TASK_CREATE, TASK_LIST, TASK_GET, TASK_UPDATE, REQUEST_SHUTDOWN, RESPOND_TO_REQUEST];
var MEMBER_TOOL_NAMES = ["SendMessage", TASK_LIST, TASK_GET, TASK_CREATE, TASK_CLAIM, TASK_UPDATE, REQUEST_PLAN_APPROVAL, RESPOND_TO_REQUEST];
var TEAM_TOOL_NAMES = [.../* @__PURE__ */ new Set([...LEAD_TOOL_NAMES, ...MEMBER_TOOL_NAMES.filter((t) => t !== "SendMessage")])];
var LEAD_ONLY = /* @__PURE__ */ new Set([TEAM_CREATE, TEAM_DELETE, REQUEST_SHUTDOWN]);

// src/main/runtime/orchestration/team/task-list-tools.ts
import { z as z21 } from "zod";

// src/main/runtime/orchestration/team/team-ops.ts
var LEAD = "lead";

// src/main/runtime/orchestration/team/task-list-tools.ts
var taskId = z21.string().trim().min(1, 'give the task id, e.g. "3"').max(20).describe('The task id, e.g. "3" (TaskList shows them)');
var ids = z21.array(z21.string().trim().min(1).max(20)).max(50);
function line(t, team) {
  const open5 = t.blockedBy.filter((id) => team.tasks.find((x) => x.id === id)?.status !== "completed");
  return `#${t.id} [${t.status}] ${t.subject}${t.owner ? ` \u2014 ${t.owner}` : ""}${open5.length ? ` (blocked by ${open5.join(", ")})` : ""}`;
}
function formatTaskList(team) {
  if (!team.tasks.length) return `Team ${team.name} has no tasks yet.`;
  const count = (s) => team.tasks.filter((t) => t.status === s).length;
  return `Team ${team.name}: ${team.tasks.length} tasks (${count("completed")} completed, ${count("in_progress")} in progress, ${count("pending")} pending)
${team.tasks.map((t) => line(t, team)).join("\n")}`;
}
function formatTask(t, team) {
  const blocks = team.tasks.filter((x) => x.blockedBy.includes(t.id)).map((x) => x.id);
  return [
    line(t, team),
    t.description && `Description: ${t.description}`,
    t.blockedBy.length ? `Waits for: ${t.blockedBy.join(", ")}` : "",
    blocks.length ? `Blocks: ${blocks.join(", ")}` : "",
    `Created by ${t.createdBy}`,
    t.result ? `Result: ${t.result}` : ""
  ].filter(Boolean).join("\n");
}
async function asActor(m, actorOf, fn) {
  await m.board.refresh();
  const team = m.active();
  if (!team) return { content: "There is no active team in this session, so there is no task list. The main agent creates a team with TeamCreate.", isError: true };
  const actor = actorOf();
  if (!actor) return { content: `You are not a member of team ${team.name}.`, isError: true };
  return fn(actor, team);
}
function createTaskListTools(host) {
  const m = host.manager;
  const as = (fn) => asActor(m, host.actor, fn);
  const after = (taskIdOut, verb) => {
    const team = m.active();
    const t = team.tasks.find((x) => x.id === taskIdOut);
    return { content: `${verb} task ${t.id}.
${formatTask(t, team)}`, details: { task: t } };
  };
  return [
    defineTool({
      name: TASK_CREATE,
      description: "Add a task to the team's shared task list. blockedBy lists ids of tasks that must be completed first.",
      schema: z21.object({ subject: z21.string().trim().min(1, "a task needs a subject").max(200).describe("A short imperative title"), description: z21.string().max(2e4).optional().describe("What done looks like"), blockedBy: ids.optional().describe("Ids of tasks that must be completed before this one") }).strict(),
      readOnly: false,
      concurrencySafe: true,
      execute: (input) => as(async (actor) => {
        const out = await m.run({ op: "task_create", actor, subject: input.subject, description: input.description ?? "", blockedBy: input.blockedBy ?? [] });
        return out.ok ? after(out.taskId, "Created") : { content: out.error, isError: true };
      })
    }),
    defineTool({
      name: TASK_LIST,
      description: "The team's shared task list: every task with its status, owner and what blocks it.",
      schema: z21.object({}).strict(),
      readOnly: true,
      execute: () => as(async (_actor, team) => ({ content: formatTaskList(team), details: { tasks: team.tasks } }))
    }),
    defineTool({
      name: TASK_GET,
      description: "One task in full: description, dependencies, owner and result.",
      schema: z21.object({ taskId }).strict(),
      readOnly: true,
      execute: (input) => as(async (_actor, team) => {
        const t = team.tasks.find((x) => x.id === input.taskId);
        return t ? { content: formatTask(t, team), details: { task: t } } : { content: `There is no task ${input.taskId}. TaskList shows the tasks.`, isError: true };
      })
    }),
    defineTool({
      name: TASK_CLAIM,
      description: "Claim a task: it becomes yours and in progress. Without taskId you get the first task you may take (pending, unassigned or assigned to you, not blocked). First come, first served: a task someone else claimed cannot be claimed.",
      schema: z21.object({ taskId: taskId.optional() }).strict(),
      readOnly: false,
      concurrencySafe: true,
      execute: (input) => as(async (actor) => {
        const out = await m.run({ op: "task_claim", actor, ...input.taskId ? { taskId: input.taskId } : {} });
        if (out.ok) return after(out.taskId, "You claimed");
        return { content: out.error, isError: !("code" in out && out.code === "none_available"), details: { claimed: false } };
      })
    }),
    defineTool({
      name: TASK_UPDATE,
      description: `Update a task: status "completed" (with a short result) when you finish it, "pending" to give it back, "in_progress" to claim it; edit its subject or description; add tasks it waits for. The lead may also assign it (owner: a member name, or null).`,
      schema: z21.object({
        taskId,
        status: z21.enum(TASK_STATUSES).optional(),
        result: z21.string().max(2e4).optional().describe("What was done (with status completed)"),
        subject: z21.string().trim().min(1).max(200).optional(),
        description: z21.string().max(2e4).optional(),
        addBlockedBy: ids.optional().describe("Ids of tasks this one must wait for"),
        owner: z21.string().trim().min(1).max(64).nullable().optional().describe("Lead only: assign to a member (null to unassign)")
      }).strict(),
      readOnly: false,
      concurrencySafe: true,
      execute: (input) => as(async (actor) => {
        const { taskId: id, ...patch } = input;
        if (!Object.values(patch).some((v) => v !== void 0)) return { content: "Nothing to update: give a status, result, subject, description, addBlockedBy or owner.", isError: true };
        const out = await m.run({ op: "task_update", actor, taskId: id, ...patch });
        return out.ok ? after(out.taskId, actor === LEAD ? "Updated" : "You updated") : { content: out.error, isError: true };
      })
    })
  ];
}

// src/main/runtime/orchestration/team/team-tools.ts
import { z as z22 } from "zod";
var memberInput = z22.object({
  name: z22.string().trim().min(1).max(64).describe("How the team addresses this member (letters, digits, . _ -)"),
  agent_type: z22.string().trim().min(1).optional().describe("The agent definition it runs as (default general-purpose): its tools and model apply"),
  prompt: z22.string().trim().min(1, "the member's first instructions cannot be empty").describe("Its first instructions: its role and what to do first"),
  model: z22.string().trim().min(1).optional().describe("Override the definition's model"),
  isolation: z22.enum(["worktree"]).optional().describe('"worktree": the member works in its own git worktree')
}).strict();
var teamCreateInput = z22.object({
  team_name: z22.string().trim().min(1).max(64),
  description: z22.string().trim().max(500).optional().describe("What the team is for"),
  members: z22.array(memberInput).min(1, "a team needs at least one member").max(16),
  tasks: z22.array(z22.object({ subject: z22.string().trim().min(1).max(200), description: z22.string().max(2e4).optional(), blockedBy: z22.array(z22.string().trim().min(1)).max(50).optional().describe('Ids of earlier tasks in this list ("1" is the first)') }).strict()).max(200).optional().describe('The first tasks for the shared list; they get ids "1", "2", \u2026 in this order')
}).strict();
function createLeadTools(m, lead) {
  return [
    defineTool({
      name: TEAM_CREATE,
      description: `Create an agent team: members that work in parallel from a shared task list and talk through messages. Each member runs as an agent definition (agent_type: its tools and model apply) with the team's instructions; give each a name and its first instructions, and seed the task list with tasks. Members claim tasks themselves, report to you each time they go idle, and can be messaged by name. One team per session; members cannot create teams.`,
      schema: teamCreateInput,
      readOnly: false,
      execute: (input, ctx) => m.create(lead, input, ctx.toolUseId)
    }),
    defineTool({
      name: TEAM_DELETE,
      description: "End the team once its members have stopped (ask them with RequestShutdown first). Its task list stays on disk.",
      schema: z22.object({}).strict(),
      readOnly: false,
      async execute() {
        const out = await m.run({ op: "team_delete", actor: LEAD });
        return out.ok ? { content: "The team is deleted. Its task list and history stay in the session folder." } : { content: out.error, isError: true };
      }
    }),
    defineTool({
      name: REQUEST_SHUTDOWN,
      description: "Ask a team member to shut down: it finishes or releases its task and answers. Send this when the work is done or the member is no longer needed.",
      schema: z22.object({ to: z22.string().trim().min(1).describe("The member's name"), reason: z22.string().trim().max(2e3).optional() }).strict(),
      readOnly: false,
      concurrencySafe: true,
      execute: (input) => m.request(lead, "shutdown", input.to, input.reason ?? "The work is done.")
    })
  ];
}
function createMemberTools(m, member) {
  return [
    defineTool({
      name: REQUEST_PLAN_APPROVAL,
      description: "Send your plan to the team lead for approval before you carry it out. End your turn after sending it: the lead's answer arrives as a message and you continue from it.",
      schema: z22.object({ plan: z22.string().trim().min(1, "the plan is empty").max(5e4) }).strict(),
      readOnly: false,
      execute: (input) => m.request(member, "plan_approval", LEAD, input.plan)
    })
  ];
}
function createRespondTool(m, caller) {
  return defineTool({
    name: RESPOND_TO_REQUEST,
    description: "Answer a team request sent to you (a <team-request> message): approve or reject it, with a response (your feedback on a plan, or why you cannot shut down yet).",
    schema: z22.object({ request_id: z22.string().trim().min(1), approve: z22.boolean(), response: z22.string().trim().max(2e4).optional() }).strict(),
    readOnly: false,
    execute: (input) => m.respond(caller, input.request_id, input.approve, input.response)
  });
}

// src/main/runtime/orchestration/team/worker-prompt.ts
function teamWorkerPrompt(t) {
  const others = t.members.filter((m) => m !== t.name);
  return `You are ${t.name}, a member of the agent team "${t.team}"${t.description ? ` (${t.description})` : ""}. The team lead started you; ${others.length ? `your teammates are ${others.join(", ")}` : "you have no teammates"}.

How the team works:
- The team shares one task list. TaskList shows it; TaskClaim takes the next task you may do (or a given one) \u2014 claiming is first come, first served, so two members never work on the same task. Hold one task at a time.
- Work on the task you claimed until it is done, then mark it with TaskUpdate (status: "completed", with a short result). Then claim the next one. A task blocked by unfinished tasks cannot be claimed yet.
- If you find work nobody planned, add it with TaskCreate rather than doing it silently.
- Talk to the lead (to: "main") or a teammate (to: their name) with SendMessage. Messages to you arrive between your turns.
- Before a large or risky change, you may send your plan with RequestPlanApproval and end your turn; the lead's answer arrives as a message and you continue from there.
- If the lead asks you to shut down, finish or release your current task, then answer with RespondToRequest.
- When no task is left for you, end your turn with a short report of what you did. You are woken again when someone messages you.

Your own instructions, as a ${t.agentType} agent, follow.`;
}
function memberDefinition(def, t) {
  return { ...def, systemPrompt: `${teamWorkerPrompt(t)}

${def.systemPrompt}` };
}

// src/main/runtime/orchestration/team/team-board.ts
import { randomUUID as randomUUID2 } from "node:crypto";

// src/main/runtime/orchestration/team/op-log.ts
import { appendFile as appendFile3, mkdir as mkdir9, open as open4 } from "node:fs/promises";
import { dirname as dirname24 } from "node:path";
var OpLog = class {
  constructor(file, onProblem = () => void 0) {
    this.file = file;
    this.onProblem = onProblem;
  }
  file;
  onProblem;
  offset = 0;
  /** Appends one record; durable once the promise resolves. */
  async append(record2) {
    await mkdir9(dirname24(this.file), { recursive: true });
    await appendFile3(this.file, "\n" + JSON.stringify(record2) + "\n", { encoding: "utf8", flush: true });
  }
  /** Records appended (by anyone) since the last call, in file order. */
  async readNew() {
    let handle;
    try {
      handle = await open4(this.file, "r");
    } catch (err) {
      if (errorCode(err) === "ENOENT") return [];
      throw err;
    }
    let text2;
    try {
      const { size: size2 } = await handle.stat();
      if (size2 <= this.offset) return [];
      const buf = Buffer.alloc(size2 - this.offset);
      let got = 0;
      while (got < buf.length) {
        const { bytesRead } = await handle.read(buf, got, buf.length - got, this.offset + got);
        if (!bytesRead) break;
        got += bytesRead;
      }
      const last = buf.lastIndexOf(10, got - 1);
      if (last < 0) return [];
      this.offset += last + 1;
      text2 = buf.toString("utf8", 0, last + 1);
    } finally {
      await handle.close();
    }
    const out = [];
    for (const line2 of text2.split("\n")) {
      if (!line2.trim()) continue;
      try {
        out.push(JSON.parse(line2));
      } catch {
        this.onProblem(`${this.file}: skipped a line that is not a record (left by an interrupted write?): ${line2.slice(0, 80)}`);
      }
    }
    return out;
  }
};

// src/main/runtime/orchestration/team/team-fold.ts
var emptyTeamState = () => ({ team: null, nextTaskId: 1 });
var refuse2 = (error) => ({ ok: false, error });
function applyOp(state, op) {
  if (op.op === "team_create") return createTeam(state, op);
  const team = state.team;
  if (!team || team.status !== "active") return refuse2("There is no active team in this session. The lead creates one with TeamCreate.");
  if (op.actor !== LEAD && !team.members.some((m) => m.name === op.actor)) return refuse2(`'${op.actor}' is not a member of team ${team.name}.`);
  switch (op.op) {
    case "team_delete": {
      if (op.actor !== LEAD) return refuse2("Only the team lead can delete the team.");
      const busy = team.members.filter((m) => m.status === "working" || m.status === "starting");
      if (busy.length) return refuse2(`Members are still working: ${busy.map((m) => m.name).join(", ")}. Ask them to shut down (RequestShutdown) and wait for them to finish first.`);
      team.status = "deleted";
      return { ok: true };
    }
    case "member": {
      const m = team.members.find((x) => x.name === op.name);
      if (!m) return refuse2(`No member named '${op.name}'.`);
      if (m.status === "shutdown" && op.status !== "shutdown") return { ok: true };
      m.status = op.status;
      if (op.branch) m.branch = op.branch;
      return { ok: true };
    }
    case "task_create":
      return createTask(state, team, op);
    case "task_claim":
      return claimTask(team, op);
    case "task_update":
      return updateTask(team, op);
    case "request":
      return request(team, op);
    case "respond":
      return respond(team, op);
  }
}
function createTeam(state, op) {
  if (state.team?.status === "active") return refuse2(`This session already has a team, '${state.team.name}'. A session has one team at a time: work with it, or delete it (TeamDelete) once its members have stopped.`);
  const names = /* @__PURE__ */ new Set();
  for (const m of op.members) {
    if (m.name === LEAD) return refuse2(`'${LEAD}' is the team lead's own name; give the member another name.`);
    if (names.has(m.name)) return refuse2(`Two members are named '${m.name}'; every member needs its own name.`);
    names.add(m.name);
  }
  state.team = { name: op.name, description: op.description, leadAgentId: op.leadAgentId, members: op.members.map((m) => ({ ...m, status: "starting" })), tasks: [], requests: [], status: "active", createdAt: op.ts };
  state.nextTaskId = 1;
  return { ok: true };
}
var findTask = (team, id) => team.tasks.find((t) => t.id === id);
function openBlockers(team, ids2) {
  return ids2.filter((id) => findTask(team, id)?.status !== "completed");
}
function missing(team, ids2) {
  return ids2.filter((id) => !findTask(team, id));
}
function createTask(state, team, op) {
  if (!op.subject.trim()) return refuse2("A task needs a subject.");
  const unknown2 = missing(team, op.blockedBy);
  if (unknown2.length) return refuse2(`blockedBy names tasks that do not exist: ${unknown2.join(", ")}. Create those first, or list existing ids (TaskList).`);
  const id = String(state.nextTaskId++);
  team.tasks.push({ id, subject: op.subject, description: op.description, status: "pending", blockedBy: [...new Set(op.blockedBy)], createdBy: op.actor, createdAt: op.ts, updatedAt: op.ts });
  return { ok: true, taskId: id };
}
function claimable(team, t, actor) {
  if (t.status === "completed") return `Task ${t.id} is already completed.`;
  if (t.status === "in_progress") return t.owner === actor ? null : `Task ${t.id} was already claimed by ${t.owner}.`;
  if (t.owner && t.owner !== actor) return `Task ${t.id} is assigned to ${t.owner}.`;
  const blockers = openBlockers(team, t.blockedBy);
  if (blockers.length) return `Task ${t.id} is blocked by unfinished task${blockers.length > 1 ? "s" : ""} ${blockers.join(", ")}.`;
  return null;
}
function claimTask(team, op) {
  const holding = team.tasks.find((t) => t.owner === op.actor && t.status === "in_progress" && t.id !== op.taskId);
  if (holding) return refuse2(`You are working on task ${holding.id} ("${holding.subject}"); complete it (TaskUpdate status: completed) or release it (status: pending) before claiming another.`);
  let task;
  if (op.taskId !== void 0) {
    task = findTask(team, op.taskId);
    if (!task) return refuse2(`There is no task ${op.taskId}. TaskList shows the tasks.`);
    const why = claimable(team, task, op.actor);
    if (why) return refuse2(why);
  } else {
    task = team.tasks.find((t) => claimable(team, t, op.actor) === null && (!t.owner || t.owner === op.actor));
    if (!task) {
      const pending = team.tasks.filter((t) => t.status === "pending");
      const blocked = pending.filter((t) => openBlockers(team, t.blockedBy).length);
      if (!pending.length) return { ok: false, code: "none_available", error: "No task is available: every task is claimed or completed." };
      return { ok: false, code: "none_available", error: `No task is available to you: ${blocked.length} pending task${blocked.length === 1 ? " is" : "s are"} blocked by unfinished work, ${pending.length - blocked.length} assigned to others.` };
    }
  }
  task.owner = op.actor;
  task.status = "in_progress";
  task.updatedAt = op.ts;
  return { ok: true, taskId: task.id };
}
function makesCycle(team, id, blockers) {
  const seen = /* @__PURE__ */ new Set();
  const stack = [...blockers];
  while (stack.length) {
    const cur = stack.pop();
    if (cur === id) return true;
    if (seen.has(cur)) continue;
    seen.add(cur);
    stack.push(...findTask(team, cur)?.blockedBy ?? []);
  }
  return false;
}
function updateTask(team, op) {
  const task = findTask(team, op.taskId);
  if (!task) return refuse2(`There is no task ${op.taskId}. TaskList shows the tasks.`);
  const lead = op.actor === LEAD;
  const mine = task.owner === op.actor;
  if (op.owner !== void 0) {
    if (!lead) return refuse2("Only the team lead assigns tasks; claim one for yourself with TaskClaim.");
    if (op.owner !== null && !team.members.some((m) => m.name === op.owner)) return refuse2(`No member named '${op.owner}'.`);
    if (task.status === "completed") return refuse2(`Task ${task.id} is completed; it cannot be reassigned.`);
  }
  if (op.addBlockedBy?.length) {
    const unknown2 = missing(team, op.addBlockedBy);
    if (unknown2.length) return refuse2(`addBlockedBy names tasks that do not exist: ${unknown2.join(", ")}.`);
    if (makesCycle(team, task.id, op.addBlockedBy)) return refuse2(`Task ${task.id} cannot wait for ${op.addBlockedBy.join(", ")}: that would make it wait for itself.`);
    if (task.status === "completed") return refuse2(`Task ${task.id} is completed; it cannot gain blockers.`);
  }
  if ((op.subject !== void 0 || op.description !== void 0) && !lead && !mine && task.createdBy !== op.actor)
    return refuse2(`Only the lead, the task's owner or its creator can edit task ${task.id}.`);
  if (op.status === "in_progress") {
    const out = claimTask(team, { ...op, op: "task_claim" });
    if (!out.ok) return out;
  } else if (op.status === "completed") {
    if (!lead && !mine) return refuse2(task.owner ? `Task ${task.id} belongs to ${task.owner}; only its owner or the lead can complete it.` : `Claim task ${task.id} (TaskClaim) before completing it.`);
    if (task.status === "completed") return refuse2(`Task ${task.id} is already completed.`);
    task.status = "completed";
  } else if (op.status === "pending") {
    if (!lead && !mine) return refuse2(`Task ${task.id} is not yours to release.`);
    task.status = "pending";
    delete task.owner;
  }
  if (op.owner !== void 0) {
    if (op.owner === null) delete task.owner;
    else task.owner = op.owner;
    if (task.status === "in_progress" && op.owner !== null) task.status = "pending";
  }
  if (op.subject !== void 0) task.subject = op.subject;
  if (op.description !== void 0) task.description = op.description;
  if (op.addBlockedBy?.length) task.blockedBy = [.../* @__PURE__ */ new Set([...task.blockedBy, ...op.addBlockedBy])];
  if (op.result !== void 0) task.result = op.result;
  task.updatedAt = op.ts;
  return { ok: true, taskId: task.id };
}
function request(team, op) {
  if (op.to !== LEAD && !team.members.some((m) => m.name === op.to)) return refuse2(`No member named '${op.to}'.`);
  if (op.type === "shutdown" && op.actor !== LEAD) return refuse2("Only the team lead asks members to shut down.");
  if (op.type === "plan_approval" && op.to !== LEAD) return refuse2("Plans go to the team lead for approval.");
  if (team.requests.some((r2) => r2.id === op.requestId)) return refuse2(`Request ${op.requestId} exists already.`);
  const r = { id: op.requestId, type: op.type, from: op.actor, to: op.to, content: op.content, status: "pending", ts: op.ts };
  team.requests.push(r);
  return { ok: true, requestId: r.id };
}
function respond(team, op) {
  const r = team.requests.find((x) => x.id === op.requestId);
  if (!r) return refuse2(`There is no request ${op.requestId}.`);
  if (r.to !== op.actor) return refuse2(`Request ${r.id} was sent to ${r.to}; only ${r.to} can answer it.`);
  if (r.status !== "pending") return refuse2(`Request ${r.id} was already answered (${r.status}).`);
  r.status = op.approve ? "approved" : "rejected";
  if (op.response !== void 0) r.response = op.response;
  r.respondedAt = op.ts;
  if (r.type === "shutdown" && op.approve) {
    const m = team.members.find((x) => x.name === op.actor);
    if (m) m.status = "shutdown";
  }
  return { ok: true, requestId: r.id };
}

// src/main/runtime/orchestration/team/team-board.ts
var TeamBoard = class {
  constructor(file, opts = {}) {
    this.file = file;
    this.opts = opts;
    this.log = new OpLog(file, opts.onProblem);
  }
  file;
  opts;
  log;
  state = emptyTeamState();
  /** Outcomes of this board's own operations, until `run` collects them. */
  outcomes = /* @__PURE__ */ new Map();
  reading = Promise.resolve();
  /** Records one operation and returns whether it took effect, and if not, why. */
  async run(input) {
    const op = { ...input, opId: randomUUID2(), ts: Date.now() };
    this.outcomes.set(op.opId, null);
    try {
      await this.log.append(op);
      await this.refresh();
      const out = this.outcomes.get(op.opId);
      if (!out) throw new Error(`the team log ${this.file} did not show the operation just written to it`);
      return out;
    } finally {
      this.outcomes.delete(op.opId);
    }
  }
  /** Reads what others appended since the last read. Reads are queued, so the fold sees the log in order. */
  refresh() {
    const next = this.reading.then(async () => {
      const ops = await this.log.readNew();
      let changed = false;
      for (const op of ops) {
        const out = this.apply(op);
        if (this.outcomes.has(op.opId)) this.outcomes.set(op.opId, out);
        if (out.ok) changed = true;
      }
      if (changed) this.opts.onChange?.(this.state);
    });
    this.reading = next.catch(() => void 0);
    return next;
  }
  apply(op) {
    if (!op || typeof op !== "object" || typeof op.op !== "string" || typeof op.opId !== "string" || typeof op.actor !== "string") {
      this.opts.onProblem?.(`${this.file}: skipped a record that is not a team operation: ${JSON.stringify(op).slice(0, 80)}`);
      return { ok: false, error: "not a team operation" };
    }
    try {
      return applyOp(this.state, op);
    } catch (err) {
      this.opts.onProblem?.(`${this.file}: skipped a malformed ${op.op} operation: ${err instanceof Error ? err.message : String(err)}`);
      return { ok: false, error: `malformed ${op.op} operation` };
    }
  }
  /** The team as last read (a copy), or null when none was created. */
  snapshot() {
    return this.state.team ? structuredClone(this.state.team) : null;
  }
};

// src/main/runtime/orchestration/team/team-manager.ts
import { randomBytes as randomBytes4 } from "node:crypto";

// src/main/runtime/orchestration/team/spawn-member.ts
var NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;
var RESERVED = /* @__PURE__ */ new Set(["main", "lead", "user", "fanout"]);
function planMember(s, lead, m) {
  if (!NAME.test(m.name)) return `Member name '${m.name}' is not usable: use 1-64 letters, digits, '.', '_' or '-'.`;
  if (RESERVED.has(m.name)) return `Member name '${m.name}' is reserved; choose another.`;
  const agentType = m.agent_type ?? DEFAULT_SUBAGENT_TYPE;
  const loaded = s.agents().get(agentType);
  if (!loaded) return `Member ${m.name}: there is no agent type '${agentType}'. Available agent types: ${[...s.agents().keys()].join(", ")}.`;
  const def = loaded.definition;
  let model;
  try {
    model = resolveModel({ override: m.model, definition: def.model, parent: lead.model, aliases: s.aliases });
  } catch (err) {
    return `Member ${m.name}: ${err instanceof Error ? err.message : String(err)}`;
  }
  const resolution = resolveAgentTools(def, s.availableToolNames(), { isBuiltIn: def.source === "built-in", isBackground: false, isSubagent: true });
  if (resolution.error) return `Member ${m.name}: ${resolution.error}`;
  const depth = lead.depth + 1;
  const own = resolution.resolvedTools.filter((t) => !LEAD_ONLY.has(t) && !(t === AGENT_TOOL_NAME && depth >= s.gate.limits.maxDepth));
  return {
    input: m,
    def,
    model,
    toolNames: [.../* @__PURE__ */ new Set([...own, ...MEMBER_TOOL_NAMES])],
    ...resolution.allowedAgentTypes ? { allowedAgentTypes: resolution.allowedAgentTypes } : {},
    isolated: (m.isolation ?? def.isolation) === "worktree"
  };
}
function startMember(s, lead, plan2, agentId, teamName, toolUseId) {
  s.gate.admit();
  const handle = newAgentHandle({
    id: agentId,
    parentId: lead.id,
    parentToolUseId: toolUseId,
    depth: lead.depth + 1,
    agentType: plan2.def.agentType,
    definition: plan2.def,
    name: plan2.input.name,
    description: `${plan2.input.name} \xB7 team ${teamName}`,
    model: plan2.model,
    cwd: lead.cwd,
    permissionMode: childPermissionMode(lead.permissionMode, plan2.def.permissionMode),
    ...plan2.allowedAgentTypes ? { allowedAgentTypes: plan2.allowedAgentTypes } : {},
    toolNames: plan2.toolNames,
    ...plan2.isolated ? { isolation: { repoCwd: lead.cwd } } : {}
  });
  s.registry.add(handle);
  const maxTurns = plan2.def.maxTurns;
  void startSubagentRun(s, handle, { prompt: plan2.input.prompt, history: [], reportTo: lead.id, ...maxTurns !== void 0 ? { maxTurns } : {} });
  return handle;
}

// src/main/runtime/orchestration/team/team-manager.ts
var refuse3 = (content) => ({ content, isError: true });
var attr2 = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/\n/g, " ");
var TeamManager = class {
  constructor(s, file) {
    this.s = s;
    this.board = new TeamBoard(file, { onChange: () => this.changed(), onProblem: (p) => s.onError(new Error(p)) });
    s.subscribe((e) => this.onEvent(e));
  }
  s;
  board;
  team = null;
  /** Member status writes, in the order their events happened. */
  statusWrites = Promise.resolve();
  /** Reads the team log (after a restart, the team as it was). */
  load() {
    return this.board.refresh();
  }
  /** The active team, if any. */
  active() {
    return this.team?.status === "active" ? this.team : null;
  }
  memberOf(handle) {
    return this.active()?.members.find((m) => m.agentId === handle.id);
  }
  /** `lead` for the main agent, a member's name, or null for an agent outside the team. */
  actorOf(handle) {
    if (handle.id === this.s.mainAgentId) return LEAD;
    return this.memberOf(handle)?.name ?? null;
  }
  /** Records one operation, reading everything others wrote first. */
  run(op) {
    return this.board.run(op);
  }
  async create(lead, input, toolUseId) {
    if (lead.id !== this.s.mainAgentId) return refuse3("Only the main agent leads a team; members and subagents cannot create one (teams do not nest).");
    await this.board.refresh();
    const existing = this.active();
    if (existing) return refuse3(`This session already has a team, '${existing.name}' (${existing.members.map((m) => m.name).join(", ")}). Give it more tasks or message its members; delete it with TeamDelete once they have stopped.`);
    const plans = [];
    const problems = [];
    for (const m of input.members) {
      const plan2 = planMember(this.s, lead, m);
      if (typeof plan2 === "string") problems.push(plan2);
      else plans.push(plan2);
    }
    if (problems.length) return refuse3(`The team was not created:
- ${problems.join("\n- ")}`);
    const refusal2 = this.s.gate.refusal(lead.depth + 1);
    if (refusal2) return refuse3(refusal2);
    const left = this.s.gate.limits.maxAgentsPerSession - this.s.gate.totalSpawned;
    if (plans.length > left) return refuse3(`The team was not created: it needs ${plans.length} agents, and this session may start only ${left} more.`);
    const ids2 = plans.map(() => this.s.newAgentId());
    const made = await this.run({
      op: "team_create",
      actor: LEAD,
      name: input.team_name,
      description: input.description ?? "",
      leadAgentId: lead.id,
      members: plans.map((p, i) => ({ name: p.input.name, agentId: ids2[i], agentType: p.def.agentType, model: p.model, ...p.def.color ? { color: p.def.color } : {} }))
    });
    if (!made.ok) return refuse3(made.error);
    const taskLines = [];
    for (const t of input.tasks ?? []) {
      const out = await this.run({ op: "task_create", actor: LEAD, subject: t.subject, description: t.description ?? "", blockedBy: t.blockedBy ?? [] });
      taskLines.push(out.ok ? `- ${out.taskId}: ${t.subject}${t.blockedBy?.length ? ` (after ${t.blockedBy.join(", ")})` : ""}` : `- not created: "${t.subject}": ${out.error}`);
    }
    const started = plans.map((p, i) => startMember(this.s, lead, p, ids2[i], input.team_name, toolUseId));
    const memberLines = started.map((h) => `- ${h.name}: ${h.agentType} agent ${h.id}, model ${h.model}${h.isolation ? ", in its own git worktree" : ""}`);
    return {
      content: `Team "${input.team_name}" is working.
Members:
${memberLines.join("\n")}
${taskLines.length ? `Tasks:
${taskLines.join("\n")}
` : "The task list is empty: add tasks with TaskCreate.\n"}
Members claim tasks from the shared list and report to you as a <task-notification> each time they go idle. Follow progress with TaskList, steer a member with SendMessage (to its name), and when the work is done ask each member to shut down (RequestShutdown), then TeamDelete.`,
      details: { team: input.team_name, members: started.map((h) => ({ name: h.name, agentId: h.id, agentType: h.agentType })) }
    };
  }
  /** Sends a shutdown or plan-approval request as a message and records it. */
  async request(from, type, to, content) {
    const actor = this.actorOf(from);
    if (!actor) return refuse3("You are not in a team.");
    const requestId = `${type === "shutdown" ? "shutdown" : "plan"}-${randomBytes4(3).toString("hex")}`;
    const out = await this.run({ op: "request", actor, requestId, type, to, content });
    if (!out.ok) return refuse3(out.error);
    const how = type === "shutdown" ? "Finish or release your current task, then answer" : "Read the plan and answer";
    const text2 = `<team-request id="${requestId}" type="${type}" from="${attr2(actor)}">
${content}
</team-request>
${how} with RespondToRequest (request_id: "${requestId}", approve: true or false, and a response if you have one).`;
    await this.deliver(from, to, text2, `${type === "shutdown" ? "shutdown request" : "plan for approval"} ${requestId}`);
    return { content: `Sent ${type === "shutdown" ? "the shutdown request" : "your plan"} to ${to === LEAD ? "the lead" : to} (request ${requestId}). ${type === "plan_approval" ? "End your turn now: the answer arrives as a message and you continue from it." : "Its answer arrives as a message."}`, details: { requestId, type, to } };
  }
  async respond(from, requestId, approve, response) {
    const actor = this.actorOf(from);
    if (!actor) return refuse3("You are not in a team.");
    const out = await this.run({ op: "respond", actor, requestId, approve, ...response ? { response } : {} });
    if (!out.ok) return refuse3(out.error);
    const r = this.team?.requests.find((x) => x.id === requestId);
    const verdict = approve ? "approved" : "rejected";
    const next = r.type === "plan_approval" ? approve ? "Go ahead with the plan." : "Revise the plan with this feedback and send it again with RequestPlanApproval." : approve ? `${actor} agreed to shut down.` : `${actor} declined to shut down.`;
    const text2 = `<team-response request="${requestId}" type="${r.type}" approved="${approve}" from="${attr2(actor)}">
${response ?? ""}
</team-response>
${next}`;
    await this.deliver(from, r.from, text2, `${r.type === "shutdown" ? "shutdown" : "plan"} ${verdict}`);
    const mine = r.type === "shutdown" && approve ? "You are shut down: end your turn now with a one-line goodbye, and do no further work." : `Answered ${requestId}: ${verdict}.`;
    return { content: mine, details: { requestId, approved: approve } };
  }
  async deliver(from, to, text2, summary) {
    const target2 = to === LEAD ? this.s.mainAgentId : this.team?.members.find((m) => m.name === to)?.agentId ?? to;
    await sendMessage(this.s, target2, text2, from.id, summary);
  }
  changed() {
    this.team = this.board.snapshot();
    if (!this.team) return;
    const lead = this.s.registry.get(this.team.leadAgentId);
    this.s.emit({ agentId: this.team.leadAgentId, parentAgentId: lead?.parentId ?? null, parentToolUseId: lead?.parentToolUseId ?? null, sessionId: this.s.sessionId, ts: Date.now(), type: "team", team: structuredClone(this.team) });
  }
  /** Keeps each member's status in the log: working while it runs, idle (or failed) after. */
  onEvent(e) {
    if (e.type !== "agent_start" && e.type !== "agent_end") return;
    const m = this.active()?.members.find((x) => x.agentId === e.agentId);
    if (!m) return;
    const op = e.type === "agent_start" ? { op: "member", actor: m.name, name: m.name, status: "working", ...e.worktree ? { branch: e.worktree.branch } : {} } : { op: "member", actor: m.name, name: m.name, status: e.status === "failed" ? "failed" : "idle" };
    this.statusWrites = this.statusWrites.then(() => this.run(op)).catch((err) => this.s.onError(new Error(`Could not record the status of team member ${m.name}: ${err.message}`)));
  }
  /** Waits for member status writes still on their way to the log. */
  async flush() {
    await this.statusWrites;
  }
};

// src/main/runtime/orchestration/team/index.ts
function teamToolsFor(m, handle, opts) {
  const taskTools = () => createTaskListTools({ manager: m, actor: () => m.actorOf(handle) });
  if (opts.isMain) {
    const tools = [...createLeadTools(m, handle), ...taskTools().filter((t) => t.name !== TASK_CLAIM), createRespondTool(m, handle)];
    return tools.filter((t) => opts.wanted.has(t.name));
  }
  if (!m.memberOf(handle)) return [];
  return [...taskTools(), ...createMemberTools(m, handle), createRespondTool(m, handle)];
}
function memberToolNames(m, handle) {
  return m.memberOf(handle) ? MEMBER_TOOL_NAMES : [];
}
function memberDefinitionFor(m, handle, def) {
  const team = m.active();
  const member = m.memberOf(handle);
  if (!team || !member) return def;
  return memberDefinition(def, { team: team.name, description: team.description, name: member.name, agentType: def.agentType, members: team.members.map((x) => x.name) });
}

// src/main/runtime/orchestration/session-tools.ts
var SessionTools = class {
  constructor(s, opts) {
    this.s = s;
    this.opts = opts;
  }
  s;
  opts;
  state = /* @__PURE__ */ new Map();
  /** Every tool name an agent could be given, for tool resolution. */
  names() {
    return [
      ...BUILTIN_TOOL_NAMES,
      AGENT_TOOL_NAME,
      SEND_MESSAGE_TOOL_NAME,
      TASK_OUTPUT_TOOL_NAME,
      TASK_STOP_TOOL_NAME,
      ...this.s.coordinator ? [SET_PHASE_TOOL_NAME] : [],
      ...this.s.teamsEnabled ? TEAM_TOOL_NAMES : [],
      ...this.s.extensions.toolNames()
    ];
  }
  /** The named tools for one agent, built on its cwd (a member of the active team gets the member tools too). */
  build(handle, names) {
    const s = this.s;
    let state = this.state.get(handle.id);
    if (!state) this.state.set(handle.id, state = { fileState: new FileState(), todos: new TodoList() });
    const wanted = /* @__PURE__ */ new Set([...names, ...memberToolNames(s.team, handle)]);
    const isMain = handle.id === s.mainAgentId;
    const tools = createBuiltinTools({
      cwd: handle.cwd,
      fileState: state.fileState,
      todos: state.todos,
      paths: s.pathPolicy(handle),
      sandbox: s.bashSandbox(handle),
      ...this.opts.ripgrep !== void 0 ? { ripgrep: this.opts.ripgrep } : {}
    });
    if (wanted.has(AGENT_TOOL_NAME)) {
      const spawn7 = (input, ctx) => spawnSubagent(s, handle, input, ctx);
      tools.push(createAgentTool({ agents: () => [...s.agents().values()].map((l) => l.definition), spawn: s.coordinator && isMain ? s.coordinator.wrapSpawn(spawn7) : spawn7 }));
    }
    if (s.coordinator && isMain && wanted.has(SET_PHASE_TOOL_NAME)) tools.push(s.coordinator.setPhaseTool(handle));
    if (s.teamsEnabled || !isMain) tools.push(...teamToolsFor(s.team, handle, { isMain, wanted }));
    if (wanted.has(SEND_MESSAGE_TOOL_NAME)) tools.push(createSendMessageTool(s, handle));
    for (const t of tools) if (BUILTIN_TOOL_NAMES.includes(t.name) || t.name === AGENT_TOOL_NAME || t.name === SEND_MESSAGE_TOOL_NAME) t.sameForEveryAgent = true;
    const taskHost = { registry: s.registry, outputTail: this.opts.outputTail };
    if (wanted.has(TASK_OUTPUT_TOOL_NAME)) tools.push(createTaskOutputTool(taskHost));
    if (wanted.has(TASK_STOP_TOOL_NAME)) tools.push(createTaskStopTool(taskHost));
    return s.extensions.tools(handle, tools.filter((t) => wanted.has(t.name)), wanted);
  }
};

// src/main/runtime/orchestration/session.ts
var AgentSession = class _AgentSession {
  constructor(options) {
    this.options = options;
    this.sessionId = options.sessionId ?? randomUUID3();
    this.home = options.home ?? homedir6();
    this.aliases = options.aliases ?? { ...DEFAULT_MODEL_ALIASES };
    this.gate = new SpawnGate({ ...DEFAULT_LIMITS, ...options.limits }, () => (this.reopened?.costUsd ?? 0) + this.registry.totalUsage().costUsd);
    this.client = budgetedClient(options.client, this.gate);
    this.mainAgentId = `main-${this.sessionId.slice(0, 8)}`;
    this.dataDir = options.dataDir;
    this.backgroundStallMs = options.backgroundStallMs ?? DEFAULT_BACKGROUND_STALL_MS;
    const files = options.dataDir ? sessionDir(options.dataDir, this.sessionId) : join39(tmpdir4(), `fanout-${this.sessionId}`);
    this.outputLogs = new OutputLogs(options.dataDir ? join39(files, "outputs") : files, this.onError);
    this.persistence = options.dataDir ? new SessionPersistence({ dataDir: options.dataDir, sessionId: this.sessionId, cwd: options.cwd, title: options.title, registry: this.registry, onError: this.onError }) : null;
    this.mainConfig = { ...options.model ? { model: options.model } : {}, ...options.permissionMode ? { permissionMode: options.permissionMode } : {}, ...options.effort !== void 0 ? { effort: options.effort } : {} };
    this.extensions = new SessionExtensions({
      sessionId: this.sessionId,
      cwd: options.cwd,
      home: this.home,
      mainAgentId: this.mainAgentId,
      dataDir: options.dataDir,
      registry: this.registry,
      emit: (e) => this.emit(e),
      ...options.mcpServers ? { mcpServers: options.mcpServers } : {},
      ...options.mcpStartTimeoutMs ? { mcpStartTimeoutMs: options.mcpStartTimeoutMs } : {},
      ...options.managedSettingsFile !== void 0 ? { managedSettingsFile: options.managedSettingsFile } : {},
      ...options.passEnvironment ? { passEnv: options.passEnvironment } : {}
    });
    this.definitions = new SessionDefinitions({ cwd: options.cwd, home: this.home, ...options.agentSources ? { agentSources: options.agentSources } : {} });
    this.sandbox = new SessionSandbox(
      { sessionId: this.sessionId, mainAgentId: this.mainAgentId, emit: (e) => this.emit(e), ...options.sandboxRuntime ? { runtime: options.sandboxRuntime } : {} },
      () => this.permissions.settings?.sandbox.disabledBy,
      () => options.headless === true
    );
    this.permissions = new SessionPermissions(this, options);
    this.tools = new SessionTools(this, { ...options.ripgrep !== void 0 ? { ripgrep: options.ripgrep } : {}, outputTail: (h) => this.outputLogs.get(h.id)?.tail() });
    this.main = new MainAgent(this, this.mainConfig);
    this.dormant = new DormantAgents(this.dormantContext());
    this.team = new TeamManager(this, join39(files, "team", "log.jsonl"));
    if (options.coordinator) this.enableCoordinator();
  }
  options;
  sessionId;
  home;
  bus = new EventBus();
  /** The `seq` of the latest event emitted (see EventBase.seq). */
  lastSeq = 0;
  registry = new AgentRegistry();
  gate;
  client;
  aliases;
  mainAgentId;
  dataDir;
  backgroundStallMs;
  /** What reopening the session found wrong or repaired (empty for a new session). */
  openNotes = [];
  definitions;
  outputLogs;
  runs = /* @__PURE__ */ new Set();
  dormant;
  persistence;
  permissions;
  /** The Bash sandbox as this session uses it. */
  sandbox;
  tools;
  main;
  mainConfig;
  /** The recorded session this one reopened: its title, its agents, what it had spent before the restart, and when it began and last did something. */
  reopened = null;
  /** MCP servers and hooks around the agents' tools. */
  extensions;
  /** Set in coordinator mode: the current phase and the SetPhase tool. */
  coordinator = null;
  /** The session's agent team (one at a time), its durable task list and tools. */
  team;
  /** Coordinator mode from now on (also when a reopened session's main agent ran as the coordinator). */
  enableCoordinator() {
    this.coordinator ??= new Coordinator(this);
    this.mainConfig.coordinator = true;
  }
  get teamsEnabled() {
    return this.options.teams === true || this.coordinator !== null;
  }
  subscribe(listener) {
    return this.bus.subscribe(listener);
  }
  static async create(options) {
    const session = new _AgentSession(options);
    await session.reload();
    return session;
  }
  /**
   * Reopens a recorded session after a restart: the main agent's conversation is restored, so `run()`
   * continues it; earlier subagents can be resumed, messaged and inspected by id or name. Agents that were
   * cut off are not restarted until `resumeInterrupted()` is called.
   */
  static async open(options) {
    const opened = await openSession(options.dataDir, options.sessionId);
    const cwd2 = options.cwd ?? opened.index.cwd;
    if (!cwd2) throw new Error(`Session ${options.sessionId} does not say which folder it worked in; pass cwd to reopen it.`);
    const session = new _AgentSession({ ...options, cwd: cwd2 });
    session.openNotes.push(...opened.notes);
    session.reopened = { title: opened.index.title, costUsd: opened.index.costUsd, agentIds: Object.keys(opened.index.agents), createdAt: opened.index.createdAt, updatedAt: opened.index.updatedAt };
    await session.reload();
    const main = await loadAgentForResume(options.dataDir, options.sessionId, session.mainAgentId).catch(() => null);
    if (main) {
      session.openNotes.push(...main.notes.filter((n) => !n.includes("has no saved state")));
      let agentType = main.state && main.state.definition.name !== "main" ? main.state.definition.name : void 0;
      if (agentType === COORDINATOR_AGENT_TYPE) {
        session.enableCoordinator();
        agentType = void 0;
      }
      session.main.restore(repairConversation(main.messages).messages, agentType);
      session.coordinator?.restore(main.messages);
    }
    if (opened.interrupted.some((e) => e.agentId === session.mainAgentId)) session.mainHandle().status = "interrupted";
    session.dormant.cutOff = Object.values(opened.index.agents).filter((a) => a.status === "interrupted" && a.agentId !== session.mainAgentId);
    await session.team.load();
    return session;
  }
  get cwd() {
    return this.options.cwd;
  }
  get mainPermissionMode() {
    return this.main.modeFor(void 0);
  }
  /** The main agent's last finished run (after idle(), the answer to the last prompt or report). */
  get lastResult() {
    return this.main.lastResult;
  }
  /** The permission settings in force (rules, defaultMode, and problems found in the files). */
  get permissionSettings() {
    return this.permissions.settings;
  }
  /** Re-reads agent definitions, CLAUDE.md and permission settings; what changed on disk applies to the next spawn. */
  async reload() {
    await this.definitions.reload();
    this.extensions.reload();
    const settings = this.permissions.reload();
    if (settings) this.mainConfig.defaultMode = settings.defaultMode;
  }
  onError = (err) => {
    if (this.options.onError) this.options.onError(err);
    else console.error(`fanout: ${err.message}`);
  };
  emit = (event) => {
    event.seq = this.lastSeq = Math.max(Date.now() * 1e3, this.lastSeq + 1);
    this.registry.note(event);
    this.persistence?.record(event);
    this.outputLogs.get(event.agentId)?.add(event);
    this.bus.emit(event);
  };
  agents() {
    return this.definitions.agents();
  }
  newAgentId() {
    return `a${randomBytes5(8).toString("hex")}`;
  }
  availableToolNames() {
    return this.tools.names();
  }
  get hooks() {
    return this.extensions.hooks;
  }
  prepareRun(handle, def) {
    return this.extensions.prepareRun(handle, def);
  }
  buildTools(handle, names) {
    return this.tools.build(handle, names);
  }
  systemPrompt(def, handle, worktree) {
    return this.definitions.systemPrompt(memberDefinitionFor(this.team, handle, def), handle, worktree);
  }
  canUseTool(handle) {
    return this.permissions.canUseTool(handle);
  }
  /** How this agent's Bash commands are sandboxed: read-only in plan mode and for read-only agents. */
  bashSandbox(handle) {
    return {
      runtime: this.sandbox.runtime(),
      floor: handle.permissionMode === "plan" || isReadOnlyAgent(handle.definition) ? "read-only" : "workspace",
      allowedDomains: () => this.permissions.settings?.sandbox.allowedDomains ?? [],
      secretFiles: [credentialsPath(this.options.dataDir ?? resolveDataDir())],
      ...this.options.passEnvironment ? { passEnv: this.options.passEnvironment } : {}
    };
  }
  /** The one path check for this agent's tools and permission decisions. */
  pathPolicy(handle) {
    return this.permissions.pathPolicy(handle);
  }
  outputLog(handle) {
    return this.outputLogs.for(handle.id);
  }
  track(run) {
    this.runs.add(run);
    const done = () => this.runs.delete(run);
    run.then(done, done);
  }
  mainHandle() {
    return this.main.getHandle();
  }
  deliver(target2, text2, opts) {
    return deliverTo(this, this.main, target2, text2, opts);
  }
  resumeFromInbox(handle, reportTo) {
    const maxTurns = handle.definition?.maxTurns;
    startSubagentRun(this, handle, { history: repairConversation(handle.messages).messages, reportTo, ...maxTurns !== void 0 ? { maxTurns } : {} });
  }
  runEnded(handle, result, request2) {
    afterSubagentRun(this, handle, result, request2, () => this.mainHandle());
  }
  async findAgent(idOrName) {
    const live = this.registry.find(idOrName);
    if (live || !this.dataDir) return live;
    return this.dormant.find(idOrName);
  }
  /** This session as the resume helpers see it; only called when it has a data folder. */
  dormantContext() {
    return this;
  }
  claimMailbox(handle) {
    return claimMailbox(this, handle);
  }
  /** Sends a prompt to the main agent; a follow-up continues the same conversation. */
  run(prompt, opts = {}) {
    const note = this.dormant.takeCutOffNote();
    if (!note) return this.main.run(prompt, opts);
    const blocks = [{ type: "text", text: prompt }, reminderBlock(note)];
    return this.main.run(blocks, opts);
  }
  /** Stops one agent and its descendants (default: the main agent, and so everything). */
  stop(agentId = this.mainAgentId, byUser = true) {
    return this.registry.stop(agentId, byUser);
  }
  /**
   * A message to an agent by id or name (`main` for the main agent), from the person (`user`) or an agent id.
   * Running: read at its next turn. Finished or stopped: resumed with it. Unknown to this session (not
   * started yet): kept in its durable mailbox (needs a dataDir). Throws when it cannot be delivered at all.
   */
  sendMessage(to, message, from = "user", summary) {
    return sendMessage(this, to, message, from, summary);
  }
  /** Answers a `permission_request` event. Throws when no such request is waiting. */
  respondPermission(requestId, decision) {
    this.permissions.respond(requestId, decision);
  }
  /** Permission requests waiting for an answer (e.g. to show them again after the UI reconnects). */
  pendingPermissions() {
    return this.permissions.pending();
  }
  /** Restarts the agents a crash or quit cut off (never ones the person stopped); needs a dataDir. */
  async resumeInterrupted() {
    if (!this.dataDir) return { resumed: [], problems: [] };
    return resumeInterrupted(this.dormantContext(), (note) => {
      this.deliver(this.mainHandle(), note, { from: "fanout" });
    });
  }
  /** Fanout worktrees of this folder's repository whose agent is not running here: left behind by a crash, or kept work. */
  findOrphans() {
    return findOrphanWorktrees({ repoCwd: this.cwd, isLive: (id) => this.registry.isLive(id) });
  }
  /** Removes an orphaned worktree (see cleanupOrphanWorktree: refuses uncommitted work unless forced). */
  cleanupOrphan(orphan, options = {}) {
    if (this.registry.isLive(orphan.agentId)) return Promise.resolve({ removed: false, branchDeleted: false, reason: `agent ${orphan.agentId} is running in this session` });
    return cleanupOrphanWorktree(orphan, options);
  }
  /** Resolves once nothing runs: the main agent, every subagent (background ones too), and the runs their reports wake. */
  async idle() {
    while (this.runs.size) await Promise.allSettled([...this.runs]);
  }
  /** Everything recorded so far is on disk: transcripts, session.json, state files and output logs. */
  async flush() {
    await this.team.flush();
    await Promise.all([this.persistence?.flush(), this.outputLogs.flush()]);
  }
  /** Flushes and releases the session's files. Call after stop() and idle() when the session is done. */
  async close() {
    await this.extensions.close();
    await this.team.flush();
    await this.outputLogs.flush();
    await this.persistence?.close();
  }
};

// ../../../tmp/prof/prof.ts
var L = 300;
var mode = process.argv[2] ?? "off";
var rg2 = process.argv[3] === "js" ? false : void 0;
var child = spawn6(process.execPath, ["/work/wt/cache/out/bench/index.mjs", "--cost-server"], { stdio: ["pipe", "pipe", "inherit"] });
var lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
var url = (await lines.next()).value.trim();
var ask = async (l) => {
  child.stdin.write(l + "\n");
  return (await lines.next()).value;
};
var root = mkdtempSync(join40(tmpdir5(), "tl-"));
var cwd = join40(root, "p");
mkdirSync3(join40(cwd, "src"), { recursive: true });
for (let i = 0; i < 20; i++) writeFileSync(join40(cwd, "src", `f${i}.ts`), "x");
execFileSync("git", ["init", "-q", cwd]);
var http = createHttpFetch();
var insp = new Session();
insp.connect();
var reps = Number(process.env.REPS ?? 6);
var all = [];
for (let rep = 0; rep < reps; rep++) {
  if (rep === 1 && !process.env.NOPROF) {
    await insp.post("Profiler.enable");
    await insp.post("Profiler.setSamplingInterval", { interval: 100 });
    await insp.post("Profiler.start");
  }
  await ask(`reset ${L}`);
  const client = createModelClient({ apiKey: "k" + rep, baseURL: url, maxRetries: 0, env: {}, cacheSharing: mode, fetch: http });
  const session = await AgentSession.create({ cwd, home: root, client, managedSettingsFile: null, limits: { maxConcurrent: 1e3 }, ...process.env.NODATA ? {} : { dataDir: mkdtempSync(join40(tmpdir5(), "tld-")) }, ...rg2 === false ? { ripgrep: false } : {} });
  const r = await session.run(`${FAN_OUT_MARK} N=16: go`);
  const end = performance.timeOrigin + performance.now();
  await session.close();
  const st = JSON.parse(await ask("stats"));
  all.push(end - st.firstArrival - (mode === "off" ? 4 : 5) * L);
}
if (!process.env.NOPROF) {
  const { profile } = await insp.post("Profiler.stop");
  writeFileSync("/tmp/prof/cpu2/p.cpuprofile", JSON.stringify(profile));
}
all.shift();
all.sort((a, b) => a - b);
console.log(mode, rg2 === false ? "js" : "rg", process.env.NODATA ? "no transcripts" : "transcripts", "overhead min", all[0].toFixed(0), "median", all[all.length >> 1].toFixed(0), "all", all.map((x) => x.toFixed(0)).join(" "));
child.kill();

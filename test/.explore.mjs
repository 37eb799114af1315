// ../../../tmp/ccx/explore.ts
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname as dirname2, join as join2 } from "node:path";

// src/main/runtime/model/scripted/server.ts
import { createHash as createHash2 } from "node:crypto";
import { createServer } from "node:http";

// src/shared/settings-fields.ts
var MODEL_ALIAS_NAMES = ["haiku", "sonnet", "opus"];
var isModelAlias = (value) => MODEL_ALIAS_NAMES.includes(value.toLowerCase());

// src/shared/error-message.ts
function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

// src/main/runtime/model/aliases.ts
var MODEL_FAMILIES = ["haiku", "sonnet", "opus"];
var DEFAULT_MODEL_ALIASES = Object.freeze({
  haiku: "claude-haiku-5-5",
  sonnet: "claude-sonnet-5-5",
  opus: "claude-opus-5-5"
});
var DEFAULT_FABLE_MODEL = "claude-fable-5-2";
var OTHER_ALIASES = {
  fable: (a) => a.fable ?? DEFAULT_FABLE_MODEL,
  best: (a) => a.opus,
  opusplan: (a) => a.sonnet
};
var ALIAS_NAMES = [...MODEL_FAMILIES, ...Object.keys(OTHER_ALIASES)];
var withoutContextSuffix = (value) => value.replace(/\[1m\]$/i, "");

// src/main/runtime/model/prompt-cache-rules.ts
var MAX_CACHE_BREAKPOINTS = 4;
var CACHE_LOOKBACK_BLOCKS = 20;
var CACHE_TTL_MS = Object.freeze({ "5m": 5 * 6e4, "1h": 60 * 6e4 });
var CACHE_PRICE = Object.freeze({ write5m: 1.25, write1h: 2, read: 0.1 });
function cacheTtlOf(control) {
  if (!control || typeof control !== "object" || control.type !== "ephemeral") return null;
  const ttl = control.ttl;
  if (ttl === void 0) return "5m";
  return ttl === "5m" || ttl === "1h" ? ttl : null;
}
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

// src/main/runtime/compaction/summary-prompt.ts
var SUMMARY_REQUEST_HEADER = "Context compaction: write a summary of the conversation so far.";

// src/main/runtime/model/types.ts
var CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27";

// src/main/runtime/model/scripted/usage.ts
var estimateTokens = (text) => Math.max(1, Math.ceil(text.length / 4));
function requestTokens(body) {
  return estimateTokens(JSON.stringify(body.system ?? "") + JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages ?? []));
}
var promptTooLongMessage = (tokens, window) => `prompt is too long: ${tokens} tokens > ${window} maximum`;
var CLEARED_RESULT_TEXT = "[Tool result cleared by the API to save context]";
function applyContextManagement(body, headers) {
  const cm = body?.context_management;
  if (cm === void 0) return { edits: null };
  const betas = String(headers["anthropic-beta"] ?? "").split(",").map((b) => b.trim());
  if (!betas.includes(CONTEXT_MANAGEMENT_BETA)) return { error: "context_management: Extra inputs are not permitted" };
  const edits = Array.isArray(cm?.edits) ? cm.edits : [];
  let applied = null;
  for (const edit of edits) {
    if (edit?.type === "clear_thinking_20251015") {
      clearThinking(body, edit.keep);
      continue;
    }
    if (edit?.type !== "clear_tool_uses_20250919") return { error: `context_management.edits: unknown edit type '${String(edit?.type)}'` };
    const trigger = edit.trigger?.value ?? 1e5;
    const keep = edit.keep?.value ?? 3;
    const atLeast = edit.clear_at_least?.value ?? 0;
    if (requestTokens(body) <= trigger) continue;
    const results = [];
    for (const m of Array.isArray(body.messages) ? body.messages : [])
      if (Array.isArray(m.content)) {
        for (const b of m.content) if (b?.type === "tool_result" && b.content !== CLEARED_RESULT_TEXT) results.push(b);
      }
    const clear = results.slice(0, Math.max(0, results.length - keep));
    const freed = clear.reduce((n, b) => n + estimateTokens(JSON.stringify(b.content)) - estimateTokens(JSON.stringify(CLEARED_RESULT_TEXT)), 0);
    if (!clear.length || freed < atLeast) continue;
    for (const b of clear) b.content = CLEARED_RESULT_TEXT;
    applied = { clearedToolUses: (applied?.clearedToolUses ?? 0) + clear.length, clearedInputTokens: (applied?.clearedInputTokens ?? 0) + freed };
  }
  return { edits: applied };
}
function clearThinking(body, keep) {
  if (keep === "all") return;
  const n = typeof keep?.value === "number" ? keep.value : 1;
  const turns = (Array.isArray(body.messages) ? body.messages : []).filter((m) => m.role === "assistant" && Array.isArray(m.content));
  for (const m of turns.slice(0, Math.max(0, turns.length - n)))
    m.content = m.content.filter((b) => b?.type !== "thinking" && b?.type !== "redacted_thinking");
}
function usageOf(reply2, req) {
  const outputChars = reply2.content.reduce((n, b) => n + JSON.stringify(b).length, 0);
  const cache = reply2.usage?.input_tokens !== void 0 ? void 0 : req.cache;
  const written = cache ? cache.write5m + cache.write1h : 0;
  return {
    input_tokens: reply2.usage?.input_tokens ?? cache?.uncached ?? req.inputTokens,
    output_tokens: reply2.usage?.output_tokens ?? (outputChars ? Math.max(1, Math.ceil(outputChars / 4)) : 0),
    cache_read_input_tokens: reply2.usage?.cache_read_input_tokens ?? cache?.read ?? 0,
    cache_creation_input_tokens: reply2.usage?.cache_creation_input_tokens ?? written,
    // The split of the writes by lifetime, as the API reports it.
    cache_creation: reply2.usage?.cache_creation_input_tokens !== void 0 ? { ephemeral_5m_input_tokens: reply2.usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 } : { ephemeral_5m_input_tokens: cache?.write5m ?? 0, ephemeral_1h_input_tokens: cache?.write1h ?? 0 }
  };
}

// src/main/runtime/model/scripted/parse-request.ts
function takesSystemMessages(model) {
  const v = versionOf(model);
  if (!v) return false;
  const at = (major, minor = 0) => v.major > major || v.major === major && v.minor >= minor;
  if (v.family === "fable") return at(5);
  if (v.family === "mythos") return !v.preview && at(5);
  if (v.family === "opus") return at(4, 8);
  if (v.family === "sonnet") return at(5);
  return false;
}
function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => b?.type === "text" && typeof b.text === "string").map((b) => b.text).join("\n");
}
function toolResultsOf(content) {
  if (!Array.isArray(content)) return [];
  return content.filter((b) => b?.type === "tool_result").map((b) => ({ toolUseId: b.tool_use_id, content: typeof b.content === "string" ? b.content : textOf(b.content), isError: b.is_error === true }));
}
function parseRequest(method, path, headers, body, contextEdits = null) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  const users = messages.filter((m) => m.role === "user");
  const lastUser = users[users.length - 1];
  return {
    method,
    path,
    headers,
    body: body ?? null,
    model: typeof body?.model === "string" ? body.model : "",
    system: textOf(body?.system),
    messages,
    tools,
    toolNames: tools.map((t) => t.name),
    stream: body?.stream === true,
    maxTokens: body?.max_tokens,
    thinking: body?.thinking,
    firstUserText: users.length ? textOf(users[0].content) : "",
    lastUserText: lastUser ? textOf(lastUser.content) : "",
    toolResults: lastUser ? toolResultsOf(lastUser.content) : [],
    turn: messages.filter((m) => m.role === "assistant").length,
    inputTokens: body ? requestTokens(body) : 0,
    contextEdits,
    isSummaryRequest: lastUser ? textOf(lastUser.content).startsWith(SUMMARY_REQUEST_HEADER) : false
  };
}
var TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
function validateMessagesBody(body) {
  if (!body || typeof body !== "object") return "Request body must be a JSON object.";
  if (typeof body.model !== "string" || !body.model) return "model: Field required";
  if (isModelAlias(withoutContextSuffix(body.model))) return `model: ${body.model} is an alias, not a model id`;
  if (typeof body.max_tokens !== "number" || body.max_tokens < 0 || !Number.isInteger(body.max_tokens))
    return "max_tokens: Field required (a whole number, 0 to pre-warm the cache)";
  if (!Array.isArray(body.messages) || !body.messages.length) return "messages: at least one message is required";
  let breakpoints = 0;
  const countCache = (b) => {
    if (b && typeof b === "object" && b.cache_control) breakpoints++;
  };
  if (Array.isArray(body.system)) body.system.forEach(countCache);
  const names = /* @__PURE__ */ new Set();
  for (const [i, t] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (!TOOL_NAME.test(t?.name ?? "")) return `tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    if (names.has(t.name)) return `tools: Tool names must be unique (${t.name})`;
    names.add(t.name);
    if (t.input_schema?.type !== "object") return `tools.${i}.input_schema.type: Input should be 'object'`;
    countCache(t);
  }
  const messages = body.messages;
  if (messages[0].role !== "user") return 'messages: first message must use the "user" role';
  const systemRole = takesSystemMessages(body.model);
  for (const [i, m] of messages.entries()) {
    if (m.role === "system" && systemRole) {
      const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
      if (!Array.isArray(blocks) || !blocks.length || blocks.some((b) => b?.type !== "text" || !b.text))
        return `messages.${i}: a system message holds non-empty text blocks only`;
      continue;
    }
    if (m.role !== "user" && m.role !== "assistant") return `messages.${i}.role: Input should be 'user' or 'assistant'${systemRole ? " or 'system'" : ""}`;
    if (typeof m.content === "string") {
      if (!m.content && i !== messages.length - 1) return `messages.${i}: all messages must have non-empty content`;
      continue;
    }
    if (!Array.isArray(m.content) || !m.content.length) return `messages.${i}: all messages must have non-empty content`;
    let seenOther = false;
    for (const [j, b] of m.content.entries()) {
      countCache(b);
      if (b.type === "text" && !b.text) return `messages.${i}.content.${j}.text: text content blocks must be non-empty`;
      if (b.type === "tool_result") {
        if (m.role !== "user") return `messages.${i}.content.${j}: tool_result blocks are only allowed in user messages`;
        if (seenOther) return `messages.${i}: tool_result blocks must come first in the content, before any other block`;
      } else seenOther = true;
      if (b.type === "tool_use" && m.role !== "assistant") return `messages.${i}.content.${j}: tool_use blocks are only allowed in assistant messages`;
    }
    if (m.role === "assistant") {
      const uses = m.content.filter((b) => b.type === "tool_use").map((b) => b.id);
      if (!uses.length) continue;
      const next = messages[i + 1];
      const answered = new Set(
        next && Array.isArray(next.content) ? next.content.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id) : []
      );
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length)
        return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    if (m.role === "user" && i > 0) {
      const prev = messages[i - 1];
      const asked = new Set(
        prev.role === "assistant" && Array.isArray(prev.content) ? prev.content.filter((b) => b.type === "tool_use").map((b) => b.id) : []
      );
      for (const r of toolResultsOf(m.content))
        if (!asked.has(r.toolUseId))
          return `messages.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${r.toolUseId}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
  }
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  return null;
}

// src/main/runtime/model/scripted/prompt-cache.ts
import { createHash } from "node:crypto";
var tokensOf = (chars) => Math.round(chars / 4);
var hash = (prev, text) => createHash("sha1").update(prev).update("\0").update(text).digest("base64");
function canonical(block2) {
  if (!block2 || typeof block2 !== "object") return JSON.stringify(block2);
  const { cache_control: _marker, ...rest } = block2;
  return JSON.stringify(rest);
}
function blocksOf(content) {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}
var BILLING_HEADER = "x-anthropic-billing-header:";
var isThinking = (b) => b?.type === "thinking" || b?.type === "redacted_thinking";
var hasImage = (body) => JSON.stringify(body.messages ?? []).includes('"type":"image"');
function levelSalts(body) {
  return {
    tools: "",
    system: JSON.stringify({ speed: body.speed ?? "standard" }),
    messages: JSON.stringify({
      thinking: body.thinking ?? null,
      effort: body.output_config?.effort ?? null,
      toolChoice: body.tool_choice ?? null,
      images: hasImage(body)
    })
  };
}
function cacheBlocks(body, workspace) {
  const salts = levelSalts(body);
  const raw = [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  tools.forEach(
    (t, i) => raw.push({ text: canonical(t), control: t?.cache_control, eligible: true, where: `tools.${i}`, thinking: false, ...i === 0 ? { salt: salts.tools } : {} })
  );
  const system = (typeof body.system === "string" ? body.system ? [{ type: "text", text: body.system }] : [] : Array.isArray(body.system) ? body.system : []).filter((b) => !(typeof b?.text === "string" && b.text.startsWith(BILLING_HEADER)));
  system.forEach(
    (b, i) => raw.push({
      text: canonical(b),
      control: b?.cache_control,
      eligible: !!b?.text,
      where: `system.${i}`,
      thinking: false,
      ...i === 0 ? { salt: salts.system } : {}
    })
  );
  let first = true;
  for (const [mi, m] of (Array.isArray(body.messages) ? body.messages : []).entries()) {
    blocksOf(m?.content).forEach((b, bi) => {
      raw.push({
        text: `${bi === 0 ? `<${m.role}>` : ""}${canonical(b)}`,
        control: b?.cache_control,
        eligible: !isThinking(b) && !(b?.type === "text" && !b.text),
        where: `messages.${mi}.content.${bi}`,
        thinking: isThinking(b),
        ...first ? { salt: salts.messages } : {}
      });
      first = false;
    });
  }
  let explicit = 0;
  let lastTtl = null;
  for (const r of raw) {
    if (r.control === void 0 || r.control === null) continue;
    if (r.thinking) return { error: `${r.where}.cache_control: Thinking blocks cannot be cached directly with cache_control.` };
    const ttl = cacheTtlOf(r.control);
    if (!ttl) return { error: `${r.where}.cache_control: Input should be {"type": "ephemeral"} with an optional ttl of "5m" or "1h".` };
    if (ttl === "1h" && lastTtl === "5m")
      return { error: `${r.where}.cache_control: a ttl='1h' cache_control block must not come after a ttl='5m' block (longer TTLs first).` };
    lastTtl = ttl;
    explicit++;
  }
  const marks = raw.map((r) => r.control ? cacheTtlOf(r.control) ?? void 0 : void 0);
  if (body.cache_control !== void 0) {
    const ttl = cacheTtlOf(body.cache_control);
    if (!ttl) return { error: 'cache_control: Input should be {"type": "ephemeral"} with an optional ttl of "5m" or "1h".' };
    let at = raw.length - 1;
    while (at >= 0 && !raw[at].eligible) at--;
    if (at >= 0 && marks[at] !== void 0 && marks[at] !== ttl)
      return { error: `cache_control: the last block already has a cache_control with ttl '${marks[at]}', not '${ttl}'.` };
    if (at >= 0 && marks[at] === void 0) {
      if (explicit >= MAX_CACHE_BREAKPOINTS)
        return {
          error: `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided, and automatic caching needs one of them. Found ${explicit}.`
        };
      if (ttl === "1h" && marks.includes("5m"))
        return { error: "cache_control: a ttl='1h' automatic breakpoint must not come after a ttl='5m' block (longer TTLs first)." };
      marks[at] = ttl;
      explicit++;
    }
  }
  if (explicit > MAX_CACHE_BREAKPOINTS) return { error: `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${explicit}.` };
  let key = hash(workspace, `model:${body.model}`);
  let chars = 0;
  const blocks = raw.map((r, i) => {
    key = hash(key, (r.salt ?? "") + r.text);
    chars += r.text.length;
    return { key, tokens: tokensOf(chars), eligible: r.eligible, ...marks[i] ? { breakpoint: marks[i] } : {} };
  });
  return { blocks, total: Math.max(1, tokensOf(chars)) };
}
var PromptCache = class {
  entries = /* @__PURE__ */ new Map();
  now;
  minTokens;
  constructor(opts = {}) {
    this.now = opts.now ?? (() => performance.now());
    this.minTokens = opts.minTokens ?? minCacheableTokens;
  }
  /** Forgets every entry (a benchmark's next run starts cold). */
  clear() {
    this.entries.clear();
  }
  /** Live entries (tests). */
  size() {
    const t = this.now();
    return [...this.entries.values()].filter((e) => e.expiresAt > t).length;
  }
  /** What a request arriving now reads and will write; an error is the API's 400 message. */
  plan(body, workspace = "") {
    const chain = cacheBlocks(body, workspace);
    if ("error" in chain) return chain;
    const { blocks, total } = chain;
    const at = this.now();
    this.evict(at);
    const breakpoints = blocks.flatMap((b2, i) => b2.breakpoint ? [i] : []);
    const readable = (i) => {
      const e = this.entries.get(blocks[i].key);
      return e !== void 0 && e.availableAt <= at && e.expiresAt > at;
    };
    let hitAt = -1;
    for (let k = breakpoints.length - 1; k >= 0 && hitAt < 0; k--) {
      const bp = breakpoints[k];
      for (let i = bp; i > bp - CACHE_LOOKBACK_BLOCKS && i >= 0; i--) {
        if (readable(i)) {
          hitAt = i;
          break;
        }
      }
    }
    if (hitAt >= 0) {
      const e = this.entries.get(blocks[hitAt].key);
      e.expiresAt = Math.max(e.expiresAt, at + CACHE_TTL_MS[e.ttl]);
    }
    const tokensAt = (i) => i < 0 ? 0 : blocks[i].tokens;
    const min = this.minTokens(String(body.model));
    const writing = breakpoints.filter((i) => i > hitAt && tokensAt(i) >= min);
    const a = tokensAt(hitAt);
    const lastHour = writing.filter((i) => blocks[i].breakpoint === "1h").pop();
    const b = lastHour !== void 0 ? tokensAt(lastHour) : a;
    const c = writing.length ? tokensAt(writing[writing.length - 1]) : a;
    return {
      total,
      uncached: Math.max(0, total - c),
      read: a,
      write1h: b - a,
      write5m: c - b,
      hitAt,
      writes: writing.map((i) => ({ key: blocks[i].key, ttl: blocks[i].breakpoint })),
      at
    };
  }
  /** The response to a planned request began: its entries become readable from now. */
  commit(plan) {
    const t = this.now();
    for (const w of plan.writes) {
      const expiresAt = plan.at + CACHE_TTL_MS[w.ttl];
      const e = this.entries.get(w.key);
      if (e && e.expiresAt > t) {
        e.expiresAt = Math.max(e.expiresAt, expiresAt);
        if (w.ttl === "1h") e.ttl = "1h";
      } else this.entries.set(w.key, { ttl: w.ttl, availableAt: t, expiresAt });
    }
  }
  evict(t) {
    if (this.entries.size < 1e4) return;
    for (const [k, e] of this.entries) if (e.expiresAt <= t) this.entries.delete(k);
  }
};

// src/main/runtime/model/scripted/sse.ts
var frame = (event, data, isDelta = false) => ({ text: `event: ${event}
data: ${JSON.stringify(data)}

`, isDelta });
function chunks(text, size) {
  if (!text) return [];
  const out2 = [];
  for (let i = 0; i < text.length; i += size) out2.push(text.slice(i, i + size));
  return out2;
}
function defaultStopReason(reply2) {
  return reply2.stopReason ?? (reply2.content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
}
function toolJson(b) {
  return b.rawJson ?? JSON.stringify(b.input ?? {});
}
function renderStream(reply2, req, ids) {
  const usage = usageOf(reply2, req);
  const model = reply2.model ?? req.model;
  const textChunk = Math.max(1, reply2.textChunk ?? 48);
  const jsonChunk = Math.max(1, reply2.jsonChunk ?? 7);
  const frames = [
    frame("message_start", {
      type: "message_start",
      message: {
        id: ids.messageId,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 }
      }
    }),
    frame("ping", { type: "ping" })
  ];
  reply2.content.forEach((b, index) => {
    const delta = (d) => frames.push(frame("content_block_delta", { type: "content_block_delta", index, delta: d }, true));
    if (b.type === "text") {
      frames.push(frame("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
      for (const c of chunks(b.text, textChunk)) delta({ type: "text_delta", text: c });
    } else if (b.type === "thinking") {
      frames.push(frame("content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } }));
      for (const c of chunks(b.thinking, textChunk)) delta({ type: "thinking_delta", thinking: c });
      if (b.signature) delta({ type: "signature_delta", signature: b.signature });
    } else if (b.type === "redacted_thinking") {
      frames.push(frame("content_block_start", { type: "content_block_start", index, content_block: { type: "redacted_thinking", data: b.data } }));
    } else {
      frames.push(
        frame("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: ids.toolUseId(b), name: b.name, input: {} } })
      );
      for (const c of chunks(toolJson(b), jsonChunk)) delta({ type: "input_json_delta", partial_json: c });
    }
    frames.push(frame("content_block_stop", { type: "content_block_stop", index }));
  });
  frames.push(
    frame("message_delta", {
      type: "message_delta",
      delta: { stop_reason: defaultStopReason(reply2), stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
      ...req.contextEdits ? { context_management: contextManagementOf(req) } : {}
    }),
    frame("message_stop", { type: "message_stop" })
  );
  return frames;
}
function strayDelta() {
  return frame("content_block_delta", { type: "content_block_delta", index: 99, delta: { type: "text_delta", text: "stray" } });
}
function errorFrame(type, message2) {
  return frame("error", { type: "error", error: { type, message: message2 } });
}
function renderMessage(reply2, req, ids) {
  const content = reply2.content.map((b) => {
    if (b.type !== "tool_use") return b.type === "thinking" ? { ...b, signature: b.signature ?? "" } : b;
    let input = b.input ?? {};
    if (b.rawJson !== void 0) {
      try {
        input = JSON.parse(b.rawJson);
      } catch {
        input = {};
      }
    }
    return { type: "tool_use", id: ids.toolUseId(b), name: b.name, input };
  });
  return {
    id: ids.messageId,
    type: "message",
    role: "assistant",
    model: reply2.model ?? req.model,
    content,
    stop_reason: defaultStopReason(reply2),
    stop_sequence: null,
    usage: usageOf(reply2, req),
    context_management: req.contextEdits ? contextManagementOf(req) : null
  };
}
function contextManagementOf(req) {
  const e = req.contextEdits;
  return { applied_edits: e ? [{ type: "clear_tool_uses_20250919", cleared_tool_uses: e.clearedToolUses, cleared_input_tokens: e.clearedInputTokens }] : [] };
}

// src/main/runtime/model/context-window.ts
var DEFAULT_CONTEXT_WINDOW = 2e5;
var ONE_MILLION_WINDOW = 1e6;
function contextWindowFor(model, windows = {}) {
  const own = windows[model] ?? Object.entries(windows).find(([id]) => id.toLowerCase() === model.toLowerCase())?.[1];
  if (own !== void 0 && Number.isFinite(own) && own > 0) return Math.floor(own);
  if (/\[1m\]$|-1m$/i.test(model)) return ONE_MILLION_WINDOW;
  return nativeWindow(model);
}
function nativeWindow(model) {
  const id = model.toLowerCase();
  if (/claude-mythos/.test(id)) return ONE_MILLION_WINDOW;
  const m = /claude-(opus|sonnet|haiku|fable)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(id);
  if (!m) return DEFAULT_CONTEXT_WINDOW;
  const version = Number(m[2]) + Number(m[3] ?? 0) / 10;
  return version >= 5 || m[1] === "opus" && version >= 4.7 ? ONE_MILLION_WINDOW : DEFAULT_CONTEXT_WINDOW;
}

// src/main/runtime/model/scripted/server.ts
var defaultModels = () => Object.entries(DEFAULT_MODEL_ALIASES).map(([line, id]) => ({ id, line, lifecycle: "active", created_at: "2026-11-01T00:00:00Z", display_name: id }));
var wait = (ms) => new Promise((r) => setTimeout(r, ms));
function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
function sendError(res, reply2, requestId) {
  const headers = { "request-id": requestId, ...reply2.headers };
  if (reply2.retryAfterSeconds !== void 0) headers["retry-after"] = String(reply2.retryAfterSeconds);
  sendJson(res, reply2.status, { type: "error", error: { type: reply2.errorType, message: reply2.message }, request_id: requestId }, headers);
}
function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    req.on("data", (c) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
function workspaceOf(req) {
  return String(req.headers["x-api-key"] ?? req.headers.authorization ?? "");
}
function prewarmRefusal(body) {
  if (body.stream === true) return "max_tokens: 0 cannot be used with stream: true.";
  if (body.thinking?.type === "enabled") return "max_tokens: 0 cannot be used with extended thinking.";
  if (body.output_config?.format) return "max_tokens: 0 cannot be used with structured outputs (output_config.format).";
  if (body.tool_choice?.type === "any" || body.tool_choice?.type === "tool") return `max_tokens: 0 cannot be used with tool_choice ${body.tool_choice.type}.`;
  return null;
}
async function startScriptedServer(opts) {
  const cache = opts.promptCache === false ? null : opts.promptCache ?? new PromptCache();
  const latencyOf = () => typeof opts.latencyMs === "function" ? opts.latencyMs() : opts.latencyMs ?? 0;
  const requests = [];
  const bodyCounts = /* @__PURE__ */ new Map();
  let seenRequests = 0;
  const limited = { refused: 0, peakConcurrent: 0 };
  let serving = 0;
  let seq = 0;
  const nextId = (prefix) => `${prefix}_scripted_${(++seq).toString(36).padStart(6, "0")}`;
  const ids = () => ({
    messageId: nextId("msg"),
    toolUseId: (b) => b.id ?? nextId("toolu")
  });
  async function streamFrames(res, frames, reply2, requestId) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": requestId });
    const cut = reply2.interrupt;
    let out2 = frames;
    if (cut) {
      let deltas = 0;
      const at = frames.findIndex((f) => f.isDelta && ++deltas > cut.afterDeltas);
      const head = at === -1 ? frames.slice(0, -2) : frames.slice(0, at);
      if (cut.how === "malformed")
        out2 = [
          ...head,
          { text: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_d\n\n', isDelta: false },
          ...frames.slice(head.length)
        ];
      else if (cut.how === "out_of_order") out2 = [...head, strayDelta(), ...frames.slice(head.length)];
      else if (cut.how === "empty") out2 = [];
      else out2 = head;
      if (cut.how === "error") out2 = [...out2, errorFrame(cut.errorType ?? "overloaded_error", cut.errorMessage ?? "Overloaded")];
    }
    const delay = reply2.chunkDelayMs ?? 0;
    const pause = reply2.pause;
    if (!out2.length) return void res.end();
    if (delay > 0 || pause) {
      let deltas = 0;
      for (const [i, f] of out2.entries()) {
        if (i > 0 && delay > 0) await wait(delay);
        if (pause && f.isDelta && deltas++ === pause.afterDeltas) await pause.until;
        if (res.destroyed) return;
        res.write(f.text);
      }
    } else {
      res.write(out2.map((f) => f.text).join(""));
    }
    if (cut?.how === "drop") {
      res.write("", () => res.socket?.destroy());
      return;
    }
    res.end();
  }
  function admit(res) {
    const limit = opts.rateLimit;
    if (!limit) return { refuse: false, headers: {} };
    const after = limit.retryAfterMs ?? 50;
    const refuse = serving >= limit.concurrent;
    if (!refuse) {
      serving++;
      limited.peakConcurrent = Math.max(limited.peakConcurrent, serving);
      res.once("close", () => serving--);
    } else limited.refused++;
    const headers = {
      "anthropic-ratelimit-requests-limit": String(limit.concurrent),
      "anthropic-ratelimit-requests-remaining": String(Math.max(0, limit.concurrent - serving)),
      "anthropic-ratelimit-requests-reset": new Date(Date.now() + after).toISOString()
    };
    return { refuse, headers };
  }
  async function handleMessages(res, raw, rec, workspace) {
    const requestId = nextId("req");
    const admitted = admit(res);
    if (admitted.refuse) {
      const after = opts.rateLimit?.retryAfterMs ?? 50;
      return sendError(
        res,
        {
          status: 429,
          errorType: "rate_limit_error",
          message: "Number of concurrent connections has exceeded your rate limit.",
          headers: { ...admitted.headers, "retry-after-ms": String(after), "retry-after": String(Math.ceil(after / 1e3)) }
        },
        requestId
      );
    }
    for (const [name, value] of Object.entries(admitted.headers)) res.setHeader(name, value);
    const invalid = opts.validate === false ? null : validateMessagesBody(rec.body);
    if (invalid) return sendError(res, { status: 400, errorType: "invalid_request_error", message: invalid }, requestId);
    const window = typeof opts.contextWindow === "function" ? opts.contextWindow(rec.model) : opts.contextWindow ?? contextWindowFor(rec.model);
    if (rec.inputTokens > window)
      return sendError(res, { status: 400, errorType: "invalid_request_error", message: promptTooLongMessage(rec.inputTokens, window) }, requestId);
    let plan = null;
    if (cache) {
      const planned = cache.plan(rec.body, workspace);
      if ("error" in planned) return sendError(res, { status: 400, errorType: "invalid_request_error", message: planned.error }, requestId);
      plan = planned;
      rec.cache = { uncached: plan.uncached, read: plan.read, write5m: plan.write5m, write1h: plan.write1h };
    }
    if (rec.maxTokens === 0) {
      const refused = prewarmRefusal(rec.body);
      if (refused) return sendError(res, { status: 400, errorType: "invalid_request_error", message: refused }, requestId);
      const latency = latencyOf();
      if (latency) await wait(latency);
      if (res.destroyed) return;
      if (plan) cache.commit(plan);
      return sendJson(res, 200, renderMessage({ kind: "message", content: [], stopReason: "max_tokens", usage: { output_tokens: 0 } }, rec, ids()), {
        "request-id": requestId
      });
    }
    const key = createHash2("sha1").update(raw).digest("base64");
    const attempt = bodyCounts.get(key) ?? 0;
    bodyCounts.set(key, attempt + 1);
    let reply2;
    try {
      reply2 = await opts.respond(rec, { index: rec.index, attempt, requests });
    } catch (err) {
      const message2 = `scripted server: respond() threw: ${errorMessage(err)}`;
      return sendError(res, { status: 400, errorType: "invalid_request_error", message: message2 }, requestId);
    }
    const delay = latencyOf() + (reply2.delayMs ?? 0);
    if (delay > 0) await wait(delay);
    if (res.destroyed) return;
    if (reply2.kind === "http_error") return sendError(res, reply2, requestId);
    if (plan) cache.commit(plan);
    if (!rec.stream) return sendJson(res, 200, renderMessage(reply2, rec, ids()), { "request-id": requestId });
    await streamFrames(res, renderStream(reply2, rec, ids()), reply2, requestId);
  }
  function handleModels(res) {
    if (opts.models === null) return sendError(res, { status: 404, errorType: "not_found_error", message: "Not found" }, nextId("req"));
    const data = (opts.models ?? defaultModels()).map((m) => ({
      type: "model",
      id: m.id,
      display_name: m.display_name ?? m.id,
      created_at: m.created_at ?? "2026-01-01T00:00:00Z",
      line: m.line ?? null,
      lifecycle: m.lifecycle ?? "active",
      capabilities: null,
      deprecated_at: null,
      retires_at: null,
      max_input_tokens: contextWindowFor(m.id),
      max_tokens: 64e3
    }));
    sendJson(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null });
  }
  const server2 = createServer(async (req, res) => {
    const receivedAt = performance.now();
    const path = (req.url ?? "/").split("?")[0];
    const raw = req.method === "POST" ? await readBody(req) : "";
    let body = null;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendError(res, { status: 400, errorType: "invalid_request_error", message: "Request body is not valid JSON." }, nextId("req"));
      }
    }
    const edited = req.method === "POST" && path === "/v1/messages" ? applyContextManagement(body, req.headers) : { edits: null };
    if ("error" in edited) return sendError(res, { status: 400, errorType: "invalid_request_error", message: edited.error }, nextId("req"));
    const parsed = parseRequest(req.method ?? "GET", path, req.headers, body, edited.edits);
    const rec = { ...parsed, receivedAt, index: seenRequests++ };
    if (opts.recordRequests !== false) requests.push(rec);
    const key = req.headers["x-api-key"] ?? req.headers.authorization?.replace(/^Bearer /, "");
    if (opts.apiKey !== void 0 && key !== opts.apiKey)
      return sendError(res, { status: 401, errorType: "authentication_error", message: "invalid x-api-key" }, nextId("req"));
    try {
      if (req.method === "POST" && path === "/v1/messages") await handleMessages(res, raw, rec, workspaceOf(req));
      else if (req.method === "GET" && path === "/v1/models") handleModels(res);
      else sendError(res, { status: 404, errorType: "not_found_error", message: `No route for ${req.method} ${path}` }, nextId("req"));
    } catch (err) {
      if (!res.headersSent) sendError(res, { status: 500, errorType: "api_error", message: String(err) }, nextId("req"));
      else res.destroy();
    }
  });
  server2.keepAliveTimeout = 3e4;
  await new Promise((resolve, reject) => {
    server2.once("error", reject);
    server2.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server2.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messageRequests: () => requests.filter((r) => r.method === "POST" && r.path === "/v1/messages"),
    promptCache: cache,
    rateLimited: limited,
    close: () => new Promise((resolve) => {
      server2.closeAllConnections();
      server2.close(() => resolve());
    })
  };
}

// src/main/runtime/model/scripted/reply.ts
var block = {
  text: (text) => ({ type: "text", text }),
  thinking: (thinking, signature = "scripted-signature") => ({ type: "thinking", thinking, signature }),
  redactedThinking: (data = "scripted-redacted") => ({ type: "redacted_thinking", data }),
  toolUse: (name, input, id) => ({ type: "tool_use", name, input, id }),
  /** A tool_use whose streamed input is exactly `rawJson` (use it to send JSON that does not parse). */
  toolUseRaw: (name, rawJson, id) => ({ type: "tool_use", name, rawJson, id })
};
function message(...blocks) {
  return { kind: "message", content: blocks };
}
function httpError(status, errorType, message2, extra = {}) {
  return { kind: "http_error", status, errorType, message: message2, ...extra };
}
function interrupted(reply2, afterDeltas, how, errorType) {
  if (reply2.kind !== "message") throw new Error("Only a message reply can be interrupted mid-stream.");
  return { ...reply2, interrupt: { afterDeltas, how, errorType, errorMessage: errorType === "overloaded_error" ? "Overloaded" : void 0 } };
}
var reply = {
  message,
  /** Same as message() with options (stop reason, usage, chunking, delays). */
  with: (opts, ...blocks) => ({ ...opts, kind: "message", content: blocks }),
  text: (text, opts = {}) => ({ ...opts, kind: "message", content: [block.text(text)] }),
  /** One tool call, optionally preceded by text. */
  toolUse: (name, input, opts = {}) => {
    const { text, id, ...rest } = opts;
    return { ...rest, kind: "message", content: [...text ? [block.text(text)] : [], block.toolUse(name, input, id)] };
  },
  /** Several tool calls in one assistant message (they may run in parallel). */
  toolUses: (calls, opts = {}) => {
    const { text, ...rest } = opts;
    return { ...rest, kind: "message", content: [...text ? [block.text(text)] : [], ...calls.map((c) => block.toolUse(c.name, c.input, c.id))] };
  },
  /** Re-shapes the stream of a reply: chunk sizes and per-event delay. */
  shaped: (shape, r) => ({ ...r, ...shape }),
  rateLimited: (opts = {}) => httpError(429, "rate_limit_error", opts.message ?? "Number of request tokens has exceeded your per-minute rate limit", {
    retryAfterSeconds: opts.retryAfterSeconds
  }),
  overloaded: (opts = {}) => httpError(529, "overloaded_error", "Overloaded", opts),
  serverError: (status = 500, message2 = "Internal server error") => httpError(status, "api_error", message2),
  badRequest: (message2) => httpError(400, "invalid_request_error", message2),
  httpError,
  /** Streams `afterDeltas` deltas of `r`, then an SSE error event (default overloaded_error). */
  errorAfter: (afterDeltas, r, errorType = "overloaded_error") => interrupted(r, afterDeltas, "error", errorType),
  /** Streams `afterDeltas` deltas of `r`, then destroys the connection. */
  dropAfter: (afterDeltas, r) => interrupted(r, afterDeltas, "drop"),
  /** Streams `afterDeltas` deltas of `r`, then ends the response cleanly but without message_stop. */
  endAfter: (afterDeltas, r) => interrupted(r, afterDeltas, "end"),
  /** Streams `afterDeltas` deltas of `r`, then a data line that is not JSON, then the rest of `r`. */
  malformedAfter: (afterDeltas, r) => interrupted(r, afterDeltas, "malformed"),
  /** Streams `afterDeltas` deltas of `r`, then a delta for a content block that never started, then the rest of `r`. */
  outOfOrderAfter: (afterDeltas, r) => interrupted(r, afterDeltas, "out_of_order"),
  /** A 200 event stream that ends with no events at all (what `r` would have said is never sent). */
  emptyStream: (r) => interrupted(r, 0, "empty"),
  /**
   * `r` cut off by max_tokens in the middle of its last block, as the API sends it: the block stops with
   * `keep` characters of its input (or text) and the message stops with stop_reason max_tokens.
   */
  cutByMaxTokens: (r, keep = 12) => {
    const last = r.content.at(-1);
    if (!last) throw new Error("cutByMaxTokens needs a reply with content.");
    const cut = last.type === "tool_use" ? { type: "tool_use", name: last.name, id: last.id, rawJson: (last.rawJson ?? JSON.stringify(last.input ?? {})).slice(0, keep) } : last.type === "text" ? { type: "text", text: last.text.slice(0, keep) } : last;
    return { ...r, content: [...r.content.slice(0, -1), cut], stopReason: "max_tokens" };
  }
};

// src/main/runtime/model/client.ts
import Anthropic, { APIError as APIError2 } from "@anthropic-ai/sdk";

// src/shared/secret-pieces.ts
var PIECE = { text: 8, hex: 16, dump: 16, digits: 24 };
var EDGE = { text: 4, hex: 6, dump: 6, digits: 9 };
var MIN_PIECES_SECRET = 12;
var VIEWS = ["text", "hex", "dump", "digits"];
var ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/y;
var LINE_PREFIX = /[ \t]*(?:[0-9a-fA-F]{6,}(?::|(?=[\t ]))|\d+(?=[:\t]))[:]?/y;
function views(text) {
  const out2 = { text: { s: "", at: [] }, hex: { s: "", at: [] }, dump: { s: "", at: [] }, digits: { s: "", at: [] } };
  const push = (v, c, i) => {
    v.s += c;
    v.at.push(i);
  };
  const breakRun = (v, i) => {
    if (v.s.length && v.s[v.s.length - 1] !== "|") push(v, "|", i);
  };
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    if (lineStart) {
      lineStart = false;
      LINE_PREFIX.lastIndex = i;
      const m = LINE_PREFIX.exec(text);
      if (m && m[0].length) i += m[0].length;
      dumpLine(text, i, out2.dump);
      if (m && m[0].length) {
        i--;
        continue;
      }
    }
    let c = text[i];
    if (c === "\n" || c === "\r") {
      lineStart = true;
      continue;
    }
    if (c === "\x1B") {
      ANSI.lastIndex = i;
      const m = ANSI.exec(text);
      if (m) {
        i += m[0].length - 1;
        continue;
      }
    }
    if (c === "%" && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      const decoded = String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 3), 16)).toLowerCase();
      if (/[a-z0-9]/.test(decoded)) push(out2.text, decoded, i);
      for (const k of [i + 1, i + 2]) {
        const d = text[k].toLowerCase();
        push(out2.hex, d, k);
        if (d >= "0" && d <= "9") push(out2.digits, d, k);
      }
      i += 2;
      continue;
    }
    if (c === "0" && (text[i + 1] === "x" || text[i + 1] === "X") && /[0-9a-fA-F]/.test(text[i + 2] ?? "")) {
      i++;
      continue;
    }
    c = c.toLowerCase();
    if (c >= "a" && c <= "z" || c >= "0" && c <= "9") push(out2.text, c, i);
    if (c >= "a" && c <= "f" || c >= "0" && c <= "9") push(out2.hex, c, i);
    else if (c >= "g" && c <= "z" && !(c === "x" && text[i - 1] === "\\")) breakRun(out2.hex, i);
    if (c >= "0" && c <= "9") push(out2.digits, c, i);
    else if (c >= "a" && c <= "z") breakRun(out2.digits, i);
  }
  return out2;
}
var HEX_TOKEN = /[ \t]*([0-9a-fA-F]+)(?=[ \t\r\n]|$)/y;
function dumpLine(text, from, dump) {
  HEX_TOKEN.lastIndex = from;
  for (let m = HEX_TOKEN.exec(text); m; m = HEX_TOKEN.exec(text)) {
    const start = HEX_TOKEN.lastIndex - m[1].length;
    for (let k = 0; k < m[1].length; k++) {
      dump.s += m[1][k].toLowerCase();
      dump.at.push(start + k);
    }
  }
}
var bytesOf = (s) => [...new TextEncoder().encode(s)];
var alnum = (s) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
var hex2 = (b) => b.toString(16).padStart(2, "0");
var rot13 = (s) => s.replace(/[a-z]/gi, (c) => String.fromCharCode((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26 + 97));
var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
var B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function baseN(bytes, pad, bits, alphabet) {
  const all = [...new Array(pad).fill(0), ...bytes];
  let out2 = "";
  let acc = 0;
  let n = 0;
  let bit = 0;
  const first = pad * 8;
  const last = all.length * 8;
  for (const b of all) {
    acc = acc << 8 | b;
    n += 8;
    while (n >= bits) {
      n -= bits;
      if (bit >= first && bit + bits <= last) out2 += alphabet[acc >> n & (1 << bits) - 1];
      else if (bit >= first) out2 += " ";
      bit += bits;
    }
    acc &= (1 << n) - 1;
  }
  return out2;
}
function swapped(bytes, size, offset) {
  const all = [...new Array(offset).fill(null), ...bytes];
  while (all.length % size) all.push(null);
  let out2 = "";
  for (let w = 0; w < all.length; w += size) for (let k = size - 1; k >= 0; k--) out2 += all[w + k] === null ? " " : hex2(all[w + k]);
  return out2.split(" ").filter(Boolean);
}
function formsOf(secret) {
  const text = [];
  const hex = [];
  const digits = [];
  for (const v of [secret, [...secret].reverse().join("")]) {
    const bytes = bytesOf(v);
    text.push(alnum(v), alnum(rot13(v)));
    for (let pad = 0; pad < 3; pad++) text.push(...baseN(bytes, pad, 6, B64).split(" ").map(alnum));
    for (let pad = 0; pad < 5; pad++) text.push(...baseN(bytes, pad, 5, B32).split(" ").map(alnum));
    hex.push(bytes.map(hex2).join(""));
    for (const size of [2, 4, 8]) for (let offset = 0; offset < size; offset++) hex.push(...swapped(bytes, size, offset));
    digits.push(bytes.map((b) => b.toString(8).padStart(3, "0")).join(""), bytes.map((b) => String(b)).join(""));
  }
  return { text: text.filter(Boolean), hex, dump: hex, digits };
}
var PUBLIC_PREFIX = /^(?:sk-ant-[a-z]+\d*-|github_pat_|gh[oprsu]_|glpat-|xox[abpr]-|AKIA|ASIA|npm_|[sprk]k_(?:live|test)_|sk-)/;
function tokenLike(v) {
  if (/\s|:\/\//.test(v) || /^[/~.]/.test(v)) return false;
  const a = alnum(v);
  return a.length >= MIN_PIECES_SECRET && /[0-9]/.test(a) && /[a-z]/.test(a) && new Set(a).size >= 10;
}
function grams(segments, k, into) {
  for (const s of segments) for (let i = 0; i + k <= s.length; i++) into.add(s.slice(i, i + k));
}
var SecretPieces = class {
  known = [];
  index = { text: /* @__PURE__ */ new Map(), hex: /* @__PURE__ */ new Map(), dump: /* @__PURE__ */ new Map(), digits: /* @__PURE__ */ new Map() };
  add(secret) {
    const own = secret.replace(PUBLIC_PREFIX, "");
    if (!tokenLike(own)) return;
    const id = this.known.length;
    const forms = formsOf(own);
    this.known.push({ forms: formsOf(secret) });
    for (const view of VIEWS) {
      const set = /* @__PURE__ */ new Set();
      grams(forms[view], PIECE[view], set);
      for (const g of set) if (!this.index[view].has(g)) this.index[view].set(g, id);
    }
  }
  clear() {
    this.known.length = 0;
    for (const view of VIEWS) this.index[view].clear();
  }
  get size() {
    return this.known.length;
  }
  /** Stretches [start, end) of `text` that carry a piece of a secret, sorted and merged; empty when none. */
  spans(text) {
    if (!this.known.length || text.length < EDGE.text) return [];
    const v = views(text);
    const marks = [];
    const seen = /* @__PURE__ */ new Set();
    for (const view of VIEWS) {
      const { s, at } = v[view];
      const k = PIECE[view];
      const index = this.index[view];
      for (let i = 0; i + k <= s.length; i++) {
        const id = index.get(s.slice(i, i + k));
        if (id === void 0) continue;
        seen.add(id);
        marks.push([at[i], at[i + k - 1] + 1]);
      }
    }
    for (const id of seen) {
      const known = this.known[id];
      known.edges ??= Object.fromEntries(VIEWS.map((view) => [view, /* @__PURE__ */ new Set()]));
      for (const view of VIEWS) {
        const edges = known.edges[view];
        if (!edges.size) grams(known.forms[view], EDGE[view], edges);
        const { s, at } = v[view];
        const k = EDGE[view];
        for (let i = 0; i + k <= s.length; i++) if (edges.has(s.slice(i, i + k))) marks.push([at[i], at[i + k - 1] + 1]);
      }
    }
    return merge(marks);
  }
};
function merge(marks) {
  if (!marks.length) return marks;
  marks.sort((a, b) => a[0] - b[0]);
  const out2 = [marks[0]];
  for (const [a, b] of marks.slice(1)) {
    const last = out2[out2.length - 1];
    if (a <= last[1]) last[1] = Math.max(last[1], b);
    else out2.push([a, b]);
  }
  return out2;
}

// src/shared/redact.ts
var pieces = new SecretPieces();

// src/main/runtime/model/retry.ts
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";

// src/main/runtime/model/pricing.ts
var price = (input, output) => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: input * CACHE_PRICE.read,
  cacheWritePerMTok: input * CACHE_PRICE.write5m,
  cacheWrite1hPerMTok: input * CACHE_PRICE.write1h
});
var DEFAULT_PRICES = Object.freeze({
  haiku: price(1, 5),
  sonnet: price(3, 15),
  opus: price(5, 25)
});

// src/main/runtime/model/client.ts
var DEFAULT_MAX_RETRY_TIME_MS = 10 * 6e4;

// test/differential/claude-code.ts
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// test/support/run-process.ts
import { spawn } from "node:child_process";
function runProcess(cmd, args2, opts = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args2, {
      ...opts.cwd ? { cwd: opts.cwd } : {},
      env: opts.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"]
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      opts.onStdout?.(stdout);
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      opts.onStderr?.(stderr);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 3e4);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? "");
  });
}

// test/differential/claude-code.ts
var CLAUDE_CODE_VERSION = "2.1.328";
var require2 = createRequire(import.meta.url);
function platformPackage() {
  const musl = process.platform === "linux" && !existsSync("/lib64/ld-linux-x86-64.so.2") && !existsSync("/lib/ld-linux-aarch64.so.1");
  return `@anthropic-ai/claude-code-${process.platform}-${process.arch}${musl ? "-musl" : ""}`;
}
function findBinary() {
  const tried = [];
  try {
    const dir = dirname(require2.resolve(`${platformPackage()}/package.json`));
    const bin = join(dir, process.platform === "win32" ? "claude.exe" : "claude");
    if (existsSync(bin)) return bin;
    tried.push(bin);
  } catch {
    tried.push(`${platformPackage()} (not installed)`);
  }
  try {
    const bin = join(dirname(require2.resolve("@anthropic-ai/claude-code/package.json")), "bin/claude.exe");
    if (existsSync(bin) && statSync(bin).size > 1e6) return bin;
    tried.push(bin);
  } catch {
    tried.push("@anthropic-ai/claude-code (not installed)");
  }
  return tried;
}
var cached;
function claudeCode() {
  if (cached) return cached;
  const found = findBinary();
  if (Array.isArray(found))
    return cached = {
      skip: `Claude Code ${CLAUDE_CODE_VERSION} is not installed here (looked for ${found.join(", ")}); run npm ci with optional dependencies`
    };
  const v = spawnSync(found, ["--version"], { encoding: "utf8", timeout: 3e4, env: { ...process.env, HOME: "/nonexistent-home-for-version" } });
  if (v.status !== 0)
    return cached = { skip: `Claude Code at ${found} does not start here: ${(v.stderr || v.error?.message || `exit ${v.status}`).trim().slice(0, 300)}` };
  if (!v.stdout.includes(CLAUDE_CODE_VERSION))
    return cached = { skip: `Claude Code at ${found} is ${v.stdout.trim()}, not the pinned ${CLAUDE_CODE_VERSION}` };
  return cached = { path: found };
}
function runClaudeCode(opts) {
  const bin = claudeCode();
  if (!bin.path) throw new Error(bin.skip);
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: opts.home,
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: "sk-test",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    TMPDIR: join(opts.home, "tmp"),
    ...opts.env
  };
  return runProcess(bin.path, opts.args, {
    cwd: opts.cwd,
    env,
    timeoutMs: opts.timeoutMs ?? 9e4,
    ...opts.input !== void 0 ? { input: opts.input } : {},
    ...opts.onStdout ? { onStdout: opts.onStdout } : {}
  });
}

// ../../../tmp/ccx/explore.ts
var files = JSON.parse(process.env.FILES ?? "{}");
var homeFiles = JSON.parse(process.env.HOME_FILES ?? "{}");
var args = JSON.parse(process.env.ARGS);
var root = realpathSync(mkdtempSync(join2(tmpdir(), "ccx-")));
var project = join2(root, "project");
var home = join2(root, "home");
mkdirSync(join2(home, "tmp"), { recursive: true });
mkdirSync(project, { recursive: true });
for (const [d, fs] of [[project, files], [home, homeFiles]]) for (const [r, t] of Object.entries(fs)) {
  mkdirSync(dirname2(join2(d, r)), { recursive: true });
  writeFileSync(join2(d, r), t);
}
writeFileSync(join2(home, ".claude.json"), JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }));
execFileSync("git", ["init", "-q", "-b", "main"], { cwd: project });
var server = await startScriptedServer({ respond: (req) => reply.text("MODEL REPLY"), validate: false });
var out = await runClaudeCode({ cwd: project, args, baseUrl: server.url, home });
console.log("CODE", out.code);
console.log("STDOUT", out.stdout);
console.log("STDERR", out.stderr);
for (const r of server.messageRequests()) {
  console.log("--- REQ model", r.model, "tools", r.tools.map((t) => t.name).join(","));
  console.log(JSON.stringify(r.messages, null, 1).slice(0, Number(process.env.MAX ?? 6e3)));
}
await server.close();

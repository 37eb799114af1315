// ../../../tmp/prof/walk.ts
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join as join4 } from "node:path";

// src/main/runtime/tools/ignore-rules.ts
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative as relative2 } from "node:path";

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

// src/main/runtime/tools/paths.ts
import { isAbsolute, relative, resolve, sep } from "node:path";
function toPosix(p) {
  return sep === "/" ? p : p.split(sep).join("/");
}

// src/main/runtime/tools/ignore-rules.ts
var IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];
function parseIgnoreFile(text) {
  const rules = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, "");
    if (!line || line.startsWith("#")) continue;
    try {
      rules.push(compileGlob(line.startsWith("\\#") || line.startsWith("\\!") ? line.slice(1) : line));
    } catch {
    }
  }
  return rules;
}
function loadDir(dir) {
  const rules = [];
  for (const name of IGNORE_FILES) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    try {
      rules.push(...parseIgnoreFile(readFileSync(file, "utf8")));
    } catch {
    }
  }
  const exclude = join(dir, ".git", "info", "exclude");
  if (existsSync(exclude)) {
    try {
      rules.unshift(...parseIgnoreFile(readFileSync(exclude, "utf8")));
    } catch {
    }
  }
  return rules.length ? { dir, rules } : null;
}
var IgnoreStack = class _IgnoreStack {
  constructor(files) {
    this.files = files;
  }
  files;
  /** Starts at `root`, also loading ancestors' ignore files when `root` is inside a git repository. */
  static forRoot(root) {
    const chain = [];
    let dir = root;
    for (; ; ) {
      chain.unshift(dir);
      if (existsSync(join(dir, ".git"))) break;
      const up = dirname(dir);
      if (up === dir) {
        chain.splice(0, chain.length - 1);
        break;
      }
      dir = up;
    }
    return new _IgnoreStack(chain.map(loadDir).filter((f) => f !== null));
  }
  /** The stack for a subdirectory: this one plus the subdirectory's own ignore files. */
  descend(dir) {
    const own = loadDir(dir);
    return own ? new _IgnoreStack([...this.files, own]) : this;
  }
  /** Last matching rule wins, deeper files after shallower ones, exactly as git orders them. */
  ignores(absPath, isDir) {
    let ignored = false;
    for (const file of this.files) {
      const rel = toPosix(relative2(file.dir, absPath));
      if (rel === "" || rel.startsWith("..")) continue;
      for (const rule of file.rules) if (matchGlob(rule, rel, isDir)) ignored = !rule.negated;
    }
    return ignored;
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
import { readdir } from "node:fs/promises";
import { join as join2 } from "node:path";
async function walkFiles(opts) {
  const out = [];
  const overrides = opts.overrides ?? new OverrideGlobs([]);
  const visit = async (dir, rel, ignore) => {
    if (opts.signal?.aborted) throw new Error("aborted");
    if (opts.maxFiles !== void 0 && out.length >= opts.maxFiles) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const subdirs = [];
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const isDir = entry.isDirectory();
      if (!isDir && !entry.isFile()) continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = join2(dir, entry.name);
      const override = overrides.match(childRel, isDir);
      if (override === "ignore") continue;
      if (override === "none" && ignore.ignores(childAbs, isDir)) continue;
      if (isDir) subdirs.push(visit(childAbs, childRel, ignore.descend(childAbs)));
      else if (!opts.accept || opts.accept(childRel)) out.push(childRel);
    }
    await Promise.all(subdirs);
  };
  await visit(opts.root, "", IgnoreStack.forRoot(opts.root));
  return out;
}

// src/main/runtime/tools/ripgrep.ts
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join as join3 } from "node:path";

// src/main/runtime/security/child-env.ts
var FANOUT_CREDENTIALS = /* @__PURE__ */ new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS"]);
var SECRET_PARTS = /* @__PURE__ */ new Set([
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
var SECRET_SUFFIX = /(APIKEY|ACCESSKEY|SECRETKEY|AUTHTOKEN|ACCESSTOKEN|TOKEN|SECRET|PASSWORD|PASSWD)$/i;
var NOT_SECRET = /* @__PURE__ */ new Set(["SSH_AUTH_SOCK", "GPG_AGENT_INFO", "KEYTIMEOUT", "XAUTHORITY", "PWD", "OLDPWD"]);
var URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;
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

// src/main/runtime/tools/ripgrep.ts
var cached;
function findRipgrep() {
  if (cached !== void 0) return cached;
  cached = null;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join3(dir, process.platform === "win32" ? "rg.exe" : "rg");
    try {
      accessSync(candidate, constants.X_OK);
      cached = candidate;
      break;
    } catch {
    }
  }
  return cached;
}
function runRipgrep(rg2, args, opts) {
  return new Promise((resolve2, reject) => {
    const child = spawn(rg2, args, { cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"], env: childEnv() });
    let stderr = "";
    let pending = "";
    let stopped = false;
    const stop = () => {
      stopped = true;
      child.kill("SIGKILL");
    };
    const onAbort = () => stop();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      if (stopped) return;
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (opts.onLine(line) === false) {
          stop();
          return;
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      if (stderr.length < 1e4) stderr += chunk;
    });
    child.on("error", (err) => {
      opts.signal?.removeEventListener("abort", onAbort);
      reject(err);
    });
    child.on("close", (code) => {
      opts.signal?.removeEventListener("abort", onAbort);
      if (!stopped && pending) opts.onLine(pending);
      if (opts.signal?.aborted) reject(new Error("aborted"));
      else resolve2({ code: stopped ? 0 : code, stderr: stderr.trim() });
    });
  });
}

// src/main/runtime/tools/list-files.ts
var RG_BASE_ARGS = ["--no-config", "--hidden", "--no-require-git"];
var LIST_FILES_CAP = 25e4;
async function listFiles(root, rg2, signal) {
  if (!rg2) return walkFiles({ root, overrides: new OverrideGlobs(["!.git"]), signal, maxFiles: LIST_FILES_CAP });
  const files = [];
  const run = await runRipgrep(rg2, ["--files", ...RG_BASE_ARGS, "--glob", "!.git", "--", "."], {
    cwd: root,
    signal,
    onLine: (line) => {
      if (line) files.push(line.startsWith("./") ? line.slice(2) : line);
      return files.length < LIST_FILES_CAP;
    }
  });
  if (run.code === 2 && files.length === 0) throw new Error(`ripgrep failed: ${run.stderr || "unknown error"}`);
  return files;
}

// ../../../tmp/prof/walk.ts
var rg = findRipgrep();
for (const n of [20, 200, 1e3, 3e3, 1e4]) {
  const root = mkdtempSync(join4(tmpdir(), "walk-"));
  writeFileSync(join4(root, ".gitignore"), "node_modules/\n*.log\n");
  for (let i = 0; i < n; i++) {
    const d = join4(root, `d${i % Math.max(1, Math.floor(n / 20))}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(join4(d, `f${i}.ts`), "x");
  }
  const time = async (f, reps = 7) => {
    const t = [];
    for (let i = 0; i < reps; i++) {
      const s = performance.now();
      await f();
      t.push(performance.now() - s);
    }
    t.sort((a, b) => a - b);
    return t[reps >> 1];
  };
  const js = await time(() => listFiles(root, null));
  const r = await time(() => listFiles(root, rg));
  const js16 = await time(() => Promise.all(Array.from({ length: 16 }, () => listFiles(root, null))), 3);
  const rg16 = await time(() => Promise.all(Array.from({ length: 16 }, () => listFiles(root, rg))), 3);
  console.log(`${n} files: js ${js.toFixed(1)} ms, rg ${r.toFixed(1)} ms; 16 at once: js ${js16.toFixed(1)} ms, rg ${rg16.toFixed(1)} ms`);
}

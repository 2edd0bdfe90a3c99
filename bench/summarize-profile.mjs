// Summarizes a .cpuprofile: self time by function and by package/file, and inclusive time of chosen functions.
// Usage: node bench/summarize-profile.mjs <file.cpuprofile> [top=30] [pattern,pattern,…] [root]
// File paths are shown relative to `root` (default: this repository, wherever it is checked out).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

if (!process.argv[2]) {
  console.error("usage: node bench/summarize-profile.mjs <file.cpuprofile> [top] [patterns] [root]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(process.argv[2], "utf8"));
const root = process.argv[5] ?? fileURLToPath(new URL("..", import.meta.url));
const prefix = root.endsWith("/") ? root : `${root}/`;
const top = Number(process.argv[3] ?? 30);
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++)
  dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const where = (cf) => {
  const url = cf.url.replace(/^file:\/\//, "");
  const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  return m ? m[1] : (url.startsWith(prefix) ? url.slice(prefix.length) : url) || "(native)";
};
const self = new Map();
const byPkg = new Map();
for (const [id, t] of dt) {
  const cf = nodes.get(id).callFrame;
  const key = `${cf.functionName || "(anon)"}  ${where(cf)}:${cf.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + t);
  byPkg.set(where(cf), (byPkg.get(where(cf)) ?? 0) + t);
}
const pct = (t) => ((t / total) * 100).toFixed(1).padStart(5) + "%";
console.log("== self time by package/file");
for (const [k, t] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(pct(t), k);
console.log("== self time by function");
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(pct(t), k);
// Inclusive: time of samples whose stack contains a frame matching each pattern (counted once per sample).
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const patterns = (process.argv[4] ?? "").split(",").filter(Boolean);
if (patterns.length) {
  console.log("== inclusive time");
  const inc = new Map(patterns.map((p) => [p, 0]));
  for (const [id, t] of dt) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = nodes.get(cur).callFrame;
      const label = `${cf.functionName}@${where(cf)}`;
      for (const p of patterns)
        if (!seen.has(p) && label.includes(p)) {
          seen.add(p);
          inc.set(p, inc.get(p) + t);
        }
    }
  }
  for (const [p, t] of inc) console.log(pct(t), p);
}

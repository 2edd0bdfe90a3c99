/**
 * Line diffs in the unified format (as `diff -u` and `git diff` print them), from Myers' O((N+M)·D) algorithm
 * on the lines between the common prefix and suffix. When the two sides differ in more than `maxEdits` lines
 * the search is split at lines unique to both sides (patience diff), and failing that the middle is reported as
 * removed and re-added: still a correct patch, only not a minimal one.
 */

type Op = " " | "-" | "+";

interface Lines {
  lines: string[];
  /** The text ends without a newline (its last line is unterminated). */
  noFinalNewline: boolean;
}

function splitLines(text: string): Lines {
  if (text === "") return { lines: [], noFinalNewline: false };
  const lines = text.split("\n");
  const noFinalNewline = lines[lines.length - 1] !== "";
  if (!noFinalNewline) lines.pop();
  return { lines, noFinalNewline };
}

/** The shortest edit script from `a` to `b` over interned lines: one op per line of either side. */
export function editScript(a: readonly number[], b: readonly number[], maxEdits = 1000): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = myers(a.slice(start, endA), b.slice(start, endB), maxEdits);
  const same = (n: number): Op[] => Array.from({ length: n }, () => " ");
  return [...same(start), ...middle, ...same(a.length - endA)];
}

function myers(a: readonly number[], b: readonly number[], maxEdits: number): Op[] {
  const n = a.length;
  const m = b.length;
  const replaceAll = (): Op[] => [...Array<Op>(n).fill("-"), ...Array<Op>(m).fill("+")];
  if (n === 0 || m === 0) return replaceAll();
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  // The sides differ in more lines than a bounded search allows: split at lines unique to both sides.
  return patience(a, b, maxEdits) ?? replaceAll();
}

/**
 * Patience split: the longest run of lines that occur exactly once on each side, in the same order, anchors
 * the diff; the gaps between anchors are diffed on their own. Undefined when no line anchors.
 */
function patience(a: readonly number[], b: readonly number[], maxEdits: number): Op[] | undefined {
  const counts = new Map<number, { a: number; b: number; bi: number }>();
  for (const line of a) {
    const c = counts.get(line) ?? { a: 0, b: 0, bi: -1 };
    c.a++;
    counts.set(line, c);
  }
  b.forEach((line, bi) => {
    const c = counts.get(line);
    if (c) {
      c.b++;
      c.bi = bi;
    }
  });
  const pairs: { ai: number; bi: number }[] = [];
  a.forEach((line, ai) => {
    const c = counts.get(line)!;
    if (c.a === 1 && c.b === 1) pairs.push({ ai, bi: c.bi });
  });
  // Longest increasing subsequence of bi (patience sorting), kept as back-links.
  const tails: number[] = [];
  const back = new Int32Array(pairs.length).fill(-1);
  pairs.forEach((pair, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]!.bi < pair.bi) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) back[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  if (tails.length === 0) return undefined;
  const anchors: { ai: number; bi: number }[] = [];
  for (let i = tails[tails.length - 1]!; i >= 0; i = back[i]!) anchors.push(pairs[i]!);
  anchors.reverse();
  const ops: Op[] = [];
  let ai = 0;
  let bi = 0;
  for (const anchor of [...anchors, { ai: a.length, bi: b.length }]) {
    ops.push(...editScript(a.slice(ai, anchor.ai), b.slice(bi, anchor.bi), maxEdits));
    if (anchor.ai < a.length) ops.push(" ");
    ai = anchor.ai + 1;
    bi = anchor.bi + 1;
  }
  return ops;
}

/** Walks the saved frontiers back from (n, m); `trace[d]` holds V before round d for k in [-d-1, d+1]. */
function backtrack(trace: Int32Array[], n: number, m: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const frame = trace[d]!;
    const at = (k: number) => frame[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push(" ");
      x--;
      y--;
    }
    if (d > 0) ops.push(down ? "+" : "-");
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

const range = (start: number, count: number) =>
  count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;

/**
 * A unified diff of `before` → `after` with `context` lines around each change; "" when they are equal.
 * `before`/`after` undefined means the file is absent on that side (`/dev/null`).
 */
export function unifiedDiff(
  path: string,
  before: string | undefined,
  after: string | undefined,
  context = 3,
): string {
  if (before === after) return "";
  const a = splitLines(before ?? "");
  const b = splitLines(after ?? "");
  const ids = new Map<string, number>();
  const intern = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  // The unterminated last line differs from the same text with a newline: intern it apart.
  const keyed = (side: Lines) =>
    side.lines.map((line, i) =>
      intern(side.noFinalNewline && i === side.lines.length - 1 ? `${line}\u0000eof` : line),
    );
  const ops = editScript(keyed(a), keyed(b));

  // Positions of every op in both files, then hunks: runs of changes joined across gaps ≤ 2·context.
  const rows: { op: Op; ai: number; bi: number }[] = [];
  let ai = 0;
  let bi = 0;
  for (const op of ops) {
    rows.push({ op, ai, bi });
    if (op !== "+") ai++;
    if (op !== "-") bi++;
  }
  const changed = rows.flatMap((row, i) => (row.op === " " ? [] : [i]));
  const out = [
    `--- ${before === undefined ? "/dev/null" : `a/${path}`}`,
    `+++ ${after === undefined ? "/dev/null" : `b/${path}`}`,
  ];
  let h = 0;
  while (h < changed.length) {
    let last = h;
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * context + 1) last++;
    const from = Math.max(0, changed[h]! - context);
    const to = Math.min(rows.length - 1, changed[last]! + context);
    const slice = rows.slice(from, to + 1);
    const aCount = slice.filter((r) => r.op !== "+").length;
    const bCount = slice.filter((r) => r.op !== "-").length;
    out.push(`@@ -${range(rows[from]!.ai + 1, aCount)} +${range(rows[from]!.bi + 1, bCount)} @@`);
    for (const row of slice) {
      const onA = row.op !== "+";
      const line = onA ? a.lines[row.ai]! : b.lines[row.bi]!;
      out.push(`${row.op}${line}`);
      const unterminated =
        (onA && a.noFinalNewline && row.ai === a.lines.length - 1) ||
        (row.op === "+" && b.noFinalNewline && row.bi === b.lines.length - 1) ||
        (row.op === " " && b.noFinalNewline && row.bi === b.lines.length - 1);
      if (unterminated) out.push("\\ No newline at end of file");
    }
    h = last + 1;
  }
  return `${out.join("\n")}\n`;
}

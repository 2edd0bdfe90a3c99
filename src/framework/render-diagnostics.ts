import { diagnostic } from "./diagnostics.ts";
import { formatBytes } from "./limits.ts";
import type { GuestProblem, LimitHit } from "./sandbox/protocol.ts";
import type { BundleMap } from "./stack-map.ts";
import type { Diagnostic, SandboxLimits } from "./types.ts";

/** Globals that do not exist in the sandbox, and why. */
const ABSENT_GLOBALS: Readonly<Record<string, string>> = {
  process: "website code runs in a sandbox without Node.js, its environment or the file system",
  require: "use import; website code can import its own files, react, preact and sitewright:cms",
  module: "use export; website modules are ES modules",
  exports: "use export; website modules are ES modules",
  Buffer: "website code runs in a sandbox without Node.js",
  __dirname: "website code runs in a sandbox without a file system",
  __filename: "website code runs in a sandbox without a file system",
  global: "use globalThis",
  fetch: "pages render without network access; put the data in the CMS or in a file of the website",
  XMLHttpRequest: "pages render without network access",
  WebSocket: "pages render without network access",
  setTimeout: "pages render synchronously, without timers",
  setInterval: "pages render synchronously, without timers",
  setImmediate: "pages render synchronously, without timers",
  window: "pages render to HTML on the server; browser globals exist only in scripts the page ships",
  document: "pages render to HTML on the server; browser globals exist only in scripts the page ships",
  localStorage: "pages render to HTML on the server; browser globals exist only in scripts the page ships",
  navigator: "pages render to HTML on the server; browser globals exist only in scripts the page ships",
};

/** A QuickJS message made plain: `'process' is not defined` → `process is not defined: <why>`. */
export function explain(message: string): string {
  const undefinedName = /^'([^']+)' is not defined$/.exec(message);
  if (undefinedName) {
    const name = undefinedName[1]!;
    const why = ABSENT_GLOBALS[name];
    return why ? `${name} is not defined: ${why}.` : `${name} is not defined.`;
  }
  return message;
}

/** The message of a limit hit, with the limit's value: "render exceeded the time limit of 10000 ms". */
export function limitMessage(limit: LimitHit, limits: Required<SandboxLimits>): string {
  switch (limit.kind) {
    case "time":
      return `render exceeded the time limit of ${limits.timeLimitMs} ms (an endless loop?)`;
    case "memory":
      return `render exceeded the memory limit of ${formatBytes(limits.memoryLimitBytes)}`;
    case "stack":
      return `render exceeded the stack size limit of ${formatBytes(limits.stackSizeBytes)} (endless recursion?)`;
    case "pages":
      return `the routes produce ${limit.actual} pages; one build renders at most ${limits.maxPages}`;
    case "output":
      return `the page is ${formatBytes(limit.actual ?? 0)} of HTML; a page is at most ${formatBytes(limits.maxPageBytes)}`;
  }
}

/** A limit the engine raised as an exception that guest code caught and passed on (out of memory in paths()). */
function limitOfProblem(problem: GuestProblem): LimitHit["kind"] | undefined {
  if (/out of memory/i.test(problem.message)) return "memory";
  if (problem.name === "InternalError" && /stack overflow/i.test(problem.message)) return "stack";
  if (problem.name === "InternalError" && problem.message === "interrupted") return "time";
  return undefined;
}

/** Where in a route file a dynamic route is declared (`paths` / `collection`), for problems of its expansion. */
function declaration(files: ReadonlyMap<string, string>, file: string): { line: number; column: number } {
  const lines = (files.get(file) ?? "").split("\n");
  for (const [i, text] of lines.entries()) {
    const at = text.search(/export\s+(async\s+)?(function\s+paths|const\s+(paths|collection))\b/);
    if (at >= 0) return { line: i + 1, column: at + 1 };
  }
  return { line: 0, column: 0 };
}

/** A diagnostic for an exception of website code, positioned through the bundle's source map. */
export function problemDiagnostic(
  problem: GuestProblem,
  map: BundleMap,
  files: ReadonlyMap<string, string>,
  limits: Required<SandboxLimits>,
): Diagnostic {
  const limit = limitOfProblem(problem);
  const during = problem.route ? ` (while rendering ${problem.route})` : "";
  const message = limit
    ? limitMessage({ kind: limit }, limits) + during
    : `${problem.name}: ${explain(problem.message)}${during}`;
  const position = map.locate(problem.stack);
  if (position) return { ...position, message };
  const at = files.has(problem.file) ? declaration(files, problem.file) : { line: 0, column: 0 };
  return diagnostic(problem.file, message, at.line, at.column);
}

/** A diagnostic for a limit hit, at the page being rendered (and the line running, when known). */
export function limitDiagnostic(
  limit: LimitHit,
  map: BundleMap,
  limits: Required<SandboxLimits>,
): Diagnostic {
  const during = limit.route ? ` (while rendering ${limit.route})` : "";
  const message = limitMessage(limit, limits) + during;
  const position = limit.stack ? map.locate(limit.stack) : undefined;
  if (position) return { ...position, message };
  return diagnostic(limit.file && !limit.file.startsWith("(") ? limit.file : "(render)", message);
}

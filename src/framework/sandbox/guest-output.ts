/**
 * Reads what the guest returns. Website code runs before and around the render runtime and can
 * replace anything in the guest (JSON, Array.prototype, the runtime's functions), so its answers
 * are untrusted input: parsed defensively, reduced to strings of bounded length, malformed shapes
 * refused. Erasable TypeScript only (this module runs in the worker with Node's type stripping).
 */
import type { GuestProblem, PageHead } from "./protocol.ts";

/** The guest's answer did not have the shape of the runtime's own. */
export class MalformedOutput extends Error {}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw new MalformedOutput("the render returned output that is not JSON");
  }
}

function str(value: unknown, max: number): string | undefined {
  return typeof value === "string" ? value.slice(0, max) : undefined;
}

function record(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new MalformedOutput("malformed render output");
  return value as Record<string, unknown>;
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new MalformedOutput("malformed render output");
  return value;
}

/** A problem object from the guest, every field a string. */
export function readProblem(value: unknown): GuestProblem {
  const r = record(value);
  return {
    file: str(r.file, 500) ?? "(render)",
    name: str(r.name, 100) ?? "Error",
    message: str(r.message, 2000) ?? "unknown error",
    stack: str(r.stack, 20_000) ?? "",
  };
}

/** The answer of `__sitewright.plan()`. */
export function readPlan(json: string): {
  pages: { file: string; route: string }[];
  problems: GuestProblem[];
} {
  const r = record(parse(json));
  const pages = list(r.pages).map((value) => {
    const page = record(value);
    const file = str(page.file, 500);
    const route = str(page.route, 2000);
    if (file === undefined || route === undefined) throw new MalformedOutput("malformed render output");
    return { file, route };
  });
  return { pages, problems: list(r.problems).map(readProblem) };
}

/** The answer of `__sitewright.render(i)`. */
export function readPage(json: string): { html: string; head: PageHead } {
  const r = record(parse(json));
  const html = str(r.html, Number.MAX_SAFE_INTEGER);
  if (html === undefined) throw new MalformedOutput("malformed render output");
  const raw = r.head && typeof r.head === "object" ? (r.head as Record<string, unknown>) : {};
  const head: PageHead = {};
  const title = str(raw.title, 500);
  const description = str(raw.description, 2000);
  const lang = str(raw.lang, 35);
  if (title !== undefined) head.title = title;
  if (description !== undefined) head.description = description;
  if (lang !== undefined) head.lang = lang;
  return { html, head };
}

/** The answer of `__sitewright.logs()`: at most 100 lines of at most 1,000 characters. */
export function readLogs(json: string): string[] {
  return list(parse(json))
    .slice(0, 100)
    .map((line) => String(line).slice(0, 1000));
}

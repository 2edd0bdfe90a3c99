import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { RouteFile } from "./routes.ts";

/** A value the guest threw, read out of QuickJS: its name, message and stack, each bounded. */
export interface GuestThrown {
  name: string;
  message: string;
  stack: string;
}

/** Dumps a QuickJS error handle (and disposes it) into name, message and stack; a non-error value becomes the message. */
export function dumpError(ctx: QuickJSContext, handle: QuickJSHandle): GuestThrown {
  let value: unknown;
  try {
    value = ctx.dump(handle);
  } catch {
    value = undefined;
  } finally {
    handle.dispose();
  }
  const record = value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  const str = (v: unknown, max: number) => (typeof v === "string" ? v.slice(0, max) : undefined);
  return {
    name: str(record?.name, 100) ?? "Error",
    message: str(record?.message, 2000) ?? (record ? "an object was thrown" : String(value).slice(0, 2000)),
    stack: str(record?.stack, 20_000) ?? "",
  };
}

/** The engine limit a thrown error stands for (`exhausted`: the engine's memory ran out), if any. */
export function engineLimitOf(
  thrown: GuestThrown,
  exhausted: boolean,
): "time" | "memory" | "stack" | undefined {
  const { name, message } = thrown;
  if (name === "InternalError" && message === "interrupted") return "time";
  if (/out of memory/i.test(message) || exhausted) return "memory";
  if (name === "InternalError" && /stack overflow/i.test(message)) return "stack";
  return undefined;
}

/**
 * Source of `sitewright:runtime`, the render entry that runs inside the sandbox. It installs
 * `globalThis.__sitewright`, the only channel between the sandbox and the platform:
 * - `setData(json)`: hands in the CMS snapshot;
 * - `plan()`: expands the routes (`paths()` / `collection`) into pages; resolves to a JSON string
 *   `{pages: [{file, route}], problems: [{file, name, message, stack}]}`;
 * - `render(i)`: renders page i, returning the JSON string `{html, head}`; throws what the page throws;
 * - `logs()`: what website code wrote to `console` (JSON array of strings).
 * It is plain JavaScript: it runs in QuickJS, bundled with preact and the website's modules.
 */
export const runtimeModuleSource = String.raw`
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { __setCmsData, cms } from "sitewright:cms";

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;
const logs = [];
let routes = [];
let pages = [];

function show(value) {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.name + ": " + value.message;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

const sandboxConsole = {};
for (const level of ["log", "info", "warn", "error", "debug"]) {
  sandboxConsole[level] = (...args) => {
    if (logs.length < 100) logs.push(("console." + level + ": " + args.map(show).join(" ")).slice(0, 1000));
  };
}
globalThis.console = Object.freeze(sandboxConsole);

function problem(file, error) {
  const isError = error && typeof error === "object";
  return {
    file,
    name: isError && typeof error.name === "string" ? error.name : "Error",
    message: isError && typeof error.message === "string" ? error.message : show(error),
    stack: isError && typeof error.stack === "string" ? error.stack : "",
  };
}

function routeOf(route, params) {
  if (route.notFound) return "/404.html";
  if (route.segments.length === 0) return "/";
  const parts = route.segments.map((segment) =>
    segment.startsWith("[") ? params[segment.slice(1, -1)] : segment,
  );
  return "/" + parts.join("/") + "/";
}

function checkEntry(route, entry, index) {
  if (!entry || typeof entry !== "object" || !entry.params || typeof entry.params !== "object") {
    throw new TypeError("paths() entry " + index + " must be an object like { params: { " + route.params[0] + ": \"…\" } }");
  }
  for (const name of route.params) {
    const value = entry.params[name];
    if (typeof value !== "string" || !SEGMENT.test(value) || value.length > 200) {
      throw new TypeError(
        "paths() entry " + index + ": params." + name + " is " + (JSON.stringify(value) ?? String(value)) +
          "; it must be a string of letters, digits, '-', '_', '.' or '~' (at most 200 characters)",
      );
    }
  }
  return { params: entry.params, props: entry.props && typeof entry.props === "object" ? entry.props : {} };
}

async function expand(route) {
  const mod = route.module;
  if (route.params.length === 0) return [{ params: {}, props: {} }];
  if (typeof mod.paths === "function") {
    const list = await mod.paths({ cms });
    if (!Array.isArray(list)) throw new TypeError("paths() must return an array of { params, props? }");
    return list.map((entry, index) => checkEntry(route, entry, index));
  }
  if (typeof mod.collection === "string") {
    if (route.params.length !== 1) {
      throw new TypeError("a collection route has exactly one [param]; this one has " + route.params.length);
    }
    return cms.list(mod.collection).map((item) => checkEntry(route, { params: { [route.params[0]]: item.slug }, props: { item } }, item.slug));
  }
  throw new TypeError(
    "this is a dynamic route: export function paths() returning [{ params: { " + route.params[0] +
      ": \"…\" } }], or export const collection = \"<collection name>\" for one page per CMS item",
  );
}

function text(value, limit) {
  return typeof value === "string" || typeof value === "number" ? String(value).slice(0, limit) : undefined;
}

export function install(list) {
  routes = list;
  const api = Object.freeze({
    setData(json) {
      __setCmsData(JSON.parse(json));
    },
    async plan() {
      const problems = [];
      pages = [];
      for (const route of routes) {
        try {
          for (const entry of await expand(route)) pages.push({ route, ...entry, url: routeOf(route, entry.params) });
        } catch (error) {
          problems.push(problem(route.file, error));
        }
      }
      return JSON.stringify({ pages: pages.map((page) => ({ file: page.route.file, route: page.url })), problems });
    },
    render(index) {
      const page = pages[index];
      const mod = page.route.module;
      const Page = mod.default;
      if (typeof Page !== "function") {
        throw new TypeError("the page has no component: add export default function Page() { return <main>…</main>; }");
      }
      const props = { params: page.params, props: page.props, route: page.url };
      const html = renderToString(h(Page, props));
      const raw = typeof mod.head === "function" ? mod.head(props) : mod.head;
      const head = {};
      if (raw && typeof raw === "object") {
        head.title = text(raw.title, 500);
        head.description = text(raw.description, 2000);
        head.lang = text(raw.lang, 35);
      }
      return JSON.stringify({ html, head });
    },
    logs() {
      return JSON.stringify(logs);
    },
  });
  Object.defineProperty(globalThis, "__sitewright", { value: api, writable: false, configurable: false });
}
`;

/** Source of the bundle's entry: imports every route module and hands them to the runtime. */
export function entrySource(routes: readonly RouteFile[]): string {
  const lines = [`import { install } from "sitewright:runtime";`];
  routes.forEach((route, i) => {
    lines.push(`import * as m${i} from ${JSON.stringify(`/${route.file}`)};`);
  });
  const list = routes.map(
    (route, i) =>
      `  { file: ${JSON.stringify(route.file)}, segments: ${JSON.stringify(route.segments)}, params: ${JSON.stringify(route.params)}, notFound: ${route.notFound}, module: m${i} },`,
  );
  lines.push("install([", ...list, "]);", "");
  return lines.join("\n");
}

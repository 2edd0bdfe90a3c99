/** Messages between the build (main thread) and a sandbox worker. Types only: erased at run time. */

/** One render to run in the sandbox. */
export interface SandboxJob {
  /** The render bundle (an IIFE script). */
  script: string;
  /** The CMS snapshot as JSON, handed to `__sitewright.setData`. */
  data: string;
  timeLimitMs: number;
  memoryLimitBytes: number;
  stackSizeBytes: number;
  maxPages: number;
  maxPageBytes: number;
}

/** `<title>`, description and language a page asked for through its `head` export. */
export interface PageHead {
  title?: string;
  description?: string;
  lang?: string;
}

/** A page the sandbox rendered: the body HTML of its component and its head. */
export interface RenderedPage {
  file: string;
  route: string;
  html: string;
  head: PageHead;
}

/** An exception of website code (or a route the runtime refused), with the sandbox's stack. */
export interface GuestProblem {
  file: string;
  route?: string;
  name: string;
  message: string;
  /** QuickJS stack: `    at fn (bundle.js:LINE:COLUMN)` lines. */
  stack: string;
}

/** Which limit stopped a render. */
export type LimitKind = "time" | "memory" | "stack" | "pages" | "output";

/** A limit hit: the render stopped there. */
export interface LimitHit {
  kind: LimitKind;
  /** The page being rendered, when known. */
  file?: string;
  route?: string;
  stack?: string;
  /** For `pages` and `output`: how many pages / bytes there were. */
  actual?: number;
}

/** Everything a sandbox run reports back. */
export interface SandboxOutcome {
  pages: RenderedPage[];
  problems: GuestProblem[];
  limit?: LimitHit;
  /** The sandbox failed for a reason of its own (not website code); the build reports it as internal. */
  crash?: string;
  /** What website code wrote to `console`. */
  logs: string[];
}

/** How a worker is started (fixed for its life: its WebAssembly memory cannot change). */
export interface WorkerConfig {
  memoryLimitBytes: number;
}

export type ToWorker = { type: "job"; id: number; job: SandboxJob };

export type FromWorker =
  | { type: "ready" }
  | { type: "progress"; id: number; file: string; route: string }
  | { type: "done"; id: number; outcome: SandboxOutcome; recycle: boolean };

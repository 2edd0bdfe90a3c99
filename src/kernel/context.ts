import type { Stores } from "../db/stores/index.ts";
import type { Access } from "./access.ts";
import type { Platform } from "./platform.ts";
import type { Principal } from "./principal.ts";

/**
 * How an operation was called: REST, MCP, the dashboard's pages, the dashboard's same-origin API (`/app-api`,
 * called by its scripts), or the platform itself (CLI, tests).
 */
export type Transport = "rest" | "mcp" | "dashboard" | "app" | "internal";

/** What a handler receives besides its input. Handlers never see HTTP or MCP. */
export interface ToolContext<P = undefined> {
  principal: Principal;
  /** Stores bound to the handler's unit of work (one transaction for mutations). */
  stores: Stores;
  /** Scope checks that also record the organization and website for the audit entry. */
  access: Access;
  platform: Platform;
  requestId: string;
  transport: Transport;
  /** The request's time (ms), one value for the whole operation. */
  now: number;
  /** What the tool's `prepare` returned (undefined for tools without one). */
  prepared: P;
  /**
   * Runs `work` once the handler's unit of work has committed (never when it fails or rolls back), before the
   * response: mail that must not go out for an invitation that was never stored. A failure there is logged,
   * not thrown: the operation already happened.
   */
  afterCommit(work: () => Promise<void>): void;
}

/**
 * What a tool's `prepare` receives: no stores, since no unit of work is open while it runs. It reads through
 * `read`, each call a short unit of work of its own, and never holds one across its slow part.
 */
export interface PrepareContext {
  principal: Principal;
  platform: Platform;
  requestId: string;
  transport: Transport;
  /** The request's time (ms), the same value the handler sees. */
  now: number;
  /** The organization and website the pipeline's scope check resolved (the principal reaches them). */
  resolved: { organizationId?: string; websiteId?: string };
  /** Runs reads in one short unit of work (on SQLite it waits for, then blocks, other units of work). */
  read<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
}

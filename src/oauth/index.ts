import type { H3 } from "h3";
import type { Platform } from "../platform.ts";

/** The OAuth 2.1 authorization server of the MCP resource and its metadata documents. */
export function registerOAuth(_app: H3, _platform: Platform): void {}

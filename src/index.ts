// Library entry: embed the platform in another process (tests, custom servers, tooling).

export { tools } from "../tools/index.ts";
export { type Database, openDatabase } from "./db/database.ts";
export { defineTool, mcpNameOf, type Tool, type ToolDefinition } from "./kernel/define-tool.ts";
export { ApiError, type ErrorBody, type ErrorKind } from "./kernel/errors.ts";
export { callTool } from "./kernel/pipeline.ts";
export { defaultConfig, type Platform, type PlatformConfig } from "./kernel/platform.ts";
export type { Principal } from "./kernel/principal.ts";
export { createPlatform } from "./platform.ts";
export { createApp, listen } from "./server.ts";
export { ensureLocalOwner } from "./services/organizations/bootstrap.ts";

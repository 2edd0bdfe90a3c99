/**
 * The website framework: builds a draft (pages, layouts, components, styles, public files) into
 * static HTML, rendering website code only inside the QuickJS sandbox. See docs/framework.md.
 */
export { buildSite } from "./build.ts";
export { snapshotCms } from "./cms.ts";
export { buildError, formatDiagnostic } from "./diagnostics.ts";
export { defaultLimits, resolveLimits } from "./limits.ts";
export { closeWorkerPools } from "./pools.ts";
export { contentTypeOf } from "./public-files.ts";
export { closeSandboxPool, SandboxPool, sandboxPool } from "./sandbox/pool.ts";
export { computeSourceHash, FRAMEWORK_VERSION } from "./source-hash.ts";
export { starterFiles } from "./starter/index.ts";
export type * from "./types.ts";

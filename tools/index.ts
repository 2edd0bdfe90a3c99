// Every operation of the platform, listed explicitly group by group. REST routes, OpenAPI and MCP tools derive
// from this list.
import type { InputOf, OutputOf, Tool } from "../src/kernel/define-tool.ts";
import { type CallOptions, operationCaller } from "../src/kernel/pipeline.ts";
import type { Platform } from "../src/kernel/platform.ts";
import { accountsTools } from "./accounts/index.ts";
import { analyticsTools } from "./analytics/index.ts";
import { apiKeysTools } from "./api-keys/index.ts";
import { assetsTools } from "./assets/index.ts";
import { auditLogTools } from "./audit-log/index.ts";
import { billingTools } from "./billing/index.ts";
import { cmsTools } from "./cms/index.ts";
import { contextTools } from "./context/index.ts";
import { documentationTools } from "./documentation/index.ts";
import { domainsTools } from "./domains/index.ts";
import { feedbackTools } from "./feedback/index.ts";
import { formsTools } from "./forms/index.ts";
import { functionsTools } from "./functions/index.ts";
import { mediaTools } from "./media/index.ts";
import { organizationsTools } from "./organizations/index.ts";
import { publishingTools } from "./publishing/index.ts";
import { researchTools } from "./research/index.ts";
import { secretsTools } from "./secrets/index.ts";
import { sourceCodeTools } from "./source-code/index.ts";
import { websiteEditorsTools } from "./website-editors/index.ts";
import { websitesTools } from "./websites/index.ts";

export const tools = [
  ...organizationsTools,
  ...websiteEditorsTools,
  ...websitesTools,
  ...apiKeysTools,
  ...auditLogTools,
  ...sourceCodeTools,
  ...publishingTools,
  ...cmsTools,
  ...analyticsTools,
  ...formsTools,
  ...secretsTools,
  ...functionsTools,
  ...assetsTools,
  ...researchTools,
  ...contextTools,
  ...mediaTools,
  ...domainsTools,
  ...billingTools,
  ...accountsTools,
  ...documentationTools,
  ...feedbackTools,
] as const satisfies readonly Tool[];

type AnyOperation = (typeof tools)[number];
/** Every operation id of the platform, as a string-literal union. */
export type OperationId = AnyOperation["operationId"];
/** What an operation takes, by id (the caller's side: before zod's defaults). */
export type OperationInput<Id extends OperationId> = InputOf<Extract<AnyOperation, { operationId: Id }>>;
/** What an operation returns, by id. */
export type OperationOutput<Id extends OperationId> = OutputOf<Extract<AnyOperation, { operationId: Id }>>;
/** A typed in-process call of an operation through the one pipeline (dashboard, CLI, tests). */
export type Call = <Id extends OperationId>(
  operationId: Id,
  input: OperationInput<Id>,
) => Promise<OperationOutput<Id>>;

/** The typed in-process caller of this tool list (see `operationCaller`). */
export const callerFor = (platform: Platform, call: CallOptions): Call =>
  operationCaller(platform, call) as Call;

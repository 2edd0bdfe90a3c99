// The Domains operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import domainsAdd from "./add.ts";
import domainsGet from "./get.ts";
import domainsList from "./list.ts";
import domainsRemove from "./remove.ts";
import domainsSetPrimary from "./set-primary.ts";
import domainsVerify from "./verify.ts";

export const domainsTools = [
  domainsList,
  domainsGet,
  domainsAdd,
  domainsVerify,
  domainsSetPrimary,
  domainsRemove,
] as const satisfies readonly Tool[];

// The source code operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import sourceCodeChangesList from "./changes-list.ts";
import sourceCodeFilesDelete from "./files-delete.ts";
import sourceCodeFilesDiff from "./files-diff.ts";
import sourceCodeFilesGet from "./files-get.ts";
import sourceCodeFilesList from "./files-list.ts";
import sourceCodeFilesMove from "./files-move.ts";
import sourceCodeFilesWrite from "./files-write.ts";
import sourceCodeFilesWriteMany from "./files-write-many.ts";
import sourceCodeLeaseAcquire from "./lease-acquire.ts";
import sourceCodeLeaseGet from "./lease-get.ts";
import sourceCodeLeaseRelease from "./lease-release.ts";
import sourceCodeLeaseRenew from "./lease-renew.ts";

export const sourceCodeTools = [
  sourceCodeLeaseAcquire,
  sourceCodeLeaseRenew,
  sourceCodeLeaseRelease,
  sourceCodeLeaseGet,
  sourceCodeFilesList,
  sourceCodeFilesGet,
  sourceCodeFilesWrite,
  sourceCodeFilesWriteMany,
  sourceCodeFilesDelete,
  sourceCodeFilesMove,
  sourceCodeChangesList,
  sourceCodeFilesDiff,
] as const satisfies readonly Tool[];

// The assets operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import assetsDelete from "./delete.ts";
import assetsGet from "./get.ts";
import assetsImportFromUrl from "./import-from-url.ts";
import assetsList from "./list.ts";
import assetsUpdate from "./update.ts";
import assetsUpload from "./upload.ts";
import assetsUsageList from "./usage-list.ts";

export const assetsTools = [
  assetsUpload,
  assetsImportFromUrl,
  assetsList,
  assetsGet,
  assetsUpdate,
  assetsDelete,
  assetsUsageList,
] as const satisfies readonly Tool[];

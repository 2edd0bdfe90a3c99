// The Project Context operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import contextDelete from "./delete.ts";
import contextGet from "./get.ts";
import contextInspectImage from "./inspect-image.ts";
import contextList from "./list.ts";
import contextRead from "./read.ts";
import contextRename from "./rename.ts";
import contextSearch from "./search.ts";
import contextUpload from "./upload.ts";

export const contextTools = [
  contextUpload,
  contextList,
  contextGet,
  contextRename,
  contextDelete,
  contextSearch,
  contextRead,
  contextInspectImage,
] as const satisfies readonly Tool[];

// The media generation operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import mediaGenerateImages from "./generate-images.ts";

export const mediaTools = [mediaGenerateImages] as const satisfies readonly Tool[];

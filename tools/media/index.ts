// The media generation operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import mediaCreditUseGet from "./credit-use-get.ts";
import mediaGenerateImages from "./generate-images.ts";

export const mediaTools = [mediaCreditUseGet, mediaGenerateImages] as const satisfies readonly Tool[];

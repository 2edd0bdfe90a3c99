// The web research operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import researchContactSheet from "./contact-sheet.ts";
import researchMeasure from "./measure.ts";
import researchReadBusiness from "./read-business.ts";
import researchScreenshot from "./screenshot.ts";

export const researchTools = [
  researchScreenshot,
  researchMeasure,
  researchReadBusiness,
  researchContactSheet,
] as const satisfies readonly Tool[];

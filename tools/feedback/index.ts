import type { Tool } from "../../src/kernel/define-tool.ts";
import submit from "./submit.ts";

export const feedbackTools = [submit] as const satisfies readonly Tool[];

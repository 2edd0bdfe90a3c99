import { z } from "zod";
import type { ToolContext } from "../../src/kernel/context.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { item } from "./schemas.ts";

/** Result shapes of the bulk item tools: one result per input item, in input order. */
export const bulkError = z.object({
  kind: z.string(),
  message: z.string(),
  suggestion: z.string().optional(),
  validValues: z.array(z.unknown()).optional(),
  retryAfterSeconds: z.number().optional(),
  details: z.array(z.unknown()).optional(),
});

export const bulkResult = z.object({
  results: z
    .array(
      z.object({
        index: z.number().int().describe("Position in the input."),
        ok: z.boolean(),
        item: item.optional().describe("The item written (ok)."),
        error: bulkError.optional().describe("Why this one was refused (not ok); nothing of it was written."),
      }),
    )
    .describe("One result per input item, in input order."),
  succeeded: z.number().int(),
  failed: z.number().int(),
});

/**
 * Runs `one` for each input; a refused item (an ApiError other than internal) is reported and writes nothing,
 * anything unexpected fails the whole call. Suggestions name operations in the caller's transport.
 */
export async function runBulk<T, R>(
  ctx: ToolContext<unknown>,
  inputs: readonly T[],
  one: (input: T) => Promise<R>,
) {
  const name = (id: string) => ctx.platform.registry.nameFor(ctx.transport, id);
  const results: { index: number; ok: boolean; item?: R; error?: ReturnType<ApiError["toBody"]> }[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      results.push({ index, ok: true, item: await one(input) });
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind === "internal") throw error;
      results.push({ index, ok: false, error: error.toBody(name) });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}

import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";
import { limits } from "../../src/services/source-code/limits.ts";

export const leaseId = z.string().min(1).optional().describe("From website_source_code_lease_acquire.");

export const filePath = (what = "Path") =>
  z.string().min(1).describe(`${what}, e.g. pages/index.tsx (at most ${limits.maxPathLength} characters).`);

export const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hexadecimal characters");

export const expectedSha256 = sha256
  .nullable()
  .optional()
  .describe("Its current sha256 (website_source_code_files_get), else conflict; null: create only.");

export const content = z
  .string()
  .describe(`The complete new text (no NUL, at most ${limits.maxFileBytes / 1024} KiB).`);

export const encoding = z.enum(["utf8", "base64"]).default("utf8").describe("base64 of UTF-8 text.");

export const file = z.object({
  path: z.string().describe("Path of the file in the draft."),
  size: z.number().int().describe("Size in bytes (UTF-8)."),
  sha256: z
    .string()
    .describe("SHA-256 of the content (lowercase hex); pass it as expectedSha256 to update safely."),
  updatedAt: fields.timestamp(),
  updatedBy: z
    .object({ type: z.string(), id: z.string() })
    .describe("Who last wrote it: principal type ('api_key' or 'user') and id."),
});

export const written = z.object({
  path: z.string(),
  sha256: z.string().describe("SHA-256 of the content now in the draft."),
  size: z.number().int(),
  created: z.boolean().describe("True when the file did not exist before."),
  changed: z
    .boolean()
    .describe("False when the draft already had exactly this content (nothing was written)."),
});

export const draftTotals = z
  .object({ files: z.number().int(), bytes: z.number().int() })
  .describe(
    `The draft's size after the call (caps: ${limits.maxDraftFiles} files, ${limits.maxDraftBytes / (1024 * 1024)} MiB).`,
  );

export const lease = z.object({
  leaseId: z
    .string()
    .optional()
    .describe("Present only for the holder: pass it to every change of the draft."),
  websiteId: fields.websiteId(),
  holder: z
    .object({ type: z.string(), id: z.string(), label: z.string() })
    .describe("Who holds the lease: principal type, id, and name (the API key's name or the user's)."),
  heldByYou: z.boolean().describe("True when this credential holds the lease."),
  acquiredAt: fields.timestamp(),
  expiresAt: fields.timestamp(),
});

export const ttlSeconds = z
  .number()
  .int()
  .min(limits.leaseTtlMinSeconds)
  .max(limits.leaseTtlMaxSeconds)
  .default(limits.leaseTtlDefaultSeconds)
  .describe("Lease length in seconds.");

export const deploymentId = fields
  .id("deployment")
  .optional()
  .describe("Compare with this deployment instead of the published one.");

/** Audit target of file operations: the file's path. */
export const fileTarget = (path: string) => ({ type: "websiteSourceCode.files", id: path });

import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";
import { limits } from "../../src/services/source-code/limits.ts";

export const leaseId = z
  .string()
  .min(1)
  .optional()
  .describe(
    "Id of your live edit lease, from website_source_code_lease_acquire. Every change to the draft needs it; without a live lease held by this credential the call fails with conflict.",
  );

export const filePath = (what = "Path of the file") =>
  z
    .string()
    .min(1)
    .describe(
      `${what}, relative to the draft's root with '/' separators, such as 'pages/index.tsx' (no leading '/', no '..', at most ${limits.maxPathLength} characters).`,
    );

export const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hexadecimal characters");

export const expectedSha256 = sha256
  .nullable()
  .optional()
  .describe(
    "Optimistic concurrency: the sha256 the file must have now (from files_get or files_list), or null when the file must not exist yet. A mismatch fails with conflict and changes nothing. Omit to write unconditionally.",
  );

export const content = z
  .string()
  .describe(
    `The complete new text of the file (UTF-8, no NUL characters, at most ${limits.maxFileBytes / 1024} KiB).`,
  );

export const encoding = z
  .enum(["utf8", "base64"])
  .default("utf8")
  .describe(
    "How content is given: 'utf8' text (default) or 'base64' of UTF-8 bytes. Binary files are refused.",
  );

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
  .describe(
    `Lease length in seconds, ${limits.leaseTtlMinSeconds} to ${limits.leaseTtlMaxSeconds} (default ${limits.leaseTtlDefaultSeconds}). Renew before it ends for longer sessions.`,
  );

export const deploymentId = fields
  .id("deployment")
  .optional()
  .describe("Compare with this deployment of the website instead of the published one.");

/** Audit target of file operations: the file's path. */
export const fileTarget = (path: string) => ({ type: "websiteSourceCode.files", id: path });

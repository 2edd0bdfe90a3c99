import { z } from "zod";
import type { SecretRecord } from "../../src/db/stores/secrets.ts";
import { iso } from "../../src/kernel/schemas.ts";
import { SECRET_NAME } from "../../src/services/secrets/secrets.ts";

/** A secret's name in an input: what server functions read as `env.<NAME>`. */
export const secretName = () =>
  z
    .string()
    .regex(SECRET_NAME, "must match ^[A-Z_][A-Z0-9_]{0,63}$ (upper-case letters, digits, underscores)")
    .describe("e.g. MAILER_API_KEY.");

/** A secret as operations show it: never its value. */
export const secret = z.object({
  name: z.string(),
  createdAt: z.string().describe("When the secret was first set."),
  updatedAt: z.string().describe("When its value was last replaced."),
});

export const projectSecret = (record: SecretRecord): z.infer<typeof secret> => ({
  name: record.name,
  createdAt: iso(record.createdAt),
  updatedAt: iso(record.updatedAt),
});

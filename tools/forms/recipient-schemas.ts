import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";

export const recipient = z.object({
  id: fields.id("recipient"),
  websiteId: fields.websiteId(),
  email: z.string(),
  status: z
    .enum(["pending", "confirmed"])
    .describe(
      "pending: the confirmation link mailed to the address was not opened yet, so it receives nothing; confirmed: it receives new submissions.",
    ),
  confirmedAt: fields.timestamp().nullable(),
  createdAt: fields.timestamp(),
});

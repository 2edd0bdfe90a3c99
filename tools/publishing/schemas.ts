import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";

export const page = z.object({
  route: z
    .string()
    .describe(
      "URL path of the page, with a trailing slash for folders ('/', '/about/'); '/404.html' for the not-found page.",
    ),
  path: z
    .string()
    .describe("File the deployment serves it from ('index.html', 'about/index.html', '404.html')."),
});

export const diagnostic = z.object({
  file: z
    .string()
    .describe("Draft file the problem is in ('pages/index.tsx'), or '(render)', '(console)', '(cms)'."),
  line: z.number().int().describe("1-based line; 0 when the problem has no position."),
  column: z.number().int().describe("1-based column; 0 when the problem has no position."),
  message: z.string(),
});

export const deployment = z.object({
  id: fields.id("deployment"),
  websiteId: fields.websiteId(),
  status: z
    .string()
    .describe(
      "'ready': built and servable. Builds run within the call that creates a deployment, so deployments appear ready.",
    ),
  createdAt: fields.timestamp(),
  createdBy: z
    .object({ type: z.string(), id: z.string() })
    .describe("Who built it: principal type ('api_key' or 'user') and id."),
  sourceHash: z
    .string()
    .describe(
      "SHA-256 identifying the source it was built from; an unchanged draft has the same hash and reuses it.",
    ),
  pages: z.array(page).describe("Pages it serves."),
  published: z.boolean().describe("True when it is the version the live site serves now."),
});

export const url = z.string().describe("Where the live website is served.");

export const previousDeploymentId = z
  .string()
  .nullable()
  .describe(
    "The deployment the live site served before this call (null when nothing was published): pass it to website_source_code_published_rollback to undo.",
  );

export const deploymentId = fields.id("deployment");

/** Audit target of publishing operations: the deployment concerned. */
export const deploymentTarget = (id: string) => ({ type: "websiteSourceCode.deployments", id });

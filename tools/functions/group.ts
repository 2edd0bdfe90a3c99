import { defineGroup } from "../../src/kernel/define-tool.ts";

export const functionsGroup = defineGroup({
  tag: "Server functions",
  description:
    "A website's server functions (functions/<name>.ts exporting http(request, { env, log, fetch }), served at POST /_framework/server/<name> on the live site): their recorded runs with logs and errors, and running a function on the draft before publishing.",
  toolset: "forms",
  defaults: { access: "content_editor" },
});

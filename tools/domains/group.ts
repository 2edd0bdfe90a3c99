import { defineGroup } from "../../src/kernel/define-tool.ts";

export const domainsGroup = defineGroup({
  tag: "Domains",
  description:
    "Custom domains of a website: add one, create the DNS records it returns, verify them, make a domain primary, remove it. Every website also has its platform subdomain.",
  toolset: "assets",
  defaults: { access: "full_editor" },
});

/**
 * Toolsets: the groups of tools a client picks from (`?toolsets=` on the MCP URL, the `X-MCP-Toolsets` header, or
 * the OAuth consent). Every operation group declares its toolset once, on `defineGroup`.
 */
export const toolsetCatalog = {
  websites: "Create, find, update and delete websites.",
  publishing: "A website's source files and edit lease, builds, previews, publishing and rollback.",
  cms: "CMS collections, fields and items.",
  assets: "Uploaded images and files, and custom domains.",
  forms: "Forms and their submissions, server functions and their secrets.",
  analytics: "Visitor analytics of published websites.",
  research: "Research and media tools.",
  organization: "Organizations, members, invitations, website editors, API keys, the audit log and billing.",
  docs: "The product documentation, and feedback about the product.",
} as const;

/** A toolset's id. */
export type Toolset = keyof typeof toolsetCatalog;

/** Every toolset id, in catalog order. */
export const toolsets = Object.keys(toolsetCatalog) as Toolset[];

/** What a client gets when it picks none: what building and editing a site needs. */
export const defaultToolsets: readonly Toolset[] = [
  "websites",
  "publishing",
  "cms",
  "assets",
  "forms",
  "docs",
];

/** True for a known toolset id. */
export function isToolset(value: string): value is Toolset {
  return Object.hasOwn(toolsetCatalog, value);
}

// The CMS services, by responsibility.
export * from "./items.ts";
export * from "./records.ts";
export { prerenderValues } from "./rich-text.ts";
export * from "./schema-changes.ts";

// The CMS services, by responsibility.
export * from "./items.ts";
export * from "./records.ts";
export * from "./schema-changes.ts";

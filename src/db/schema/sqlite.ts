// SQLite schema, one file per area under ./sqlite/. Mirrors ./pg.ts table for table and column for column.
export * from "./sqlite/accounts.ts";
export * from "./sqlite/cms.ts";
export * from "./sqlite/core.ts";
export * from "./sqlite/email-verification.ts";
export * from "./sqlite/source-code.ts";

// PostgreSQL schema, one file per area under ./pg/. Mirrors ./sqlite.ts table for table and column for column.
export * from "./pg/accounts.ts";
export * from "./pg/cms.ts";
export * from "./pg/core.ts";
export * from "./pg/email-verification.ts";
export * from "./pg/source-code.ts";

import { bigint } from "drizzle-orm/pg-core";

/** A time column: Unix milliseconds. */
export const ms = (name: string) => bigint(name, { mode: "number" });

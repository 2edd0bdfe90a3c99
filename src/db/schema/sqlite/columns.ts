import { integer } from "drizzle-orm/sqlite-core";

/** A time column: Unix milliseconds. */
export const ms = (name: string) => integer(name, { mode: "number" });

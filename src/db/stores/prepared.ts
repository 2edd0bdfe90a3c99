/**
 * A query prepared on first use and reused for the life of the store's handle. Building a drizzle query costs
 * ~10× running a prepared one, so hot lookups (authentication, scope checks, common lists) are prepared once
 * per connection and afterwards only bound (`.execute({ placeholder: value })`). Stores bound to a
 * PostgreSQL transaction are short-lived, so there a prepared query lives for that transaction.
 * Unique lookups carry no `.limit(1)`: drizzle binds it as `LIMIT ?`, which SQLite plans 2–3× slower.
 */
export function once<T>(build: () => T): () => T {
  let query: T | undefined;
  return () => (query ??= build());
}

/**
 * A counter of this process's write transactions, bumped when one starts and again when it ends (committed or
 * not). Caches of database reads (hosting's host and asset lookups) keep the value they saw before reading and
 * drop an entry once it moved: a write made through this process is seen by the next request. Writes of other
 * processes are not counted; those caches expire their entries after a short time for them.
 */
let generation = 0;

/** The current count (compare with an earlier one: equal means no write started or ended in between). */
export const writeGeneration = (): number => generation;

/** Counts a write transaction's start or end. */
export const noteWrite = (): void => {
  generation++;
};

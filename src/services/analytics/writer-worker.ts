// The analytics writer thread (see writer-thread.ts): owns its own connection to the database and writes the
// batches of hits the collector posts (`WireBatch`, see hit-batch.ts), one at a time, answering each
// with what it wrote.
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "../../db/database.ts";
import { flatHits, type WireBatch } from "./hit-batch.ts";
import { createBatchWriter } from "./writer.ts";

const { url, geoip } = workerData as { url: string; geoip?: Uint8Array };
const opening = openDatabase({ url }).then((db) => ({ db, write: createBatchWriter(db, geoip) }));
// A failed open answers every batch with the error (the collector counts them as dropped and logs it).
opening.catch(() => undefined);

parentPort?.on("message", async (message: { id: number; batch?: WireBatch; close?: true }) => {
  try {
    const { db, write } = await opening;
    if (message.close) {
      await db.close();
      parentPort?.postMessage({ id: message.id, closed: true });
      return;
    }
    parentPort?.postMessage({
      id: message.id,
      ...(await write(message.batch ? flatHits(message.batch) : [])),
    });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: String((error as Error)?.stack ?? error) });
  }
});

// A process that publishes one website over and over, for test/publish-crash.test.ts to kill -9 at random moments.
//
//   node --import tsx test/support/publish-loop.ts <database url> <blob root> <website id>
//
// It opens the same database and blob store as the test, takes the edit lease as the local owner, checks the
// draft once (so the sandbox is warm), then loops: write the draft (the home page of version A or B,
// alternating, and public files unique to this iteration, so every publish builds and stores a new deployment),
// publish it with the real operation. Its output, one line per step:
//
//   ready                                 set up; the loop starts now
//   write <i> <version>                   writing the draft of iteration i
//   publish <i> <version>                 publishing it: reading the draft, building, putting blobs
//   commit <i>                            the publish's transaction has done all its writes and is about to
//                                         commit; it stays open COMMIT_HOLD_MS first, as on a slow disk
//   published <i> <version> <deployment>  committed
//
// It stops by itself when its stdin closes (the test went away) or after ten minutes.

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fsBlobStore } from "../../src/blobs/index.ts";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { callTool } from "../../src/kernel/pipeline.ts";
import { createPlatform } from "../../src/platform.ts";
import { ensureLocalOwner } from "../../src/services/organizations/bootstrap.ts";
import { tools } from "../../tools/index.ts";

/** The two versions of the home page the loop alternates between (the test builds the same two). */
export const crashVersions = {
  A: 'export const head = { title: "Version A" };\n\nexport default function Home() {\n  return <main><h1>Version A</h1><p>The first of two versions.</p></main>;\n}\n',
  B: 'export const head = { title: "Version B" };\n\nexport default function Home() {\n  return <main><h1>Version B</h1><p>The second of two versions, a little longer than the first.</p></main>;\n}\n',
} as const;

/** Iteration i publishes version B when i is even, A when odd (the test's own first publish is A). */
export const versionOf = (iteration: number): "A" | "B" => (iteration % 2 === 0 ? "B" : "A");

/** Public files written with every iteration: their contents are unique, so each publish is a new deployment. */
export const STAMP_FILES = 24;

export const stampFiles = (stamp: string): { path: string; content: string }[] =>
  Array.from({ length: STAMP_FILES }, (_, n) => ({
    path: `public/stamp/${n}.txt`,
    content: `iteration ${stamp}, file ${n}\n`,
  }));

/** How long the publish's transaction stays open after its writes, before it commits. */
export const COMMIT_HOLD_MS = 40;

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function main(): Promise<void> {
  const [url, blobRoot, websiteId] = process.argv.slice(2);
  if (!url || !blobRoot || !websiteId) {
    throw new Error("usage: publish-loop.ts <database url> <blob root> <website id>");
  }
  const opened = await openDatabase({ url });
  let phase = "setup";
  let iteration = -1;
  // The same database, with the publish's transaction announced (and held open a moment) before it commits.
  const db: Database = {
    dialect: opened.dialect,
    rateLimiter: opened.rateLimiter,
    read: (work) => opened.read(work),
    close: () => opened.close(),
    transaction: (work) =>
      opened.transaction(async (stores) => {
        const result = await work(stores);
        if (phase === "publish") {
          say(`commit ${iteration}`);
          await sleep(COMMIT_HOLD_MS);
        }
        return result;
      }),
  };
  const platform = await createPlatform({
    tools,
    db,
    blobs: fsBlobStore(blobRoot),
    log: { info: () => undefined, error: (message, ...details) => console.error(message, ...details) },
  });
  const { principal } = await ensureLocalOwner(db);
  let requests = 0;
  const call = (operationId: string, input: unknown): Promise<any> =>
    callTool(platform, platform.registry.byOperationId(operationId)!, input, {
      principal,
      transport: "internal",
      requestId: `req_loop_${process.pid}_${++requests}`,
    });
  // The owner held the lease in the killed process too: acquiring again renews the same lease.
  const { leaseId } = await call("websiteSourceCode.lease.acquire", { websiteId, ttlSeconds: 600 });
  await call("websiteSourceCode.head.check", { websiteId });

  const stop = () => process.exit(0);
  process.stdin.on("end", stop).on("close", stop).resume();
  setTimeout(stop, 600_000).unref();

  say("ready");
  for (iteration = 0; ; iteration++) {
    const version = versionOf(iteration);
    phase = "write";
    say(`write ${iteration} ${version}`);
    await call("websiteSourceCode.files.writeMany", {
      websiteId,
      leaseId,
      files: [
        { path: "pages/index.tsx", content: crashVersions[version] },
        ...stampFiles(`${process.pid}.${iteration}`),
      ],
    });
    phase = "publish";
    say(`publish ${iteration} ${version}`);
    const published = await call("websiteSourceCode.head.publish", { websiteId });
    say(`published ${iteration} ${version} ${published.deployment.id}`);
  }
}

// Only when run as a script (the test imports the constants above).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}

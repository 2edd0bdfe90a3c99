// Two `sitewright serve` processes, started from different working directories, on one PostgreSQL database and
// one shared blob folder, as an operator runs them behind a proxy.
//
// The drain protocol this test holds the nodes to (docs/operations.md): the test plays the proxy. It sends load
// to every node in rotation and polls the nodes' /readyz every 50 ms; a node whose /readyz answers anything but
// 200 (or cannot be reached) leaves the rotation. On SIGTERM a node answers /readyz with 503 at once, keeps serving
// for SITEWRIGHT_DRAIN_DELAY_MS (longer than a health check takes on a loaded machine), then refuses new connections and finishes the requests it accepted (a publish's
// build included). So every request of the load, to either node, must get its 2xx answer: none refused, none
// cut, and every acknowledged write is in the database afterwards.

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fsBlobStore } from "../../src/blobs/index.ts";
import { createPlatform } from "../../src/platform.ts";
import { runHousekeeping } from "../../src/services/housekeeping.ts";
import { generateSecretsKey } from "../../src/services/secrets/crypto.ts";
import { tools } from "../../tools/index.ts";
import { rawQuery } from "../stores/fixtures.ts";
import { dialects, openTestDatabase, type TestDatabase } from "../support/databases.ts";
import { rawRequest } from "../support/hosting.ts";
import { type Started, startUntil } from "../support/processes.ts";
import { root } from "../support/run.ts";

const run = promisify(execFile);
const bin = join(root, "bin", "sitewright.js");
const pg = dialects.find((d) => d.name === "pg")!;

interface Node {
  process: Started;
  port: number;
  origin: string;
  cwd: string;
}

describe.skipIf(!pg.available)(
  "two serve nodes on one PostgreSQL and one blob folder",
  { timeout: 240_000 },
  () => {
    let database: TestDatabase;
    let blobRoot: string;
    let a: Node;
    let b: Node;
    let adminKey: string;
    let organizationId: string;
    const dirs: string[] = [];

    // every node decrypts the secrets any node set: one key for all
    const secretsKey = generateSecretsKey();
    const start = async (name: string, extra: Record<string, string> = {}): Promise<Node> => {
      const cwd = mkdtempSync(join(tmpdir(), `sitewright-node-${name}-`));
      dirs.push(cwd);
      const { DATABASE_URL: _, ...env } = process.env;
      const started = await startUntil(process.execPath, [bin, "serve", "--mail-console"], {
        cwd,
        env: {
          ...env,
          DATABASE_URL: database.url,
          SITEWRIGHT_BLOB_ROOT: blobRoot,
          SITEWRIGHT_SECRETS_KEY: secretsKey,
          PORT: "0",
          HOST: "127.0.0.1",
          SITEWRIGHT_LOG_FORMAT: "json",
          ...extra,
        },
        ready: /Sitewright serving .* on port \d+/,
        timeoutMs: 120_000, // a few seconds idle; 5–8 times that on a loaded CI machine
      });
      const port = Number(/on port (\d+)/.exec(started.output())![1]);
      return { process: started, port, origin: `http://127.0.0.1:${port}`, cwd };
    };
    const api = async (node: Node, method: string, path: string, body?: unknown, key = adminKey) => {
      const response = await fetch(`${node.origin}/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    };

    beforeAll(async () => {
      database = await openTestDatabase("pg");
      blobRoot = mkdtempSync(join(tmpdir(), "sitewright-shared-blobs-"));
      dirs.push(blobRoot);
      const created = await run(process.execPath, [bin, "keys", "create", "--role", "admin", "--json"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: database.url, SITEWRIGHT_BLOB_ROOT: blobRoot },
      });
      adminKey = JSON.parse(created.stdout).plaintextKey;
      [a, b] = await Promise.all([
        start("a", { SITEWRIGHT_DRAIN_DELAY_MS: "1500", SITEWRIGHT_SHUTDOWN_TIMEOUT_MS: "120000" }),
        start("b"),
      ]);
      for (const node of [a, b]) {
        const ready = await fetch(`${node.origin}/readyz`);
        expect(ready.status).toBe(200);
      }
      organizationId = (await api(a, "GET", "/organizations")).body.items[0].id;
    }, 240_000);
    afterAll(async () => {
      await Promise.all([a?.process.stop(), b?.process.stop()]);
      await database?.dispose();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it("publishes through one node and serves every page from the other", async () => {
      const website = (await api(a, "POST", "/websites", { organizationId, name: "Two Nodes" })).body;
      const published = await api(a, "POST", "/websiteSourceCode/head/publish", { websiteId: website.id });
      expect(published.status).toBe(200);
      const pages = published.body.deployment.pages.map((page: { route: string }) => page.route);
      expect(pages.length).toBeGreaterThan(3);
      for (const route of pages) {
        const fromB = await rawRequest(b.port, `${website.slug}.localhost`, route);
        const fromA = await rawRequest(a.port, `${website.slug}.localhost`, route);
        expect([route, fromB.status]).toStrictEqual([route, 200]);
        expect(fromB.body.equals(fromA.body)).toBe(true);
      }
    });

    it("sweeps unreferenced blobs from a third node while a publish runs, and the publish is served whole", async () => {
      // An orphan (what a killed publish leaves) last put two hours ago, past the sweep's grace period.
      const orphan = Buffer.from(`orphan ${Date.now()}`);
      const sha256 = createHash("sha256").update(orphan).digest("hex");
      const folder = join(blobRoot, sha256.slice(0, 2));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, sha256), orphan);
      const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
      utimesSync(join(folder, sha256), old, old);

      const sweeper = await createPlatform({ tools, db: database.db, blobs: fsBlobStore(blobRoot) });
      const website = (await api(a, "POST", "/websites", { organizationId, name: "Swept" })).body;
      const publishing = api(a, "POST", "/websiteSourceCode/head/publish", { websiteId: website.id });
      const sweeps: number[] = [];
      let done = false;
      void publishing.finally(() => {
        done = true;
      });
      while (!done) {
        sweeps.push((await runHousekeeping(sweeper)).blobs);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const published = await publishing;
      expect(published.status).toBe(200);
      expect(sweeps.reduce((sum, n) => sum + n, 0)).toBe(1);
      expect(existsSync(join(folder, sha256))).toBe(false);
      for (const { route } of published.body.deployment.pages as { route: string }[]) {
        expect([route, (await rawRequest(b.port, `${website.slug}.localhost`, route)).status]).toStrictEqual([
          route,
          200,
        ]);
      }
    });

    it("applies a key created and revoked on one node on the very next request on the other", async () => {
      const key = await api(a, "POST", "/apiKeys", {
        organizationId,
        name: "crossing",
        access: { kind: "organization", role: "admin" },
      });
      expect(key.status).toBe(200);
      expect((await api(b, "GET", "/websites", undefined, key.body.plaintextKey)).status).toBe(200);
      expect((await api(a, "POST", `/apiKeys/${key.body.id}/revoke`, {})).status).toBe(200);
      expect((await api(b, "GET", "/websites", undefined, key.body.plaintextKey)).status).toBe(401);
    });

    it("shares one rate-limit bucket: what one node took, the other refuses", async () => {
      const key = (
        await api(a, "POST", "/apiKeys", {
          organizationId,
          name: "bucket",
          access: { kind: "organization", role: "admin" },
        })
      ).body.plaintextKey as string;
      // The expensive bucket (200, then 20 a second) is charged before the input is read: an empty publish
      // request costs a token and builds nothing.
      const started = Date.now();
      for (let i = 0; i < 150; i++) {
        expect((await api(a, "POST", "/websiteSourceCode/head/publish", {}, key)).status).toBe(400);
      }
      let fromB = 0;
      while ((await api(b, "POST", "/websiteSourceCode/head/publish", {}, key)).status === 400) fromB++;
      const elapsed = (Date.now() - started) / 1000;
      expect(fromB).toBeGreaterThanOrEqual(50);
      expect(150 + fromB).toBeLessThanOrEqual(200 + Math.ceil(20 * elapsed) + 1);
    });

    it("drains a node on SIGTERM under load without a failed request or a lost write", async () => {
      const website = (await api(a, "POST", "/websites", { organizationId, name: "Drain" })).body;
      expect(
        (await api(b, "POST", "/websiteSourceCode/head/publish", { websiteId: website.id })).status,
      ).toBe(200);
      const inRotation = new Map([
        [a, true],
        [b, true],
      ]);
      let checking = true;
      const checker = (async () => {
        while (checking) {
          // Each node on its own, as a proxy checks them: a slow answer from one never delays noticing the other.
          await Promise.all(
            [a, b].map(async (node) => {
              const ready = await fetch(`${node.origin}/readyz`).catch(() => undefined);
              if (ready?.status !== 200) inRotation.set(node, false);
              await ready?.arrayBuffer();
            }),
          );
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const outcomes: { node: string; what: string; status: number | string }[] = [];
      const acknowledged: string[] = [];
      let loading = true;
      let turn = 0;
      const pick = () => {
        const nodes = [a, b].filter((node) => inRotation.get(node));
        return nodes[turn++ % nodes.length]!;
      };
      const worker = async (n: number) => {
        for (let i = 0; loading; i++) {
          const node = pick();
          const label = node === a ? "a" : "b";
          try {
            if (i % 3 === 2) {
              const name = `load-${n}-${i}`;
              const created = await api(node, "POST", "/apiKeys", {
                organizationId,
                name,
                access: { kind: "organization", role: "content_editor" },
              });
              outcomes.push({ node: label, what: "write", status: created.status });
              if (created.status === 200) acknowledged.push(name);
            } else if (i % 3 === 1) {
              const page = await rawRequest(node.port, `${website.slug}.localhost`, "/");
              outcomes.push({ node: label, what: "site", status: page.status });
            } else {
              outcomes.push({
                node: label,
                what: "read",
                status: (await api(node, "GET", "/websites")).status,
              });
            }
          } catch (error) {
            outcomes.push({ node: label, what: "error", status: String((error as Error).cause ?? error) });
          }
        }
      };
      const load = Promise.all(Array.from({ length: 4 }, (_, n) => worker(n)));
      const servedBy = (label: string) => outcomes.filter((outcome) => outcome.node === label).length;
      // Conditions, not sleeps: however slow the machine, both nodes carry load before the stop, the publish has
      // reached the stopping node, and load goes on to the other node after the stop.
      const until = (condition: () => boolean) =>
        vi.waitFor(() => expect(condition()).toBe(true), { timeout: 120_000, interval: 20 });
      await until(() => servedBy("a") > 10 && servedBy("b") > 10);
      // A publish (a build of a few seconds) in flight on the stopping node when it stops accepting.
      const edited = (await api(a, "POST", "/websites", { organizationId, name: "In flight" })).body;
      let sent = false;
      const publishing = rawRequest(a.port, `127.0.0.1:${a.port}`, "/v1/websiteSourceCode/head/publish", {
        method: "POST",
        headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
        body: JSON.stringify({ websiteId: edited.id }),
        onSent: () => {
          sent = true;
        },
      });
      await until(() => sent);
      const exited = new Promise<number | null>((resolve) =>
        a.process.child.once("exit", (code) => resolve(code)),
      );
      a.process.child.kill("SIGTERM");
      const code = await exited;
      const publish = await publishing;
      const servedByBAtExit = servedBy("b");
      await until(() => servedBy("b") >= servedByBAtExit + 20);
      loading = false;
      await load;
      checking = false;
      await checker;

      expect(code).toBe(0);
      expect(publish.status).toBe(200);
      expect(inRotation.get(a)).toBe(false);
      const failed = outcomes.filter((outcome) => outcome.status !== 200);
      expect(failed).toStrictEqual([]);
      expect(servedBy("a")).toBeGreaterThan(10);
      expect(servedBy("b")).toBeGreaterThan(servedByBAtExit);
      const stored = await rawQuery("pg", database.url, "SELECT name FROM api_keys WHERE name LIKE 'load-%'");
      const names = new Set(stored.map((row) => row.name));
      for (const name of acknowledged) expect(names).toContain(name);
      const log = a.process.output();
      expect(log).toMatch(/"msg":"shutting down: draining requests"/);
      expect(log).toMatch(/"msg":"stopped after \d+ ms"/);
      // Node B serves on, and saw nothing of it.
      expect((await api(b, "GET", "/websites")).status).toBe(200);
    });
  },
);

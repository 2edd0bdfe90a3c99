// The node:http fast path writes a page served a moment ago again (`HotReplies`): repeated requests over a real
// socket get the same bytes and headers as the first, each with its own request id and page view, and a publish,
// a rollback (also one committed by another connection, alone or alongside a batch of the analytics writer thread)
// or an unpublish is served by the very next request.
import { brotliDecompressSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { closeSandboxPool } from "../../src/framework/index.ts";
import { newId } from "../../src/kernel/ids.ts";
import { rawQuery } from "../stores/fixtures.ts";
import { dialects } from "../support/databases.ts";
import { publishFiles, type RawResponse, rawRequest, setPublished } from "../support/hosting.ts";
import { useListeningPlatform } from "../support/platform.ts";

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** A site whose home page says `text` (long enough to be compressed). */
const site = (text: string) => ({
  "pages/index.tsx": `export default function Home() { return <main><h1>${text}</h1><p>${"Calm words. ".repeat(40)}</p></main>; }\n`,
});

/** Headers of a response without its request id (the one header that differs between two answers). */
const headersOf = (response: RawResponse) =>
  Object.fromEntries([...response.headers].filter(([name]) => name !== "x-request-id" && name !== "date"));

afterAll(closeSandboxPool);

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`hosting: repeated requests [${dialect.name}]`, () => {
    // Page views written on the collector's worker thread with its own connection, as `serve` writes them.
    const served = useListeningPlatform(dialect.name, { analyticsThread: true });

    const published = async (text: string) => {
      const website = await served.t.createWebsite(`Hot ${newId().slice(-6)}`);
      const { deploymentId } = await publishFiles(served.t.platform, website.id, site(text));
      return { ...website, host: `${website.slug}.localhost`, deploymentId };
    };
    /** Points the website at a deployment through a connection of its own (as another node would). */
    const publishFromAnotherConnection = (websiteId: string, deploymentId: string) => {
      const mark = dialect.name === "pg" ? ["$1", "$2"] : ["?", "?"];
      return rawQuery(
        dialect.name,
        served.t.databaseUrl,
        `UPDATE website_publish_state SET published_deployment_id = ${mark[0]} WHERE website_id = ${mark[1]}`,
        [deploymentId, websiteId],
      );
    };
    const get = (host: string, path: string, headers: Record<string, string> = {}, method = "GET") =>
      rawRequest(served.port, host, path, { headers, method });
    const times = async (n: number, send: () => Promise<RawResponse>) => {
      const answers: RawResponse[] = [];
      for (let i = 0; i < n; i++) answers.push(await send());
      return answers;
    };

    it("answers a repeated request with the first answer's bytes and headers, its own request id; HEAD, encodings and If-None-Match unchanged", async () => {
      const w = await published("Repeated");
      const plain = await times(4, () => get(w.host, "/?ref=a"));
      const first = plain[0]!;
      expect(first.status).toBe(200);
      expect(first.body.toString()).toContain("<h1>Repeated</h1>");
      for (const answer of plain) {
        expect(answer.status).toBe(200);
        expect(answer.body.equals(first.body)).toBe(true);
        expect(headersOf(answer)).toEqual(headersOf(first));
        expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9A-Za-z_-]{21}$/);
      }
      expect(new Set(plain.map((a) => a.headers.get("x-request-id"))).size).toBe(4);

      const brotli = await times(3, () => get(w.host, "/?ref=a", { "accept-encoding": "br" }));
      for (const answer of brotli) {
        expect(answer.headers.get("content-encoding")).toBe("br");
        expect(answer.headers.get("etag")).toBe(`${first.headers.get("etag")!.slice(0, -1)}-br"`);
        expect(brotliDecompressSync(answer.body).equals(first.body)).toBe(true);
      }
      // The same target without the encoding is still the identity answer.
      expect((await get(w.host, "/?ref=a")).headers.get("content-encoding")).toBeNull();

      const heads = await times(3, () => get(w.host, "/?ref=a", {}, "HEAD"));
      for (const answer of heads) {
        expect(answer.status).toBe(200);
        expect(answer.body.byteLength).toBe(0);
        expect(headersOf(answer)).toEqual(headersOf(first));
      }

      const etag = first.headers.get("etag")!;
      const revalidated = await times(2, () => get(w.host, "/?ref=a", { "if-none-match": etag }));
      for (const answer of revalidated) {
        expect(answer.status).toBe(304);
        expect(answer.headers.get("etag")).toBe(etag);
      }
      const other = await get(w.host, "/?ref=a", { "if-none-match": `"${"0".repeat(64)}"` });
      expect(other.status).toBe(200);
      expect(other.body.equals(first.body)).toBe(true);
    });

    it("serves a publish, a rollback (also another connection's) and an unpublish on the next request", async () => {
      const w = await published("Version one");
      const home = async () => (await get(w.host, "/")).body.toString();
      for (const text of await Promise.all([home(), home(), home()])) expect(text).toContain("Version one");
      expect(await home()).toContain("Version one");

      const v2 = await publishFiles(served.t.platform, w.id, site("Version two"));
      expect(await home()).toContain("Version two");
      expect(await home()).toContain("Version two");

      await setPublished(served.t.platform, w.id, w.deploymentId);
      for (let i = 0; i < 3; i++) expect(await home()).toContain("Version one");

      await publishFromAnotherConnection(w.id, v2.deploymentId);
      // Another connection's commit is seen from the next event-loop iteration on.
      await new Promise((resolve) => setImmediate(resolve));
      expect(await home()).toContain("Version two");

      await setPublished(served.t.platform, w.id, null);
      const gone = await get(w.host, "/");
      expect(gone.status).toBe(404);
      expect(gone.body.toString()).toContain("There is no published website at this address yet");
    });

    it("serves another connection's rollback committed alongside a batch of the analytics writer thread", async () => {
      // On SQLite both commits move the database's data_version once: the hosting caches must not take the move
      // for the writer thread's alone.
      const w = await published("Batch one");
      const v2 = await publishFiles(served.t.platform, w.id, site("Batch two"));
      await setPublished(served.t.platform, w.id, w.deploymentId);
      const home = async () => (await get(w.host, "/", { "user-agent": FIREFOX })).body.toString();
      for (let i = 0; i < 3; i++) expect(await home()).toContain("Batch one");
      const written = served.t.platform.analytics.stats.written;
      await publishFromAnotherConnection(w.id, v2.deploymentId);
      await served.t.platform.analytics.flush();
      expect(served.t.platform.analytics.stats.written).toBeGreaterThanOrEqual(written + 3);
      await new Promise((resolve) => setImmediate(resolve));
      expect(await home()).toContain("Batch two");
    });

    it("counts a page view for every repeated request, and none with Do Not Track or Global Privacy Control", async () => {
      const w = await published("Counted");
      const views = async () => {
        await served.t.platform.analytics.flush();
        const events = await served.t.platform.db.read((s) =>
          s.analytics.rawEvents(
            w.id,
            { from: 0, to: Date.now() + 1000 },
            { limit: 100, pageviewsOnly: true },
          ),
        );
        return events.length;
      };
      for (let i = 0; i < 5; i++)
        expect((await get(w.host, "/", { "user-agent": FIREFOX })).status).toBe(200);
      expect(await views()).toBe(5);
      await times(3, () => get(w.host, "/", { "user-agent": FIREFOX, dnt: "1" }));
      await times(3, () => get(w.host, "/", { "user-agent": FIREFOX, "sec-gpc": "1" }));
      await times(2, () => get(w.host, "/", { "user-agent": FIREFOX }, "HEAD"));
      expect(await views()).toBe(5);
      await get(w.host, "/", { "user-agent": FIREFOX });
      expect(await views()).toBe(6);
    });
  });
}

import { afterAll, beforeAll, expect, it } from "vitest";
import { buildSite, closeSandboxPool, starterFiles } from "../../src/framework/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import { previewSecret } from "../../src/hosting/preview-token.ts";
import { newId } from "../../src/kernel/ids.ts";
import { checkFormToken, formSecret, mintFormToken } from "../../src/services/forms/spam.ts";
import { publishBuild, publishFiles, rawRequest } from "../support/hosting.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

const PREVIEW_SECRET = "forms-tests-preview-secret-0123456789abcdefgh";
const secret = formSecret(previewSecret(PREVIEW_SECRET));

let starter: BuildResult;
beforeAll(async () => {
  starter = await buildSite({
    files: starterFiles("Forms site"),
    organizationId: "org_test",
    mode: "publish",
  });
}, 120_000);
afterAll(closeSandboxPool);

const UPLOAD_SITE = {
  "pages/index.tsx": `export const head = { title: "Apply" };
export default function Home() {
  return (
    <form action="/_service/forms/apply" method="post" enctype="multipart/form-data">
      <input name="name" required />
      <input type="file" name="cv" />
      <button type="submit">Send</button>
    </form>
  );
}
`,
};

/** The first bytes of a PNG image: enough for the type to be sniffed. */
const PNG = Buffer.concat([
  Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"),
  Buffer.alloc(64),
]);

interface Sent {
  status: number;
  headers: Headers;
  text: string;
}

function helpers(ctx: MatrixContext) {
  /** A request to a site host: app.fetch in-process, a raw socket (with the Host header) against the server. */
  const site = async (
    host: string,
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array } = {},
  ): Promise<Sent> => {
    if (ctx.mode === "server") {
      const res = await rawRequest(Number(new URL(ctx.origin).port), host, path, options);
      return { status: res.status, headers: res.headers, text: res.body.toString("utf8") };
    }
    const res = await ctx.t.app.fetch(
      new Request(`http://${host}${path}`, {
        method: options.method ?? "GET",
        headers: { ...options.headers, host },
        body: options.body as BodyInit | undefined,
      }),
    );
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  let count = 0;
  const published = async (result?: BuildResult, files?: Record<string, string>) => {
    const website = await ctx.t.createWebsite(`Forms ${ctx.mode} ${++count} ${newId().slice(-6)}`);
    const deploymentId = files
      ? (await publishFiles(ctx.t.platform, website.id, files)).deploymentId
      : await publishBuild(ctx.t.platform, website.id, result ?? starter);
    return { ...website, deploymentId, host: `${website.slug}.localhost` };
  };
  const submissions = (websiteId: string) =>
    ctx.t.platform.db.read((s) => s.forms.listSubmissions(websiteId, {}, { limit: 100 }));
  const urlencoded = (values: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html,*/*" },
    body: new URLSearchParams(values).toString(),
  });
  const aged = (websiteId: string) => mintFormToken(secret, websiteId, Date.now() - 10_000);
  return { site, published, submissions, urlencoded, aged };
}

describeMatrix(
  "hosted forms",
  (ctx) => {
    const { site, published, submissions, urlencoded, aged } = helpers(ctx);

    it("records each form of a deployment with its fields, types and page", async () => {
      const w = await published();
      const forms = await ctx.t.platform.db.read((s) => s.forms.deploymentForms(w.deploymentId));
      expect(forms).toEqual([
        {
          name: "contact",
          page: "/contact/",
          fields: [
            { name: "name", type: "text", required: true },
            { name: "email", type: "email", required: true },
            { name: "message", type: "textarea", required: true },
          ],
        },
      ]);
    });

    it("a browser's post is stored and redirected to the thank-you page", async () => {
      const w = await published();
      const values = {
        name: "Ada",
        email: "ada@example.test",
        message: "Hello there",
        _sw_token: aged(w.id),
        _sw_website: "",
      };
      const res = await site(w.host, "/_service/forms/contact", {
        ...urlencoded(values),
        headers: { ...urlencoded(values).headers, referer: `http://${w.host}/contact/` },
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/_service/forms/contact/thanks");
      const [stored] = await submissions(w.id);
      expect(stored).toMatchObject({
        formName: "contact",
        state: "new",
        values: { name: "Ada", email: "ada@example.test", message: "Hello there" },
        spamReasons: [],
        page: "/contact/",
      });
      const thanks = await site(w.host, "/_service/forms/contact/thanks");
      expect(thanks.status).toBe(200);
      expect(thanks.text).toContain("Thank you");
    });

    it("fetch with JSON gets JSON; the page's token endpoint hands out a signed start time", async () => {
      const w = await published();
      const token = await site(w.host, "/_service/forms/_token");
      expect(token.status).toBe(200);
      expect(token.headers.get("cache-control")).toBe("no-store");
      expect(checkFormToken(secret, w.id, token.text, Date.now() + 5_000)).toBe("ok");
      expect(checkFormToken(secret, w.id, token.text)).toBe("too_fast");
      const res = await site(w.host, "/_service/forms/contact", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ name: "Bo", email: "bo@example.test", message: "Hi", _sw_token: aged(w.id) }),
      });
      expect(res.status).toBe(200);
      const body = JSON.parse(res.text);
      expect(body).toEqual({ ok: true, id: expect.any(String), form: "contact" });
      expect((await submissions(w.id)).map((s) => s.id)).toEqual([body.id]);
    });

    it("unknown forms, missing and unknown fields, bad bodies and types are refused and store nothing", async () => {
      const w = await published();
      const json = { "content-type": "application/json", accept: "application/json" };
      const post = (path: string, headers: Record<string, string>, body: string) =>
        site(w.host, path, { method: "POST", headers, body });
      const unknown = await post("/_service/forms/nope", json, "{}");
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.text).kind).toBe("not_found");
      const missing = await post(
        "/_service/forms/contact",
        json,
        JSON.stringify({ name: "A", message: "m" }),
      );
      expect(missing.status).toBe(400);
      expect(JSON.parse(missing.text)).toMatchObject({ kind: "validation", message: "email: required." });
      const extra = await post(
        "/_service/forms/contact",
        json,
        JSON.stringify({ name: "A", email: "a@b.test", message: "m", admin: "1" }),
      );
      expect(JSON.parse(extra.text)).toMatchObject({
        kind: "validation",
        validValues: ["name", "email", "message"],
      });
      expect(
        JSON.parse(
          (
            await post(
              "/_service/forms/contact",
              json,
              JSON.stringify({ name: "A", email: "nope", message: "m" }),
            )
          ).text,
        ).message,
      ).toBe("email: 'nope' is not an email address.");
      expect((await post("/_service/forms/contact", json, "{not json")).status).toBe(400);
      expect((await post("/_service/forms/contact", json, "[1]")).status).toBe(400);
      const multipart = await post(
        "/_service/forms/contact",
        { "content-type": "multipart/form-data; boundary=xyz", accept: "application/json" },
        "garbage without parts",
      );
      expect(multipart.status).toBe(400);
      const xml = await post(
        "/_service/forms/contact",
        { "content-type": "text/xml", accept: "application/json" },
        "<a/>",
      );
      expect(xml.status).toBe(415);
      expect(JSON.parse(xml.text).validValues).toContain("multipart/form-data");
      expect(await submissions(w.id)).toEqual([]);
    });

    it("oversized bodies are 413; a browser gets refusals as a page", async () => {
      const w = await published();
      const big = await site(w.host, "/_service/forms/contact", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ name: "A", email: "a@b.test", message: "x".repeat(300_000) }),
      });
      expect(big.status).toBe(413);
      // A browser gets the same refusals as a page.
      const page = await site(w.host, "/_service/forms/contact", urlencoded({ name: "A" }));
      expect(page.status).toBe(400);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.text).toContain("email: required.");
      expect(await submissions(w.id)).toEqual([]);
    });

    it("multipart files are stored as blobs with their type sniffed from the bytes, within the caps", async () => {
      const w = await published(undefined, UPLOAD_SITE);
      const form = new FormData();
      form.append("name", "Cy");
      form.append("cv", new Blob([PNG], { type: "text/plain" }), "../../etc/cv.txt");
      form.append("_sw_token", aged(w.id));
      const encoded = new Response(form);
      const body = new Uint8Array(await encoded.arrayBuffer());
      const headers = { "content-type": encoded.headers.get("content-type")!, accept: "application/json" };
      const res = await site(w.host, "/_service/forms/apply", { method: "POST", headers, body });
      expect(res.status).toBe(200);
      const { id } = JSON.parse(res.text);
      const files = await ctx.t.platform.db.read((s) => s.forms.files([id]));
      const [file] = files.get(id)!;
      expect(file).toMatchObject({
        field: "cv",
        filename: "cv.txt",
        contentType: "image/png",
        size: PNG.byteLength,
      });
      expect(Buffer.from((await ctx.t.platform.blobs.get(file!.sha256))!)).toEqual(PNG);

      const tooBig = new FormData();
      tooBig.append("name", "Cy");
      tooBig.append("cv", new Blob([Buffer.alloc(60_000)]), "big.bin");
      const encodedBig = new Response(tooBig);
      const refused = await site(w.host, "/_service/forms/apply", {
        method: "POST",
        headers: { "content-type": encodedBig.headers.get("content-type")!, accept: "application/json" },
        body: new Uint8Array(await encodedBig.arrayBuffer()),
      });
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.text).message).toContain("cv: the file 'big.bin' is larger than");
      expect((await submissions(w.id)).map((s) => s.id)).toEqual([id]);
    });

    it("spam is kept in state spam and answered like any submission", async () => {
      const w = await published();
      const ok = { name: "Dee", email: "dee@example.test", message: "A question about your work" };
      const cases: [string, Record<string, string>][] = [
        ["honeypot", { _sw_website: "http://x", _sw_token: aged(w.id) }],
        ["too fast", { _sw_token: mintFormToken(secret, w.id) }],
        ["forged", { _sw_token: "abc.def" }],
        [
          "spammy",
          { message: "Cheap viagra and casino bonus https://a.test https://b.test", _sw_token: aged(w.id) },
        ],
        ["no script", {}],
      ];
      for (const [name, extra] of cases) {
        const res = await site(w.host, "/_service/forms/contact", urlencoded({ ...ok, name, ...extra }));
        expect(res.status).toBe(303);
      }
      const stored = new Map((await submissions(w.id)).map((s) => [s.values.name, s]));
      expect(cases.map(([name]) => stored.get(name)!.state)).toEqual(["spam", "spam", "spam", "spam", "new"]);
      expect(stored.get("honeypot")!.spamReasons).toEqual(["the hidden honeypot field was filled"]);
      expect(stored.get("too fast")!.spamReasons[0]).toContain("seconds after the page loaded");
      expect(stored.get("forged")!.spamReasons[0]).toContain("not one this site issued");
      expect(stored.get("spammy")!.spamReasons[0]).toContain("spam words: viagra, casino");
    });

    it("each visitor address has its own bucket per website; an empty one is 429 and stores nothing", async () => {
      const w = await published();
      const ok = { name: "Eve", email: "eve@example.test", message: "Hi", _sw_token: aged(w.id) };
      const statuses: number[] = [];
      for (let i = 0; i < 9; i++)
        statuses.push((await site(w.host, "/_service/forms/contact", urlencoded(ok))).status);
      expect(statuses.slice(0, 8)).toEqual(Array(8).fill(303));
      expect(statuses[8]).toBe(429);
      expect((await submissions(w.id)).length).toBe(8);
      const other = await published();
      expect((await site(other.host, "/_service/forms/contact", urlencoded(ok))).status).toBe(303);
    });

    it("forms of sites that are not live, and other methods, are not served", async () => {
      const website = await ctx.t.createWebsite(`Unpublished forms ${ctx.mode} ${newId().slice(-6)}`);
      const res = await site(
        `${website.slug}.localhost`,
        "/_service/forms/contact",
        urlencoded({ name: "x" }),
      );
      expect(res.status).toBe(404);
      const w = await published();
      expect((await site(w.host, "/_service/forms/contact", { method: "PUT", body: "x" })).status).toBe(405);
      expect((await site(w.host, "/_service/forms/contact")).status).toBe(405);
    });
  },
  {
    config: {
      previewSecret: PREVIEW_SECRET,
      formLimits: { maxSubmissionBytes: 200_000, maxFileBytes: 50_000, maxFiles: 2, maxValueChars: 2_000 },
      formBuckets: {
        perIp: { capacity: 8, refillPerSecond: 0.001 },
        perForm: { capacity: 1_000, refillPerSecond: 10 },
      },
    },
  },
);

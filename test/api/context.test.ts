import { readdirSync } from "node:fs";
import sharp from "sharp";
import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";
import { pdf } from "../support/pdf.ts";

const blobCount = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

describeMatrix("project context", (ctx) => {
  let n = 0;
  const newSite = () => ctx.t.createWebsite(`context-${ctx.mode}-${++n}`);
  const upload = (websiteId: string, bytes: Buffer, name: string, key = ctx.t.adminKey.plaintextKey) =>
    ctx.fetch(`/v1/websites/${websiteId}/context?name=${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/octet-stream" },
      body: new Uint8Array(bytes),
    });

  it("uploads PDF, Markdown, text, HTML and images; extracts text; lists, gets, renames and deletes", async () => {
    const website = await newSite();
    const base = `/websites/${website.id}/context`;
    const pdfRes = await upload(
      website.id,
      pdf(["Brand colours teal", "Opening hours nine to five"]),
      "guide.pdf",
    );
    expect(pdfRes.status).toBe(200);
    const guide = await pdfRes.json();
    expect(guide).toMatchObject({ name: "guide.pdf", mediaType: "application/pdf", pageCount: 2 });
    const got = await ctx.request("GET", `${base}/${guide.id}`);
    expect(got.body.text).toContain("Brand colours teal");
    expect(got.body.pageOffsets).toHaveLength(2);
    expect(got.body.text.slice(got.body.pageOffsets[1])).toMatch(/^Opening hours nine to five/);
    expect(got.body.textTruncated).toBe(false);

    const md = await (
      await upload(website.id, Buffer.from("# Tone\n\nFriendly, *short*."), "tone.md")
    ).json();
    expect(md).toMatchObject({ mediaType: "text/markdown", pageCount: null, textLength: 26 });
    const txt = await (await upload(website.id, Buffer.from("Call us on 555-0100."), "notes")).json();
    expect(txt.mediaType).toBe("text/plain");
    const html = Buffer.from(
      "<!doctype html><html><head><title>Old site</title><style>p{color:red}</style><script>var secret=1</script></head><body><h1>Caf&eacute; &amp; bakery</h1><p>Fresh bread&#33;</p><!-- hidden --></body></html>",
    );
    const page = await (await upload(website.id, html, "old-site.html")).json();
    expect(page.mediaType).toBe("text/html");
    const pageText = (await ctx.request("GET", `${base}/${page.id}`)).body.text;
    expect(pageText).toContain("Fresh bread!");
    expect(pageText).toContain("& bakery");
    expect(pageText).not.toMatch(/secret|color:red|hidden|<h1>/);
    const photo = await (
      await upload(
        website.id,
        await sharp({ create: { width: 20, height: 10, channels: 3, background: "#123456" } })
          .png()
          .toBuffer(),
        "shop.png",
      )
    ).json();
    expect(photo).toMatchObject({ mediaType: "image/png", textLength: 0 });

    const list = await ctx.request("GET", `${base}?limit=3`);
    expect(list.body.items.map((d: { name: string }) => d.name)).toEqual([
      "shop.png",
      "old-site.html",
      "notes",
    ]);
    const rest = await ctx.request("GET", `${base}?limit=3&cursor=${list.body.nextCursor}`);
    expect(rest.body.items.map((d: { name: string }) => d.name)).toEqual(["tone.md", "guide.pdf"]);
    expect(rest.body.nextCursor).toBeNull();

    const renamed = await ctx.request("PATCH", `${base}/${md.id}`, { body: { name: "voice.md" } });
    expect(renamed.body).toMatchObject({ id: md.id, name: "voice.md", textLength: 26 });
    const deleted = await ctx.request("DELETE", `${base}/${txt.id}`);
    expect(deleted.body.id).toBe(txt.id);
    const gone = await ctx.request("GET", `${base}/${txt.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.suggestion).toMatch(/context[._]list/);

    // Private: the bytes are never served on the website's host.
    const hosted = await ctx.t.app.fetch(
      new Request(`http://${website.slug}.localhost/_assets/${guide.sha256}/guide.pdf`),
    );
    expect(hosted.status).toBe(404);
  });

  it("searches ranked passages with offsets and reads long documents piece by piece", async () => {
    const website = await newSite();
    const other = await newSite();
    const filler = "Lorem ipsum dolor sit amet. ".repeat(400);
    const long = `${filler}The bakery opens at seven with sourdough loaves. ${filler}Sourdough again near the end.`;
    const brief = await (await upload(website.id, Buffer.from(long), "brief.txt")).json();
    const menu = await (
      await upload(website.id, Buffer.from("Sourdough, rye and croissants."), "menu.txt")
    ).json();
    const guide = await (
      await upload(website.id, pdf(["Colours teal and sand", "The bakery logo sits left"]), "guide.pdf")
    ).json();
    await upload(other.id, Buffer.from("sourdough elsewhere"), "theirs.txt");

    const found = await ctx.request(
      "GET",
      `/websites/${website.id}/context-search?query=${encodeURIComponent("Bakery SOURDOUGH")}`,
    );
    expect(found.status).toBe(200);
    const passages = found.body.passages as {
      documentId: string;
      offset: number;
      text: string;
      page: number | null;
    }[];
    expect(new Set(passages.map((p) => p.documentId))).toEqual(new Set([brief.id, menu.id, guide.id]));
    // Passages start where they say, and PDFs name the page of the match.
    const first = passages.find((p) => p.documentId === brief.id)!;
    expect(long.slice(first.offset, first.offset + first.text.length)).toBe(first.text);
    expect(first.text).toContain("bakery opens at seven with sourdough");
    expect(passages.find((p) => p.documentId === guide.id)!.page).toBe(2);
    const none = await ctx.request("GET", `/websites/${website.id}/context-search?query=zeppelin`);
    expect(none.body.passages).toEqual([]);
    const bad = await ctx.request(
      "GET",
      `/websites/${website.id}/context-search?query=${encodeURIComponent("!!")}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("query");

    // Read by offset, piece by piece, to the end.
    let offset: number | null = 0;
    let text = "";
    while (offset !== null) {
      const part = await ctx.request(
        "GET",
        `/websites/${website.id}/context/${brief.id}/text?offset=${offset}&length=5000`,
      );
      expect(part.status).toBe(200);
      text += part.body.text;
      offset = part.body.nextOffset;
    }
    expect(text).toBe(long);
    const page2 = await ctx.request("GET", `/websites/${website.id}/context/${guide.id}/text?page=2`);
    expect(page2.body).toMatchObject({ page: 2, pageCount: 2, nextPage: null, nextOffset: null });
    expect(page2.body.text).toMatch(/^The bakery logo sits left/);
    const page1 = await ctx.request("GET", `/websites/${website.id}/context/${guide.id}/text?page=1`);
    expect(page1.body).toMatchObject({ nextPage: 2 });
    expect(page1.body.text).not.toContain("logo");
    const noPage = await ctx.request("GET", `/websites/${website.id}/context/${brief.id}/text?page=1`);
    expect(noPage.status).toBe(400);
    expect(noPage.body.message).toContain("page");

    // Deleted documents leave the index; another website's documents are never found.
    await ctx.request("DELETE", `/websites/${website.id}/context/${menu.id}`);
    const after = await ctx.request("GET", `/websites/${website.id}/context-search?query=croissants`);
    expect(after.body.passages).toEqual([]);
    const theirs = await ctx.request("GET", `/websites/${other.id}/context-search?query=sourdough`);
    expect(theirs.body.passages.map((p: { name: string }) => p.name)).toEqual(["theirs.txt"]);
  });

  it("inspects an image: dimensions, a downscaled view as MCP image content, and no OCR", async () => {
    const website = await newSite();
    const big = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const photo = await (await upload(website.id, big, "wide.png")).json();
    const rest = await ctx.request("GET", `/websites/${website.id}/context/${photo.id}/image`);
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      width: 2400,
      height: 1200,
      ocr: false,
      view: { width: 1024, height: 512, mimeType: "image/jpeg" },
    });
    expect(rest.body.note).toContain("No OCR");
    const text = await (await upload(website.id, Buffer.from("plain words"), "t.txt")).json();
    const notImage = await ctx.request("GET", `/websites/${website.id}/context/${text.id}/image`);
    expect(notImage.status).toBe(400);
    expect(notImage.body.message).toContain("documentId");

    const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
    try {
      const result = await client.callTool({
        name: "context_inspect_image",
        arguments: { websiteId: website.id, documentId: photo.id },
      });
      expect(result.isError).toBeFalsy();
      const image = (result.content as { type: string; data?: string; mimeType?: string }[]).find(
        (c) => c.type === "image",
      );
      expect(image?.mimeType).toBe("image/jpeg");
      const meta = await sharp(Buffer.from(image!.data!, "base64")).metadata();
      expect([meta.width, meta.height]).toEqual([1024, 512]);
    } finally {
      await client.close();
    }
  });

  it("refuses bad input naming the field, storing nothing", async () => {
    const website = await newSite();
    const before = blobCount(ctx.t.blobRoot);
    const cases: [Buffer, string, string][] = [
      [Buffer.alloc(0), "empty.txt", "contentBase64"],
      [Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 0, 0, 0, 0]), "a.zip", "contentBase64"],
      [Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x80, 0x81]), "bin.txt", "contentBase64"],
      [Buffer.from("%PDF-1.4\nnot really a pdf\n%%EOF"), "broken.pdf", "contentBase64"],
      [Buffer.from("hello"), "a/b.txt", "name"],
    ];
    for (const [bytes, name, field] of cases) {
      const res = await upload(website.id, bytes, name);
      const body = await res.json();
      expect(res.status, name).toBe(400);
      expect(body.kind, name).toBe("validation");
      expect(body.message, name).toContain(field);
    }
    const zip = await (await upload(website.id, cases[1]![0], "a.zip")).json();
    expect(zip.validValues).toContain("application/pdf");
    const noBase64 = await ctx.request("POST", `/websites/${website.id}/context`, {
      body: { contentBase64: "***", name: "x.txt" },
    });
    expect(noBase64.body.message).toContain("contentBase64");
    const badRename = await ctx.request("PATCH", `/websites/${website.id}/context/nope`, {
      body: { name: "" },
    });
    expect(badRename.status).toBe(400);
    expect(badRename.body.message).toContain("name");
    expect((await ctx.request("GET", `/websites/${website.id}/context`)).body.items).toEqual([]);
    expect(blobCount(ctx.t.blobRoot)).toBe(before);
  });

  it("is scoped: another organization's website and documents are not_found; MCP takes base64", async () => {
    const website = await newSite();
    const stranger = await ctx.t.createOrganization(`context-strangers-${ctx.mode}-${++n}`);
    const theirs = await ctx.t.call(
      "websites.create",
      { name: `theirs-${ctx.mode}-${n}` },
      stranger.principal,
    );
    const theirDoc = await ctx.t.call(
      "context.upload",
      {
        websiteId: theirs.id,
        contentBase64: Buffer.from("their secret plan").toString("base64"),
        name: "plan.txt",
      },
      stranger.principal,
    );
    for (const path of [`/websites/${theirs.id}/context`, `/websites/${theirs.id}/context/${theirDoc.id}`]) {
      expect((await ctx.request("GET", path)).status).toBe(404);
    }
    expect((await upload(theirs.id, Buffer.from("x"), "x.txt")).status).toBe(404);
    // Their document id under our website is not found either.
    expect((await ctx.request("GET", `/websites/${website.id}/context/${theirDoc.id}`)).status).toBe(404);
    expect((await ctx.request("DELETE", `/websites/${website.id}/context/${theirDoc.id}`)).status).toBe(404);

    const editor = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
    expect((await upload(website.id, Buffer.from("editor notes"), "e.txt", editor.plaintextKey)).status).toBe(
      200,
    );

    const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
    try {
      const ok = await client.callTool({
        name: "context_upload",
        arguments: {
          websiteId: website.id,
          contentBase64: Buffer.from("# Brief\n").toString("base64"),
          name: "b.md",
        },
      });
      expect(ok.isError).toBeFalsy();
      expect(resultJson(ok)).toMatchObject({ mediaType: "text/markdown", name: "b.md" });
      const big = await client.callTool({
        name: "context_upload",
        arguments: {
          websiteId: website.id,
          contentBase64: Buffer.alloc(5 * 1024 * 1024 + 10, 65).toString("base64"),
          name: "big.txt",
        },
      });
      expect(big.isError).toBe(true);
      expect(resultJson(big)).toMatchObject({ kind: "validation" });
    } finally {
      await client.close();
    }
  });
});

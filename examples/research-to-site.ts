// From a business's web page to a live site, over MCP with an API key: reads the business page into a profile
// (research_read_business), lays its photos and logo out on a contact sheet (research_contact_sheet), uploads a
// PDF brief as project context and searches it (context_upload, context_search), generates a hero image
// (media_generate_images; a placeholder with the offline provider), then writes and publishes a home page that
// uses all of it and reads the live page back.
//
//   SITEWRIGHT_API_KEY=<key> BUSINESS_URL=https://<a business>/ BRIEF_PDF=brief.pdf node --import tsx examples/research-to-site.ts
//
// SITEWRIGHT_URL defaults to http://localhost:8787/v1/mcp (what `sitewright dev` prints); the live site is read
// on the same port as <slug>.localhost. BRIEF_QUERY (default `brand colours`) is what the brief is searched for.
// Prints one `ok`/`FAIL` line per step and exits 1 on any failure.
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { basename } from "node:path";
import { connectWithKey } from "./mcp-session.ts";

const url = new URL(process.env.SITEWRIGHT_URL ?? "http://localhost:8787/v1/mcp");
const apiKey = process.env.SITEWRIGHT_API_KEY;
const businessUrl = process.env.BUSINESS_URL;
const briefPath = process.env.BRIEF_PDF;
if (!apiKey || !businessUrl || !briefPath) {
  console.error(
    "Set SITEWRIGHT_API_KEY (`sitewright dev` prints one), BUSINESS_URL (a business's page) and BRIEF_PDF (a PDF brief).",
  );
  process.exit(2);
}
const query = process.env.BRIEF_QUERY ?? "brand colours";
// Research, context and media tools are in the `research` toolset, which is not listed by default.
if (!url.searchParams.has("toolsets")) url.searchParams.set("toolsets", "all");

const { call, check, finish } = await connectWithKey(url, apiKey, "sitewright-research-example");

/** A GET of the live site straight to the server, the Host header naming the site. */
function live(host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port || 80, path, headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

type Field<T> = { value: T; source: string } | null;
type Profile = {
  name: Field<string>;
  description: Field<string>;
  address: Field<string>;
  phone: Field<string>;
  email: Field<string>;
  openingHours: Field<string[]>;
  services: Field<{ name: string; price: string | null; currency: string | null }[]>;
  logo: Field<string>;
  photos: Field<string[]>;
};
type Asset = { id: string; path: string; width: number; height: number; alt: string };

// 1. A website for the business.
const website = await call<{ id: string; slug: string }>("websites_create", {
  name: `Research example ${Date.now()}`,
});
console.log(`Created website ${website.id} (${website.slug})`);

// 2. The business's page, read into a profile (each field says where it was found).
const { profile } = await call<{ profile: Profile }>("research_read_business", {
  websiteId: website.id,
  url: businessUrl,
});
const name = profile.name?.value ?? "";
check(
  "profile",
  name !== "" && profile.phone !== null,
  `${name} (${profile.name?.source}), phone ${profile.phone?.value} (${profile.phone?.source}), ${profile.services?.value.length ?? 0} service(s)`,
);

// 3. Its logo and photos on one numbered contact sheet, to look at them in one picture.
const imageUrls = [profile.logo?.value, ...(profile.photos?.value ?? [])].filter((u): u is string => !!u);
const sheet = await call<{ sheets: Asset[]; images: { error: string | null }[] }>("research_contact_sheet", {
  websiteId: website.id,
  images: imageUrls.map((imageUrl) => ({ url: imageUrl })),
});
const empty = sheet.images.filter((image) => image.error !== null).length;
check(
  "contact-sheet",
  sheet.sheets.length >= 1 && imageUrls.length > 0 && empty === 0,
  `${sheet.sheets.length} sheet(s) of ${sheet.images.length} image(s), ${empty} empty, first ${sheet.sheets[0]?.path}`,
);

// 4. The client's PDF brief, stored as private project context, then searched.
const brief = await readFile(briefPath);
const document = await call<{ id: string; pageCount: number | null }>("context_upload", {
  websiteId: website.id,
  name: basename(briefPath),
  contentBase64: brief.toString("base64"),
});
const { passages } = await call<{ passages: { name: string; page: number | null; text: string }[] }>(
  "context_search",
  { websiteId: website.id, query },
);
const passage = passages[0];
check(
  "brief",
  document.pageCount !== null && passage !== undefined,
  `"${query}" found in ${passage?.name} page ${passage?.page}: ${JSON.stringify(passage?.text.trim())}`,
);

// 5. A hero image from a prompt (the offline provider makes an honest placeholder, not model output).
const generated = await call<{ provider: string; placeholder: boolean; images: { asset: Asset }[] }>(
  "media_generate_images",
  { websiteId: website.id, prompt: `A warm, inviting hero photo for ${name}`, width: 1200, height: 600 },
);
const hero = generated.images[0]?.asset;
check(
  "hero",
  hero !== undefined,
  `${hero?.path} (${hero?.width}×${hero?.height}) from ${generated.provider}, placeholder ${generated.placeholder}`,
);

// 6. A home page from the profile, the brief's passage and the hero image, written and published.
const services = (profile.services?.value ?? [])
  .map((s) => `${s.name}${s.price ? ` (${s.price} ${s.currency ?? ""})`.replace(" )", ")") : ""}`)
  .map((line) => `<li>{${JSON.stringify(line)}}</li>`)
  .join("");
const text = (value: string | undefined) => `{${JSON.stringify(value ?? "")}}`;
const HOME = `export const head = { title: ${JSON.stringify(name)} };
export default function Home() {
  return (
    <main>
      <img src=${JSON.stringify(hero?.path ?? "")} width="${hero?.width}" height="${hero?.height}" alt=${JSON.stringify(`${name}`)} />
      <h1>${text(name)}</h1>
      <p>${text(profile.address?.value)} · <a href=${JSON.stringify(`tel:${profile.phone?.value ?? ""}`)}>${text(profile.phone?.value)}</a></p>
      <ul>${services}</ul>
      <blockquote>${text(passage?.text.trim())}</blockquote>
    </main>
  );
}
`;
const { leaseId } = await call<{ leaseId: string }>("website_source_code_lease_acquire", {
  websiteId: website.id,
});
await call("website_source_code_files_write", {
  websiteId: website.id,
  leaseId,
  path: "pages/index.tsx",
  content: HOME,
});
await call("website_source_code_lease_release", { websiteId: website.id, leaseId });
await call("website_source_code_head_publish", { websiteId: website.id });
const page = await live(`${website.slug}.localhost:${url.port || 80}`, "/");
check(
  "page",
  page.status === 200 && page.body.includes(name) && page.body.includes(hero?.path ?? "\0"),
  `GET / answered ${page.status}, names ${name}: ${page.body.includes(name)}, shows ${hero?.path}: ${page.body.includes(hero?.path ?? "\0")}`,
);
await finish();

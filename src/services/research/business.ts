/** Where a profile field was found, in the order they are trusted. */
export type FieldSource = "json-ld" | "microdata" | "open-graph" | "text";

export interface Field<T> {
  value: T;
  source: FieldSource;
}

export interface MenuEntry {
  name: string;
  price: string | null;
  currency: string | null;
  section: string | null;
}

/** A business read from a page; a field is null when no source had it. */
export interface BusinessProfile {
  name: Field<string> | null;
  description: Field<string> | null;
  address: Field<string> | null;
  phone: Field<string> | null;
  email: Field<string> | null;
  openingHours: Field<string[]> | null;
  services: Field<MenuEntry[]> | null;
  priceRange: Field<string> | null;
  social: Field<string[]> | null;
  logo: Field<string> | null;
  photos: Field<string[]> | null;
}

/** What BUSINESS_SCRIPT returns. */
export interface RawBusiness {
  jsonLd: Record<string, unknown>[];
  microdata: Record<string, unknown>[];
  og: Record<string, string>;
  title: string;
  h1: string | null;
  phone: string | null;
  email: string | null;
  social: string[];
  logo: string | null;
  images: string[];
}

type Obj = Record<string, unknown>;
const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const str = (v: unknown): string | null => {
  if (typeof v === "string" && v.trim()) return v.trim().slice(0, 500);
  if (typeof v === "number") return String(v);
  if (v && typeof v === "object") return str((v as Obj).url ?? (v as Obj)["@id"] ?? (v as Obj).name);
  return null;
};
const typeOf = (o: Obj) => list(o["@type"]).map(String).join(" ");
const NOT_BUSINESS =
  /^(WebSite|WebPage|BreadcrumbList|Menu|MenuSection|MenuItem|Offer|PostalAddress|ImageObject|Person)$/;

/** The object that describes the business: one with a name and an address or phone, else the first named one. */
function businessOf(objects: Obj[]): Obj | undefined {
  const named = objects.filter((o) => str(o.name) && !NOT_BUSINESS.test(typeOf(o)));
  return named.find((o) => o.address || o.telephone) ?? named[0];
}

function addressText(v: unknown): string | null {
  if (typeof v === "string") return str(v);
  const a = list(v)[0] as Obj | undefined;
  if (!a || typeof a !== "object") return null;
  const parts = ["streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"]
    .map((k) => str(a[k]))
    .filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

function hoursOf(o: Obj): string[] | null {
  const plain = list(o.openingHours)
    .map(str)
    .filter((h): h is string => h !== null);
  const specs = list(o.openingHoursSpecification).map((s) => {
    const spec = s as Obj;
    const days = list(spec.dayOfWeek)
      .map((d) => String(d).split("/").pop())
      .join(", ");
    return `${days} ${str(spec.opens) ?? "?"}-${str(spec.closes) ?? "?"}`.trim();
  });
  const all = [...plain, ...specs];
  return all.length ? all : null;
}

/** Menu items and offered services, from a Menu (hasMenuSection/hasMenuItem) or makesOffer/hasOfferCatalog. */
function servicesOf(objects: Obj[]): MenuEntry[] {
  const out: MenuEntry[] = [];
  const visit = (node: unknown, section: string | null, depth: number) => {
    if (!node || typeof node !== "object" || depth > 8 || out.length >= 200) return;
    const o = node as Obj;
    const type = typeOf(o);
    if (/MenuItem|Product|Service/.test(type) && str(o.name)) {
      const offer = list(o.offers)[0] as Obj | undefined;
      out.push({
        name: str(o.name)!,
        price: str(offer?.price) ?? null,
        currency: str(offer?.priceCurrency) ?? null,
        section,
      });
    }
    const here = /MenuSection|OfferCatalog/.test(type) ? str(o.name) : section;
    for (const key of [
      "hasMenu",
      "hasMenuSection",
      "hasMenuItem",
      "makesOffer",
      "hasOfferCatalog",
      "itemListElement",
      "itemOffered",
    ]) {
      for (const child of list(o[key])) visit(child, here, depth + 1);
    }
  };
  for (const o of objects) visit(o, null, 0);
  return out;
}

/** Builds the profile: JSON-LD first, microdata second, Open Graph third, the visible text last. */
export function buildProfile(raw: RawBusiness): BusinessProfile {
  const sources: [FieldSource, Obj | undefined, Obj[]][] = [
    ["json-ld", businessOf(raw.jsonLd), raw.jsonLd],
    ["microdata", businessOf(raw.microdata), raw.microdata],
  ];
  const pick = <T>(
    read: (o: Obj, all: Obj[]) => T | null,
    fallback: [FieldSource, T | null][] = [],
  ): Field<T> | null => {
    for (const [source, business, all] of sources) {
      const value = business || all.length ? read(business ?? {}, all) : null;
      if (value !== null && !(Array.isArray(value) && value.length === 0)) return { value, source };
    }
    for (const [source, value] of fallback) {
      if (value !== null && !(Array.isArray(value) && value.length === 0)) return { value, source };
    }
    return null;
  };
  const og = raw.og;
  const images = (o: Obj) =>
    list(o.image)
      .map(str)
      .filter((s): s is string => s !== null);
  return {
    name: pick(
      (o) => str(o.name),
      [
        ["open-graph", og["og:site_name"] ?? og["og:title"] ?? null],
        ["text", raw.h1 ?? (raw.title || null)],
      ],
    ),
    description: pick((o) => str(o.description), [["open-graph", og["og:description"] ?? null]]),
    address: pick(
      (o) => addressText(o.address),
      [["open-graph", og["business:contact_data:street_address"] ?? null]],
    ),
    phone: pick(
      (o) => str(o.telephone),
      [
        ["open-graph", og["business:contact_data:phone_number"] ?? null],
        ["text", raw.phone],
      ],
    ),
    email: pick((o) => str(o.email)?.replace(/^mailto:/, "") ?? null, [["text", raw.email]]),
    openingHours: pick((o) => hoursOf(o)),
    services: pick((o, all) => {
      const found = servicesOf([o, ...all.filter((x) => x !== o)]);
      return found.length ? found : null;
    }),
    priceRange: pick((o) => str(o.priceRange)),
    social: pick(
      (o) =>
        list(o.sameAs)
          .map(str)
          .filter((s): s is string => s !== null),
      [["text", raw.social]],
    ),
    logo: pick((o) => str(o.logo), [["text", raw.logo]]),
    photos: pick(
      (o) => images(o),
      [
        ["open-graph", og["og:image"] ? [og["og:image"]] : null],
        ["text", raw.images],
      ],
    ),
  };
}

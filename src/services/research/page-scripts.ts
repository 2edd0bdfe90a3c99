// Scripts evaluated inside the researched page. They are plain JavaScript text (never bundled functions, whose
// helpers would not exist in the page), read the DOM only, and return JSON-safe values bounded in size.

/** Measurements of a loaded page: timings, LCP, fonts and colours, outline, meta, links, images, accessibility. */
export const MEASURE_SCRIPT = String.raw`(async () => {
  const cap = (list, n) => list.slice(0, n);
  const text = (el) => (el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 200);
  const nav = performance.getEntriesByType("navigation")[0];
  const paints = Object.fromEntries(performance.getEntriesByType("paint").map((p) => [p.name, Math.round(p.startTime)]));
  const lcp = await new Promise((resolve) => {
    let last = null;
    try {
      new PerformanceObserver((list) => { const e = list.getEntries(); last = e[e.length - 1] || last; })
        .observe({ type: "largest-contentful-paint", buffered: true });
    } catch {}
    setTimeout(() => resolve(last), 300);
  });
  const describe = (el) => el ? el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") : null;
  const style = (selector) => {
    const el = document.querySelector(selector);
    if (!el) return null;
    const s = getComputedStyle(el);
    return { selector, fontFamily: s.fontFamily, fontSize: s.fontSize, fontWeight: s.fontWeight, lineHeight: s.lineHeight, color: s.color, backgroundColor: s.backgroundColor };
  };
  const rgb = (c) => { const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?/.exec(c); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const background = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c && c[3] > 0) return c; } return [255, 255, 255, 1]; };
  const colours = new Map(); const fonts = new Map();
  const all = Array.from(document.body ? document.body.querySelectorAll("*") : []).slice(0, 3000);
  const lowContrast = [];
  for (const el of all) {
    const s = getComputedStyle(el);
    if (s.display === "none" || s.visibility === "hidden") continue;
    colours.set(s.color, (colours.get(s.color) || 0) + 1);
    if (s.backgroundColor !== "rgba(0, 0, 0, 0)") colours.set(s.backgroundColor, (colours.get(s.backgroundColor) || 0) + 1);
    fonts.set(s.fontFamily, (fonts.get(s.fontFamily) || 0) + 1);
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    const fg = rgb(s.color);
    if (own && fg && lowContrast.length < 20) {
      const l1 = lum(fg), l2 = lum(background(el));
      const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
      const large = parseFloat(s.fontSize) >= 24 || (parseFloat(s.fontSize) >= 18.66 && +s.fontWeight >= 700);
      if (ratio < (large ? 3 : 4.5)) lowContrast.push({ element: describe(el), text: text(el).slice(0, 80), ratio: Math.round(ratio * 100) / 100 });
    }
  }
  const ranked = (m) => Array.from(m.entries()).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([value, count]) => ({ value, count }));
  const meta = (sel) => { const el = document.querySelector(sel); return el ? (el.getAttribute("content") || "").slice(0, 500) : null; };
  const og = {};
  for (const el of document.querySelectorAll('meta[property^="og:"]')) og[el.getAttribute("property")] = (el.getAttribute("content") || "").slice(0, 500);
  const links = Array.from(document.querySelectorAll("a[href]")).map((a) => ({ href: a.href, text: text(a) }));
  const here = location.host;
  const labelled = (el) => el.labels && el.labels.length > 0 || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby") || el.getAttribute("title");
  const unlabelled = Array.from(document.querySelectorAll("input:not([type=hidden]):not([type=submit]):not([type=button]), select, textarea")).filter((el) => !labelled(el)).map((el) => describe(el) + (el.name ? "[name=" + el.name + "]" : ""));
  const nameless = Array.from(document.querySelectorAll("button, a[href]")).filter((el) => !text(el) && !el.getAttribute("aria-label") && !el.querySelector("img[alt]:not([alt=''])")).map(describe);
  const noAlt = Array.from(document.images).filter((img) => !img.hasAttribute("alt")).map((img) => img.currentSrc || img.src);
  return {
    timings: nav ? { ttfbMs: Math.round(nav.responseStart), domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd), loadMs: Math.round(nav.loadEventEnd), firstContentfulPaintMs: paints["first-contentful-paint"] ?? null, largestContentfulPaintMs: lcp ? Math.round(lcp.startTime) : null } : null,
    largestContentfulPaint: lcp ? { element: describe(lcp.element), text: lcp.element ? text(lcp.element).slice(0, 120) : "", url: lcp.url || null, size: lcp.size } : null,
    styles: ["h1", "h2", "h3", "body", "p", "a", "button, .button, [role=button]"].map(style).filter(Boolean),
    colours: ranked(colours),
    fonts: ranked(fonts),
    outline: cap(Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6")).map((h) => ({ level: +h.tagName[1], text: text(h) })), 200),
    meta: { title: document.title.slice(0, 300), description: meta('meta[name="description"]'), canonical: (document.querySelector('link[rel="canonical"]') || {}).href || null, lang: document.documentElement.lang || null, viewport: meta('meta[name="viewport"]'), openGraph: og },
    links: { internal: links.filter((l) => { try { return new URL(l.href).host === here; } catch { return false; } }).length, external: cap(links.filter((l) => { try { return new URL(l.href).host !== here; } catch { return false; } }), 100), total: links.length },
    imagesWithoutAlt: cap(noAlt, 100),
    accessibility: { lowContrast, unlabelledFields: cap(unlabelled, 50), namelessControls: cap(nameless, 50), missingLang: !document.documentElement.lang, imagesWithoutAlt: noAlt.length },
  };
})()`;

/** Raw business facts of a page: JSON-LD objects, microdata items, Open Graph tags and visible text clues. */
export const BUSINESS_SCRIPT = String.raw`(() => {
  const jsonLd = [];
  for (const s of document.querySelectorAll('script[type="application/ld+json"]')) {
    try { const v = JSON.parse(s.textContent || ""); const add = (x) => { if (Array.isArray(x)) x.forEach(add); else if (x && typeof x === "object") { jsonLd.push(x); if (Array.isArray(x["@graph"])) x["@graph"].forEach(add); } }; add(v); } catch {}
  }
  const valueOf = (el) => el.hasAttribute("content") ? el.getAttribute("content") : el.tagName === "A" || el.tagName === "LINK" ? el.href : el.tagName === "IMG" ? el.src : el.tagName === "META" ? el.getAttribute("content") : el.tagName === "TIME" && el.getAttribute("datetime") ? el.getAttribute("datetime") : (el.textContent || "").replace(/\s+/g, " ").trim();
  const item = (root, depth) => {
    const out = { "@type": (root.getAttribute("itemtype") || "").split("/").pop() };
    const walk = (el) => {
      for (const child of el.children) {
        const prop = child.getAttribute("itemprop");
        if (prop) {
          const v = child.hasAttribute("itemscope") && depth < 6 ? item(child, depth + 1) : valueOf(child);
          for (const p of prop.split(/\s+/)) { if (out[p] === undefined) out[p] = v; else out[p] = [].concat(out[p], v); }
        }
        if (!child.hasAttribute("itemscope")) walk(child);
      }
    };
    walk(root);
    return out;
  };
  const microdata = Array.from(document.querySelectorAll("[itemscope]:not([itemprop])")).slice(0, 50).map((el) => item(el, 0));
  const og = {};
  for (const el of document.querySelectorAll('meta[property^="og:"], meta[property^="business:"]')) og[el.getAttribute("property")] = el.getAttribute("content") || "";
  const body = (document.body ? document.body.innerText : "").slice(0, 200000);
  const phone = /(?:\+|\b0)[\d][\d ()./-]{6,}\d/.exec(body);
  const email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(body);
  const socialHosts = /(^|\.)(facebook|instagram|twitter|x|linkedin|tiktok|youtube|pinterest|yelp|tripadvisor)\.com$/;
  const social = Array.from(new Set(Array.from(document.querySelectorAll("a[href]")).map((a) => a.href).filter((h) => { try { return socialHosts.test(new URL(h).hostname); } catch { return false; } }))).slice(0, 20);
  const logoImg = document.querySelector('img[alt*="logo" i], img[src*="logo" i], header img');
  const images = Array.from(document.images).filter((img) => img.naturalWidth >= 100 && img.naturalHeight >= 100).map((img) => img.currentSrc || img.src).slice(0, 30);
  const h1 = document.querySelector("h1");
  return { jsonLd: jsonLd.slice(0, 50), microdata, og, title: document.title, h1: h1 ? h1.textContent.replace(/\s+/g, " ").trim() : null, phone: phone ? phone[0].trim() : null, email: email ? email[0] : null, social, logo: logoImg ? logoImg.currentSrc || logoImg.src : null, images, url: location.href };
})()`;

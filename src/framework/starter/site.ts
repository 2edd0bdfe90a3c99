/** Starter files: site-wide settings, the layout and the components. */
export const siteFiles: Record<string, string> = {
  "README.md": `# This website

Built with the Sitewright framework. Every file here is part of the draft; edit, check, publish.

- pages/ — one file per URL: pages/index.tsx is /, pages/about.md is /about/,
  pages/blog/[slug].tsx is one page per item of the CMS collection "blog", pages/404.tsx is the
  not-found page. Files and folders starting with _ inside pages/ are not routes.
- layouts/ and components/ — ordinary modules (Preact; React-style code works too).
- styles/ — every .css file here is bundled into one stylesheet linked from every page.
- public/ — served as they are: public/robots.txt is /robots.txt.
- site.ts — the site name, tagline and navigation, used by the layout.

Forms post to /_service/forms/<name>; the platform stores the submissions.
Pages render to static HTML at build time, in a sandbox: no network, no timers, no Node.js.
`,

  "site.ts": `// Site-wide settings, imported by the layout and the pages. Change the name, the tagline and the
// navigation here; every page picks them up at the next build.
export const site = {
  name: "Northwind Studio",
  tagline: "Calm, fast websites for small teams.",
  description: "A small studio building calm, fast websites for small teams.",
  nav: [
    { href: "/", label: "Home" },
    { href: "/about/", label: "About" },
    { href: "/blog/", label: "Blog" },
    { href: "/contact/", label: "Contact" },
  ],
};
`,

  "layouts/Layout.tsx": `// The layout: header with navigation, main content, footer. A layout is an ordinary component;
// pages import it and wrap their content in it. Markdown pages name it in their front matter
// (layout: layouts/Layout) and it receives { title, description, route, children }.
import type { ComponentChildren } from "preact";
import { site } from "../site";

interface LayoutProps {
  /** URL of the current page ("/about/"), to highlight its link. Every page receives it as a prop. */
  route?: string;
  children?: ComponentChildren;
}

export default function Layout({ route = "/", children }: LayoutProps) {
  return (
    <div class="page">
      <header class="site-header">
        <div class="container header-inner">
          <a class="brand" href="/">
            <span class="brand-mark" aria-hidden="true" />
            {site.name}
          </a>
          <nav aria-label="Main">
            <ul class="nav">
              {site.nav.map((link) => {
                const current = link.href === "/" ? route === "/" : route.startsWith(link.href);
                return (
                  <li key={link.href}>
                    <a href={link.href} aria-current={current ? "page" : undefined}>
                      {link.label}
                    </a>
                  </li>
                );
              })}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main">{children}</main>
      <footer class="site-footer">
        <div class="container footer-inner">
          <p>
            © {new Date().getFullYear()} {site.name}. {site.tagline}
          </p>
          <p>
            <a href="/contact/">Get in touch</a>
          </p>
        </div>
      </footer>
    </div>
  );
}
`,

  "components/Hero.tsx": `// A component is any module exporting a function that returns JSX. Import it with a relative
// path: import Hero from "../components/Hero". Props are typed with an interface.
import type { ComponentChildren } from "preact";

interface HeroProps {
  eyebrow?: string;
  title: string;
  children?: ComponentChildren;
  primary?: { href: string; label: string };
  secondary?: { href: string; label: string };
}

export default function Hero({ eyebrow, title, children, primary, secondary }: HeroProps) {
  return (
    <section class="hero">
      <div class="container">
        <div class="hero-inner">
          {eyebrow && <p class="eyebrow">{eyebrow}</p>}
          <h1>{title}</h1>
          <div class="lead">{children}</div>
          <div class="actions">
            {primary && (
              <a class="button" href={primary.href}>
                {primary.label}
              </a>
            )}
            {secondary && (
              <a class="button button-ghost" href={secondary.href}>
                {secondary.label}
              </a>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
`,

  "components/Features.tsx": `// A list of features as cards. Data lives next to the markup: edit the array to change the cards.
// Icons are inline SVG paths (24×24, stroked with the text colour), so they look sharp everywhere.
const features = [
  {
    icon: "M13 2 3 14h9l-1 8 10-12h-9l1-8z",
    title: "Fast by default",
    text: "Pages are rendered to static HTML when you publish, so they load instantly everywhere.",
  },
  {
    icon: "M12 3a9 9 0 1 0 0 18c1.1 0 2-.9 2-2 0-.5-.2-1-.5-1.3-.3-.4-.5-.8-.5-1.3 0-1.1.9-2 2-2h2.4A5.6 5.6 0 0 0 21 8.8C21 5.6 17 3 12 3zM7.5 12a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm3-4a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm5 0a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3z",
    title: "Easy to restyle",
    text: "Colours, spacing and fonts are CSS variables in styles/base.css. Change a few, change it all.",
  },
  {
    icon: "M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4 12.5-12.5z",
    title: "Content you can edit",
    text: "Write pages in Markdown or TSX, and keep posts in the CMS: the blog updates itself.",
  },
  {
    icon: "M4 4h16c1.1 0 2 .9 2 2v12c0 1.1-.9 2-2 2H4c-1.1 0-2-.9-2-2V6c0-1.1.9-2 2-2zm18 2-10 7L2 6",
    title: "Forms that just work",
    text: "Any form posting to /_service/forms/<name> is collected for you, no server needed.",
  },
];

export default function Features() {
  return (
    <section class="section">
      <div class="container">
        <h2 class="section-title">Everything a small website needs</h2>
        <div class="grid">
          {features.map((feature) => (
            <article class="card" key={feature.title}>
              <span class="card-icon" aria-hidden="true">
                <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
                  <path d={feature.icon} />
                </svg>
              </span>
              <h3>{feature.title}</h3>
              <p>{feature.text}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
`,

  "components/ContactForm.tsx": `// Forms are plain HTML. One that posts to /_service/forms/<name> is received by the platform:
// the build records its name ("contact") and its fields (name, email, message), and submissions
// are stored for the site's owner. Give every field a name attribute.
export default function ContactForm() {
  return (
    <form class="form" action="/_service/forms/contact" method="post">
      <div class="field">
        <label for="name">Name</label>
        <input id="name" name="name" type="text" autocomplete="name" required />
      </div>
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required />
      </div>
      <div class="field">
        <label for="message">Message</label>
        <textarea id="message" name="message" rows={5} required />
      </div>
      <button class="button" type="submit">
        Send message
      </button>
    </form>
  );
}
`,

  "components/date.ts": `// Helpers are ordinary modules too. The sandbox has no Intl, so dates are formatted by hand.
const months = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
];

/** "2025-03-14" or an ISO timestamp → "March 14, 2025"; anything else → "". */
export function formatDate(value: unknown): string {
  if (typeof value !== "string" || value === "") return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return months[date.getUTCMonth()] + " " + date.getUTCDate() + ", " + date.getUTCFullYear();
}
`,
};

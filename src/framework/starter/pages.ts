/** Starter files: the pages. */
export const pageFiles: Record<string, string> = {
  "pages/index.tsx": `// pages/index.tsx is the home page, "/". Every .tsx file under pages/ is a page: its default
// export is a component that receives { params, props, route }. "head" sets the <title> and the
// description of the page (it can also be a function of the same props).
import Layout from "../layouts/Layout";
import Hero from "../components/Hero";
import Features from "../components/Features";
import { site } from "../site";

export const head = {
  title: site.name + " — " + site.tagline,
  description: site.description,
};

export default function Home({ route }: { route: string }) {
  return (
    <Layout route={route}>
      <Hero
        eyebrow="Welcome"
        title="Websites that feel calm and load fast."
        primary={{ href: "/contact/", label: "Start a project" }}
        secondary={{ href: "/about/", label: "Learn more" }}
      >
        <p>
          {site.name} designs and builds small, beautiful websites. This is your starter: edit the
          pages, restyle it, make it yours.
        </p>
      </Hero>
      <Features />
      <section class="section section-alt">
        <div class="container cta">
          <div>
            <h2>Have a project in mind?</h2>
            <p>Tell us about it; we answer within one working day.</p>
          </div>
          <a class="button" href="/contact/">
            Contact us
          </a>
        </div>
      </section>
    </Layout>
  );
}
`,

  "pages/about.md": `---
# Markdown pages: front matter between --- lines sets the title, the description and the layout
# (a component file, here layouts/Layout.tsx). The text below is Markdown; raw HTML is shown as text.
title: About us
description: Who we are and how we work.
layout: layouts/Layout
---

# About us

We are a small studio of designers and engineers. We believe a website should be **fast**,
**accessible** and **easy to change**, so we keep things simple.

## How we work

1. We listen first, and write down what the website must do.
2. We design in the browser, with real content.
3. We ship early, then improve every week.

> Simple things, done well.

Want to work with us? [Send us a message](/contact/).
`,

  "pages/contact.tsx": `// /contact/: a page with a form. See components/ContactForm.tsx for how forms are received.
import Layout from "../layouts/Layout";
import ContactForm from "../components/ContactForm";

export const head = {
  title: "Contact",
  description: "Write to us: we answer within one working day.",
};

export default function Contact({ route }: { route: string }) {
  return (
    <Layout route={route}>
      <section class="section">
        <div class="container narrow">
          <h1>Contact us</h1>
          <p class="muted">Tell us about your project. We answer within one working day.</p>
          <ContactForm />
        </div>
      </section>
    </Layout>
  );
}
`,

  "pages/blog/index.tsx": `// /blog/: lists the published items of the CMS collection "blog". import { cms } from
// "sitewright:cms" reads CMS content at build time: cms.list(collection), cms.get(collection, slug),
// cms.query(collection, { filter, sort: "-date", limit }). Each item is { slug, values }.
import { cms } from "sitewright:cms";
import Layout from "../../layouts/Layout";
import { formatDate } from "../../components/date";

export const head = {
  title: "Blog",
  description: "News and notes from the studio.",
};

export default function Blog({ route }: { route: string }) {
  const posts = cms.query("blog", { sort: "-date" });
  return (
    <Layout route={route}>
      <section class="section">
        <div class="container narrow">
          <h1>Blog</h1>
          {posts.length === 0 ? (
            <div class="empty">
              <p>No posts yet.</p>
              <p class="muted">
                Posts appear here once the "blog" collection of the CMS has published items.
              </p>
            </div>
          ) : (
            <ul class="post-list">
              {posts.map((post) => (
                <li key={post.slug}>
                  <a href={"/blog/" + post.slug + "/"}>
                    <h2>{String(post.values.title ?? post.slug)}</h2>
                  </a>
                  {post.values.date ? <p class="muted">{formatDate(post.values.date)}</p> : null}
                  {post.values.excerpt ? <p>{String(post.values.excerpt)}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
    </Layout>
  );
}
`,

  "pages/blog/[slug].tsx": String.raw`// A dynamic route: [slug] in the file name is a parameter. "collection" makes one page per
// published item of that CMS collection, at /blog/<item slug>/; the page receives the item as
// props.item. (Or export function paths() returning [{ params: { slug: "…" }, props: {…} }].)
// A richText field's value is Markdown; its safe HTML is in values.$html.<field key>.
import Layout from "../../layouts/Layout";
import { formatDate } from "../../components/date";

export const collection = "blog";

interface Item {
  slug: string;
  values: {
    title?: string;
    date?: string;
    excerpt?: string;
    body?: string;
    $html?: { body?: string };
  };
}

export function head({ props }: { props: { item: Item } }) {
  return { title: props.item.values.title ?? props.item.slug, description: props.item.values.excerpt };
}

export default function Post({ props, route }: { props: { item: Item }; route: string }) {
  const { values } = props.item;
  const paragraphs = String(values.body ?? "").split(/\n\s*\n/).filter((text) => text.trim() !== "");
  return (
    <Layout route={route}>
      <article class="section">
        <div class="container narrow prose">
          <p>
            <a href="/blog/">← All posts</a>
          </p>
          <h1>{values.title ?? props.item.slug}</h1>
          {values.date ? <p class="muted">{formatDate(values.date)}</p> : null}
          {values.$html?.body ? (
            <div dangerouslySetInnerHTML={{ __html: values.$html.body }} />
          ) : (
            paragraphs.map((text, i) => <p key={i}>{text}</p>)
          )}
        </div>
      </article>
    </Layout>
  );
}
`,

  "pages/404.tsx": `// pages/404.tsx becomes 404.html: the page visitors see for a URL that does not exist.
import Layout from "../layouts/Layout";

export const head = { title: "Page not found" };

export default function NotFound() {
  return (
    <Layout route="/404.html">
      <section class="section">
        <div class="container narrow center">
          <p class="eyebrow">404</p>
          <h1>This page does not exist.</h1>
          <p class="muted">The link may be broken, or the page may have moved.</p>
          <a class="button" href="/">
            Back to the home page
          </a>
        </div>
      </section>
    </Layout>
  );
}
`,
};

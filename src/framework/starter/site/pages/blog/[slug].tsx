// A dynamic route: [slug] in the file name is a parameter. "collection" makes one page per
// published item of that CMS collection, at /blog/<item slug>/; the page receives the item as
// props.item. (Or export function paths() returning [{ params: { slug: "…" }, props: {…} }].)
// A richText field's value is Markdown; its safe HTML is in values.$html.<field key>.

import { formatDate } from "../../components/date.ts";
import Layout from "../../layouts/Layout.tsx";

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
  const paragraphs = String(values.body ?? "")
    .split(/\n\s*\n/)
    .filter((text) => text.trim() !== "");
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

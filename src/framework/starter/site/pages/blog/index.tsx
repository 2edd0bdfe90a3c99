// /blog/: lists the published items of the CMS collection "blog". import { cms } from
// "sitewright:cms" reads CMS content at build time: cms.list(collection), cms.get(collection, slug),
// cms.query(collection, { filter, sort: "-date", limit }). Each item is { slug, values }.
import { cms } from "sitewright:cms";
import { formatDate } from "../../components/date.ts";
import Layout from "../../layouts/Layout.tsx";

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

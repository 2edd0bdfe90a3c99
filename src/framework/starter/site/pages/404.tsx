// pages/404.tsx becomes 404.html: the page visitors see for a URL that does not exist.
import Layout from "../layouts/Layout.tsx";

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

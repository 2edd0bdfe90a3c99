// The layout: header with navigation, main content, footer. A layout is an ordinary component;
// pages import it and wrap their content in it. Markdown pages name it in their front matter
// (layout: layouts/Layout) and it receives { title, description, route, children }.
import type { ComponentChildren } from "preact";
import { site } from "../site.ts";

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

// pages/index.tsx is the home page, "/". Every .tsx file under pages/ is a page: its default
// export is a component that receives { params, props, route }. "head" sets the <title> and the
// description of the page (it can also be a function of the same props).

import Features from "../components/Features.tsx";
import Hero from "../components/Hero.tsx";
import Layout from "../layouts/Layout.tsx";
import { site } from "../site.ts";

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
          {site.name} designs and builds small, beautiful websites. This is your starter: edit the pages,
          restyle it, make it yours.
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

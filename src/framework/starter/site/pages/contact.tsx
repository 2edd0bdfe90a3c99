// /contact/: a page with a form. See components/ContactForm.tsx for how forms are received.

import ContactForm from "../components/ContactForm.tsx";
import Layout from "../layouts/Layout.tsx";

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

/** Starter file styles/components.css: hero, buttons, cards, forms, blog and Markdown content. */
export const componentsCss: Record<string, string> = {
  "styles/components.css": `/* Styles of the components and pages: hero, buttons, cards, forms, blog, Markdown content.
   Colours and radii come from the variables in base.css. */

/* Hero */
.hero {
  padding: clamp(4rem, 10vw, 7rem) 0 clamp(3rem, 8vw, 5rem);
  background:
    radial-gradient(60rem 30rem at 10% -10%, color-mix(in srgb, var(--accent) 18%, transparent), transparent),
    radial-gradient(50rem 30rem at 100% 0%, color-mix(in srgb, var(--accent-2) 16%, transparent), transparent);
}

.hero-inner {
  max-width: 46rem;
}

.eyebrow {
  display: inline-block;
  margin: 0 0 1rem;
  padding: 0.25rem 0.75rem;
  border-radius: 999px;
  font-size: 0.85rem;
  font-weight: 600;
  color: var(--accent);
  background: color-mix(in srgb, var(--accent) 12%, transparent);
}

.lead {
  font-size: 1.2rem;
  color: var(--muted);
}

.actions {
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin-top: 2rem;
}

/* Buttons */
.button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  padding: 0.75rem 1.35rem;
  border: 1px solid transparent;
  border-radius: 999px;
  font: inherit;
  font-weight: 600;
  color: var(--accent-text);
  background: var(--accent);
  text-decoration: none;
  cursor: pointer;
  transition: transform 0.15s ease, box-shadow 0.15s ease;
}

.button:hover {
  transform: translateY(-1px);
  box-shadow: var(--shadow);
}

.button-ghost {
  color: var(--text);
  background: transparent;
  border-color: var(--border);
}

/* Sections and cards */
.section {
  padding: clamp(3rem, 8vw, 5rem) 0;
}

.section-alt {
  background: var(--bg-alt);
}

.section-title {
  margin: 0 0 2rem;
  text-align: center;
}

.grid {
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
  gap: 1.25rem;
}

.card {
  padding: 1.5rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--bg);
  box-shadow: var(--shadow);
}

.card h3 {
  margin: 0.75rem 0 0.5rem;
}

.card p {
  margin: 0;
  color: var(--muted);
}

.card-icon {
  display: inline-grid;
  place-items: center;
  width: 2.75rem;
  height: 2.75rem;
  border-radius: 12px;
  color: var(--accent);
  background: color-mix(in srgb, var(--accent) 12%, transparent);
}

.cta {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 1.5rem;
  flex-wrap: wrap;
}

.cta h2 {
  margin: 0 0 0.25rem;
}

.cta p {
  margin: 0;
  color: var(--muted);
}

/* Forms */
.form {
  display: grid;
  gap: 1.1rem;
  margin-top: 2rem;
}

.field {
  display: grid;
  gap: 0.4rem;
}

label {
  font-weight: 600;
}

input,
textarea,
select {
  width: 100%;
  padding: 0.7rem 0.9rem;
  border: 1px solid var(--border);
  border-radius: 10px;
  font: inherit;
  color: var(--text);
  background: var(--bg);
}

input:focus,
textarea:focus,
select:focus {
  outline: 2px solid color-mix(in srgb, var(--accent) 60%, transparent);
  outline-offset: 1px;
}

.form .button {
  justify-self: start;
}

/* Blog */
.post-list {
  list-style: none;
  padding: 0;
  margin: 2rem 0 0;
  display: grid;
  gap: 1.5rem;
}

.post-list li {
  padding-bottom: 1.5rem;
  border-bottom: 1px solid var(--border);
}

.post-list a {
  color: var(--text);
  text-decoration: none;
}

.post-list h2 {
  margin: 0;
  font-size: 1.4rem;
}

.post-list p {
  margin: 0.35rem 0 0;
}

.empty {
  margin-top: 2rem;
  padding: 2.5rem;
  border: 1px dashed var(--border);
  border-radius: var(--radius);
  text-align: center;
}

.empty p {
  margin: 0.25rem 0;
}

/* Markdown pages (their content is wrapped in <div class="markdown">) and long texts */
.markdown,
.prose {
  max-width: 44rem;
  margin-inline: auto;
}

.markdown {
  width: min(100% - 2.5rem, 44rem);
  padding: clamp(3rem, 8vw, 5rem) 0;
}

.markdown blockquote {
  margin: 1.5rem 0;
  padding: 0.5rem 1.25rem;
  border-left: 4px solid var(--accent);
  color: var(--muted);
  background: var(--bg-alt);
  border-radius: 0 var(--radius) var(--radius) 0;
}

.markdown code,
.prose code {
  font-family: var(--font-mono);
  font-size: 0.9em;
  padding: 0.1em 0.35em;
  border-radius: 6px;
  background: var(--bg-alt);
}

/* Footer */
.site-footer {
  border-top: 1px solid var(--border);
  color: var(--muted);
  font-size: 0.95rem;
}

.footer-inner {
  display: flex;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: 1rem;
  padding: 1.5rem 0;
}

.footer-inner p {
  margin: 0;
}

@media (max-width: 40rem) {
  .nav a {
    padding: 0.35rem 0.6rem;
  }

  .cta {
    text-align: center;
    justify-content: center;
  }
}
`,
};

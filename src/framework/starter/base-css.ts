/** Starter file styles/base.css: design tokens (CSS variables, light and dark) and the page frame. */
export const baseCss: Record<string, string> = {
  "styles/base.css": `/* Every .css file in styles/ is bundled into one stylesheet, linked from every page, in path
   order: base.css, then components.css (or create styles/index.css and @import the others from it).
   This file holds the design tokens and the page frame. Change the look of the whole site with the
   variables below; dark mode follows the visitor's system setting. */

:root {
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --font-mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  --bg: #ffffff;
  --bg-alt: #f5f6fa;
  --text: #1c1f2a;
  --muted: #5e6577;
  --border: #e3e6ee;
  --accent: #4f46e5;
  --accent-2: #0ea5e9;
  --accent-text: #ffffff;
  --radius: 14px;
  --shadow: 0 1px 2px rgb(16 24 40 / 6%), 0 8px 24px rgb(16 24 40 / 8%);
  --container: 72rem;
  color-scheme: light dark;
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0e1018;
    --bg-alt: #151926;
    --text: #e8eaf2;
    --muted: #9aa1b5;
    --border: #262b3b;
    --accent: #818cf8;
    --accent-2: #38bdf8;
    --accent-text: #0e1018;
    --shadow: 0 1px 2px rgb(0 0 0 / 30%), 0 8px 24px rgb(0 0 0 / 35%);
  }
}

*,
*::before,
*::after {
  box-sizing: border-box;
}

html {
  -webkit-text-size-adjust: 100%;
}

body {
  margin: 0;
  font-family: var(--font);
  font-size: 1.0625rem;
  line-height: 1.65;
  color: var(--text);
  background: var(--bg);
  -webkit-font-smoothing: antialiased;
}

img,
svg {
  max-width: 100%;
  height: auto;
}

a {
  color: var(--accent);
  text-underline-offset: 0.2em;
}

h1,
h2,
h3 {
  line-height: 1.2;
  letter-spacing: -0.02em;
}

h1 {
  font-size: clamp(2rem, 5vw, 3.25rem);
  margin: 0 0 1rem;
}

h2 {
  font-size: clamp(1.5rem, 3vw, 2rem);
}

.container {
  width: min(100% - 2.5rem, var(--container));
  margin-inline: auto;
}

.narrow {
  max-width: 44rem;
}

.center {
  text-align: center;
}

.muted {
  color: var(--muted);
}

.page {
  min-height: 100vh;
  display: flex;
  flex-direction: column;
}

main {
  flex: 1;
}

/* Header and navigation */
.site-header {
  position: sticky;
  top: 0;
  z-index: 10;
  background: color-mix(in srgb, var(--bg) 85%, transparent);
  backdrop-filter: blur(10px);
  border-bottom: 1px solid var(--border);
}

.header-inner {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 1rem;
  min-height: 4rem;
  flex-wrap: wrap;
}

.brand {
  display: inline-flex;
  align-items: center;
  gap: 0.6rem;
  font-weight: 700;
  color: var(--text);
  text-decoration: none;
}

.brand-mark {
  width: 1.5rem;
  height: 1.5rem;
  border-radius: 0.5rem;
  background: linear-gradient(135deg, var(--accent), var(--accent-2));
}

.nav {
  display: flex;
  gap: 0.25rem;
  list-style: none;
  margin: 0;
  padding: 0;
}

.nav a {
  display: block;
  padding: 0.4rem 0.8rem;
  border-radius: 999px;
  color: var(--muted);
  text-decoration: none;
  font-weight: 500;
}

.nav a:hover,
.nav a[aria-current="page"] {
  color: var(--text);
  background: var(--bg-alt);
}
`,
};

// A list of features as cards. Data lives next to the markup: edit the array to change the cards.
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
              <span class="card-icon">
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  width="24"
                  height="24"
                  fill="none"
                  stroke="currentColor"
                  stroke-width="2"
                  stroke-linecap="round"
                  stroke-linejoin="round"
                >
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

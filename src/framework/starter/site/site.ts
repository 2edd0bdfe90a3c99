// Site-wide settings, imported by the layout and the pages. Change the name, the tagline and the
// navigation here; every page picks them up at the next build.
export const site = {
  name: "{{websiteName}}",
  tagline: "Calm, fast websites for small teams.",
  description: "A small studio building calm, fast websites for small teams.",
  nav: [
    { href: "/", label: "Home" },
    { href: "/about/", label: "About" },
    { href: "/blog/", label: "Blog" },
    { href: "/contact/", label: "Contact" },
  ],
};

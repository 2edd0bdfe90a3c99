import { defineGroup } from "../../src/kernel/define-tool.ts";

export const researchGroup = defineGroup({
  tag: "Web research",
  toolset: "research",
  description:
    "Looks at external web pages for the website being built, in a real browser on the public internet only: screenshots at phone, tablet and desktop widths, measurements (speed, fonts, colours, headings, meta tags, accessibility), business pages read into profiles, and many images laid out on numbered contact sheets. Screenshots and sheets are stored as the website's assets.",
  defaults: { access: "content_editor", cost: "expensive" },
});

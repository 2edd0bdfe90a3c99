import { defineGroup } from "../../src/kernel/define-tool.ts";

export const mediaGroup = defineGroup({
  tag: "Media generation",
  toolset: "research",
  description:
    "Generates website images from a prompt and optional reference images (assets of the website, as style or subject references), stored as ordinary assets with their prompt and references recorded. Each image spends AI credits of the organization's billing state.",
  defaults: { access: "content_editor", cost: "expensive" },
});

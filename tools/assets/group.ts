import { defineGroup } from "../../src/kernel/define-tool.ts";

export const assetsGroup = defineGroup({
  tag: "Assets",
  description:
    "A website's uploaded files (images, PDFs, fonts, video, audio): upload, import by URL, list, get with usage, update and delete; served from the website's host at immutable URLs, images resized on request.",
  toolset: "assets",
  defaults: { access: "content_editor" },
});

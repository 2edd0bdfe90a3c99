import { defineGroup } from "../../src/kernel/define-tool.ts";

export const cmsCollectionsGroup = defineGroup({
  tag: "CMS collections",
  description: "A website's content collections: named, typed sets of items its pages read.",
  toolset: "cms",
  defaults: { access: "full_editor" },
});

export const cmsFieldsGroup = defineGroup({
  tag: "CMS fields",
  description: "The fields of a CMS collection: their keys, types and validation.",
  toolset: "cms",
  defaults: { access: "full_editor" },
});

export const cmsItemsGroup = defineGroup({
  tag: "CMS items",
  description:
    "The items of a CMS collection: create, query, update, publish, archive and reorder, one at a time or in bulk.",
  toolset: "cms",
  defaults: { access: "content_editor" },
});

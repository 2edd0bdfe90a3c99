import { z } from "zod";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { optionsOf } from "../../src/services/cms/fields.ts";
import {
  buildFieldSettings,
  type FieldSpec,
  loadField,
  projectField,
} from "../../src/services/cms/service.ts";
import { field, fieldUpdate } from "./schemas.ts";

export default defineTool({
  operationId: "cms.fields.update",
  group: "CMS fields",
  title: "Update a field",
  description:
    "Changes a field's name, help text, required, unique, default, validations, validValues, integer or position; omitted settings stay. key and type are fixed (to change the type, add a new field, copy the values with cms_items_update, delete the old one). Existing values are not rewritten: tightened rules apply on each item's next edit or publish.",
  input: fieldUpdate
    .extend({ websiteId: fields.websiteId(), fieldId: z.string().min(1).describe("Id of the field.") })
    .strict(),
  output: field,
  capability: "cms.fields.update",
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  cost: "standard",
  http: { method: "PATCH", path: "/cms/fields/{fieldId}" },
  async handler(input, ctx) {
    const { field: current } = await loadField(ctx.stores, input.websiteId, input.fieldId);
    if (input.type !== undefined && input.type !== current.type) {
      throw new ApiError(
        "validation",
        `type: field '${current.key}' is ${current.type}; a field's type cannot change, and existing values are not converted.`,
        {
          suggestion:
            "Add a field of the new type with {{cms.fields.create}}, copy the values with {{cms.items.bulkUpdate}}, then delete this field with {{cms.fields.delete}}.",
        },
      );
    }
    const options = optionsOf(current);
    const spec: FieldSpec = {
      key: current.key,
      name: input.name ?? current.name,
      type: current.type as FieldSpec["type"],
      helpText: input.helpText ?? current.helpText,
      required: input.required ?? current.required,
      unique: input.unique ?? current.unique,
      defaultValue: input.defaultValue !== undefined ? input.defaultValue : current.defaultValue,
      validations: input.validations ?? (current.validations as FieldSpec["validations"]),
      validValues: input.validValues ?? options.validValues,
      referenceCollectionId: options.collectionId,
      integer: input.integer ?? options.integer,
    };
    const settings = await buildFieldSettings(ctx.stores, input.websiteId, spec, "");
    const patch = {
      name: spec.name,
      helpText: spec.helpText ?? "",
      required: spec.required ?? false,
      unique: spec.unique ?? false,
      defaultValue: settings.defaultValue,
      validations: settings.validations,
      options: settings.options,
      position: input.position ?? current.position,
      updatedAt: ctx.now,
    };
    await ctx.stores.cms.updateField(current.id, patch);
    return projectField({ ...current, ...patch });
  },
});

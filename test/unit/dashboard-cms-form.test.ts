import { describe, expect, it } from "vitest";
import {
  type CmsField,
  changedValues,
  isEditable,
  submittedValue,
} from "../../src/app/pages/website/cms-fields.ts";

const field = (key: string, type: string, extra: Partial<CmsField> = {}): CmsField => ({
  id: `fld_${key}`,
  collectionId: "col_test",
  key,
  name: key,
  type,
  helpText: "",
  required: false,
  unique: false,
  defaultValue: null,
  validations: {},
  position: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...extra,
});

const form = (entries: [string, string][]) => new URLSearchParams(entries);

describe("the dashboard's CMS item form", () => {
  const fields = [
    field("title", "text"),
    field("views", "number", { integer: true }),
    field("featured", "boolean"),
    field("category", "option", { validValues: ["news"] }),
    field("tags", "multiOption"),
  ];

  it("edits simple types only: lists, references, assets and JSON stay read-only", () => {
    expect(fields.map(isEditable)).toEqual([true, true, true, true, false]);
    for (const type of ["images", "file", "image", "reference", "references", "json"]) {
      expect(isEditable(field("x", type)), type).toBe(false);
    }
  });

  it("turns inputs into values: empty clears, numbers parse, a checkbox is true only when sent", () => {
    const sent = form([
      ["v.title", "  "],
      ["v.views", "12"],
    ]);
    expect(submittedValue(fields[0]!, sent)).toBeNull();
    expect(submittedValue(fields[1]!, sent)).toBe(12);
    expect(submittedValue(fields[2]!, sent)).toBe(false);
    expect(submittedValue(fields[2]!, form([["v.featured", "true"]]))).toBe(true);
    // Not a number: passed on as typed, so the operation's validation names the field.
    expect(submittedValue(fields[1]!, form([["v.views", "twelve"]]))).toBe("twelve");
  });

  it("sends only the changed values of the fields the form showed", () => {
    const current = { title: "Hello", views: 3, tags: ["a"] };
    const sent = form([
      ["fields", "title"],
      ["fields", "views"],
      ["fields", "featured"],
      ["fields", "tags"],
      ["v.title", "Hello"],
      ["v.views", "4"],
      ["v.tags", "forged"],
      ["v.category", "news"],
    ]);
    // featured: unchecked and absent before (false either way); category: not listed; tags: not editable.
    expect(changedValues(fields, current, sent)).toEqual({ views: 4 });
    expect(changedValues(fields, current, form([["fields", "title"]]))).toEqual({ title: null });
  });
});

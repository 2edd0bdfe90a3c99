import type { FormSubmissionFileRecord, FormSubmissionRecord } from "../../db/stores/forms.ts";
import { iso } from "../../kernel/schemas.ts";

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. A value a spreadsheet would run as a
 * formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`, so opening an export
 * never runs what a visitor typed.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Submissions as CSV: `id, form, state, createdAt, page`, then one column per field name in order of first
 * appearance, files as `name (type, bytes)`; several values of a field are joined with `; `. Lines end in CRLF.
 */
export function submissionsCsv(
  rows: readonly FormSubmissionRecord[],
  files: ReadonlyMap<string, readonly FormSubmissionFileRecord[]>,
): string {
  const names: string[] = [];
  const seen = new Set<string>();
  const note = (name: string) => {
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  };
  for (const row of rows) {
    for (const name of Object.keys(row.values)) note(name);
    for (const file of files.get(row.id) ?? []) note(file.field);
  }
  const lines = [["id", "form", "state", "createdAt", "page", ...names]];
  for (const row of rows) {
    const cells = names.map((name) => {
      const value = row.values[name];
      const texts = value === undefined ? [] : Array.isArray(value) ? value : [value];
      const attached = (files.get(row.id) ?? [])
        .filter((file) => file.field === name)
        .map((file) => `${file.filename} (${file.contentType}, ${file.size} bytes)`);
      return [...texts, ...attached].join("; ");
    });
    lines.push([row.id, row.formName, row.state, iso(row.createdAt), row.page ?? "", ...cells]);
  }
  return `${lines.map((line) => line.map(csvField).join(",")).join("\r\n")}\r\n`;
}

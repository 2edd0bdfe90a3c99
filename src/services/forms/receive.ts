import { fileTypeFromBuffer } from "file-type";
import type { FormFieldRecord, FormValues } from "../../db/schema/forms.ts";
import type { FormSubmissionFileRecord } from "../../db/stores/forms.ts";
import { GUARD_FIELDS } from "../../framework/forms.ts";
import { ApiError } from "../../kernel/errors.ts";
import type { FormLimits } from "./limits.ts";

/** The content types a hosted form accepts. */
export const FORM_CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/json",
] as const;

/** One entry of a body as sent: a text value, or a file. */
type Entry = [name: string, value: string | File];

/** A submission checked against its form: values to store, files to put, and what the spam checks read. */
export interface CheckedSubmission {
  values: FormValues;
  files: { field: string; filename: string; file: File }[];
  honeypot: string;
  token: string;
}

const invalid = (message: string, options: { status?: number; validValues?: readonly unknown[] } = {}) =>
  new ApiError("validation", message, options);

/** The entries of a body of `contentType` (one of `FORM_CONTENT_TYPES`); malformed bodies are `validation`. */
export async function parseEntries(contentType: string, body: Uint8Array): Promise<Entry[]> {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") {
    return [...new URLSearchParams(new TextDecoder().decode(body))];
  }
  if (type === "multipart/form-data") {
    let form: FormData;
    try {
      // Already bounded: `body` is the bytes the bounded reader returned.
      const bodyResponse = new Response(body as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": contentType },
      });
      form = await bodyResponse.formData();
    } catch {
      throw invalid(
        "Request body: not valid multipart/form-data (check the boundary and each part's headers).",
      );
    }
    return [...form.entries()];
  }
  if (type === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw invalid("Request body: not valid JSON.");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw invalid("Request body: a JSON object of field names to values is expected.");
    }
    const entries: Entry[] = [];
    for (const [name, raw] of Object.entries(value)) {
      for (const item of Array.isArray(raw) ? raw : [raw]) {
        if (item === null) continue;
        if (typeof item !== "string" && typeof item !== "number" && typeof item !== "boolean") {
          throw invalid(`${name}: a value must be a string, number or boolean (or a list of them).`);
        }
        entries.push([name, String(item)]);
      }
    }
    return entries;
  }
  throw invalid(
    `Content-Type: '${type || "(none)"}' is not accepted; send the form as one of the valid values.`,
    {
      status: 415,
      validValues: FORM_CONTENT_TYPES,
    },
  );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checks entries against the recorded form: known fields only, required ones present, caps kept. */
export function checkEntries(
  fields: readonly FormFieldRecord[],
  entries: readonly Entry[],
  limits: FormLimits,
) {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const result: CheckedSubmission = { values: {}, files: [], honeypot: "", token: "" };
  const add = (name: string, value: string) => {
    const known = result.values[name];
    result.values[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  };
  for (const [name, value] of entries) {
    if (name === GUARD_FIELDS.honeypot || name === GUARD_FIELDS.token) {
      if (typeof value === "string")
        result[name === GUARD_FIELDS.token ? "token" : "honeypot"] = value.slice(0, 200);
      continue;
    }
    const field = byName.get(name);
    if (!field) {
      throw invalid(`${name}: this form has no such field.`, { validValues: fields.map((f) => f.name) });
    }
    if (typeof value !== "string") {
      if (field.type !== "file") throw invalid(`${name}: a text value is expected, not a file.`);
      // A file input left empty is sent as a part with no name and no bytes.
      if (value.size === 0 && !value.name) continue;
      if (value.size > limits.maxFileBytes) {
        throw invalid(
          `${name}: the file '${value.name}' is larger than the ${limits.maxFileBytes}-byte limit.`,
          {
            status: 413,
          },
        );
      }
      if (result.files.length >= limits.maxFiles) {
        throw invalid(`${name}: more than ${limits.maxFiles} files in one submission.`, { status: 413 });
      }
      result.files.push({ field: name, filename: cleanFilename(value.name), file: value });
      continue;
    }
    if (field.type === "file") {
      if (value === "") continue;
      throw invalid(`${name}: a file is expected; send the form as multipart/form-data.`);
    }
    if (value.length > limits.maxValueChars) {
      throw invalid(`${name}: longer than ${limits.maxValueChars} characters.`, { status: 413 });
    }
    if (field.type === "email" && value !== "" && !EMAIL.test(value.trim())) {
      throw invalid(`${name}: '${value.slice(0, 100)}' is not an email address.`);
    }
    add(name, value);
  }
  for (const field of fields) {
    if (!field.required) continue;
    const present =
      field.type === "file"
        ? result.files.some((file) => file.field === field.name)
        : [result.values[field.name] ?? []].flat().some((value) => value.trim() !== "");
    if (!present) throw invalid(`${field.name}: required.`);
  }
  return result;
}

/** Reads the files' bytes and sniffs their types from the bytes (the sender's claim is never used). */
export async function readFiles(
  files: CheckedSubmission["files"],
): Promise<(Omit<FormSubmissionFileRecord, "sha256"> & { bytes: Uint8Array })[]> {
  return Promise.all(
    files.map(async (entry, position) => {
      // An in-memory part of a body the bounded reader already read.
      const fileResponse = new Response(entry.file);
      const bytes = new Uint8Array(await fileResponse.arrayBuffer());
      const sniffed = await fileTypeFromBuffer(bytes);
      return {
        position,
        field: entry.field,
        filename: entry.filename,
        contentType: sniffed?.mime ?? (isText(bytes) ? "text/plain" : "application/octet-stream"),
        size: bytes.byteLength,
        bytes,
      };
    }),
  );
}

function isText(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, 4096));
    return !bytes.subarray(0, 4096).includes(0);
  } catch {
    return false;
  }
}

/** The last path segment of a sent file name, without control characters, at most 200 characters. */
function cleanFilename(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (base || "file").slice(0, 200);
}

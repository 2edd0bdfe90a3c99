import type { z } from "zod";
import { ApiError, type ValidationIssue } from "./errors.ts";

type Issue = z.core.$ZodIssue;

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    return text ? `${text}.${String(key)}` : String(key);
  }, "");
}

function describe(issue: Issue): { field: string; message: string; validValues?: unknown[] }[] {
  if (issue.code === "unrecognized_keys") {
    const field = pathText(issue.path);
    return issue.keys.map((key) => ({
      field: field ? `${field}.${key}` : key,
      message: "is not a known field; remove it (unknown fields are rejected)",
    }));
  }
  return [describeOne(issue)];
}

function describeOne(issue: Issue): { field: string; message: string; validValues?: unknown[] } {
  const field = pathText(issue.path);
  switch (issue.code) {
    case "invalid_value":
      return {
        field,
        message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`,
        validValues: [...issue.values],
      };
    case "invalid_union": {
      const discriminator = (issue as { discriminator?: string }).discriminator;
      const options = (issue as { options?: unknown[] }).options;
      if (discriminator) {
        const name =
          issue.path.at(-1) === discriminator ? field : field ? `${field}.${discriminator}` : discriminator;
        return {
          field: name,
          message: "does not name a known variant",
          ...(options ? { validValues: options } : {}),
        };
      }
      return { field, message: issue.message };
    }
    case "invalid_type":
      if (issue.message.includes("received undefined")) return { field, message: "is required" };
      return {
        field,
        message: `must be ${issue.expected === "int" ? "an integer" : `of type ${issue.expected}`}`,
      };
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const side = issue.code === "too_small" ? "at least" : "at most";
      const noun = issue.origin === "string" ? "character" : issue.origin === "array" ? "item" : "";
      const unit = noun ? ` ${noun}${Number(bound) === 1 ? "" : "s"}` : "";
      return { field, message: `must be ${side} ${bound}${unit}` };
    }
    default:
      return { field, message: issue.message.replace(/^Invalid input: /, "") };
  }
}

/**
 * Parses `value` with `schema`. The `validation` error's message names the first invalid field (with its closed
 * set's `validValues`); `issues` lists every problem found, that one first.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues
    .flatMap(describe)
    .map(({ field, message, validValues }) => ({
      path: field,
      message,
      ...(validValues ? { validValues } : {}),
    }));
  const { path, message, validValues } = issues[0]!;
  throw new ApiError("validation", path ? `${path}: ${message}.` : `Request body: ${message}.`, {
    ...(validValues ? { validValues } : {}),
    issues,
  });
}

import { RE2JS } from "re2js";

/**
 * `validations.pattern` runs on RE2 (re2js): matching takes time linear in the text whatever the pattern, so a
 * pattern like `^(a+)+$` cannot stall the process. RE2 has no backreferences and no lookaround; such patterns
 * are refused when a field is created or updated. Compiled patterns are kept (most recently used first).
 */
const compiled = new Map<string, RE2JS | string>();
const MAX_CACHED = 2_000;

/** The pattern compiled, or why RE2 refuses it (the reason is cached too). */
export function compilePattern(pattern: string): RE2JS | string {
  const cached = compiled.get(pattern);
  if (cached !== undefined) {
    compiled.delete(pattern);
    compiled.set(pattern, cached);
    return cached;
  }
  let result: RE2JS | string;
  try {
    result = RE2JS.compile(pattern);
  } catch (error) {
    result = (error as Error).message.replace(/^error parsing regexp: /, "");
  }
  compiled.set(pattern, result);
  if (compiled.size > MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
  return result;
}

export const PATTERN_SUGGESTION =
  "Patterns run on RE2 (linear time): use character classes, alternation, repetition and anchors; backreferences (\\1) and lookaround ((?=, (?!, (?<=, (?<!) are not supported.";

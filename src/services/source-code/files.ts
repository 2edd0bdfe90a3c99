import type { Stores } from "../../db/stores/index.ts";
import type { SourceFileRecord } from "../../db/stores/source-files.ts";
import { ApiError } from "../../kernel/errors.ts";
import type { Principal } from "../../kernel/principal.ts";
import { iso } from "../../kernel/schemas.ts";
import type { FileContent } from "./content.ts";
import { bytesText, limits } from "./limits.ts";

/** A draft file as operations return it. */
export function projectFile(file: SourceFileRecord) {
  return {
    path: file.path,
    size: file.size,
    sha256: file.sha256,
    updatedAt: iso(file.updatedAt),
    updatedBy: { type: file.updatedByType, id: file.updatedById },
  };
}

export function encodeFileCursor(path: string): string {
  return Buffer.from(JSON.stringify(["path", path])).toString("base64url");
}

export function decodeFileCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value[0] === "path" && typeof value[1] === "string") return value[1];
  } catch {
    // fall through to the validation error
  }
  throw new ApiError("validation", "cursor: not a cursor returned by this list; pass nextCursor unchanged.", {
    suggestion: "Omit cursor to start from the first page.",
  });
}

export function fileNotFound(websiteId: string, path: string, field = "path"): ApiError {
  return new ApiError(
    "not_found",
    `${field}: '${path}' is not a file of the draft of website '${websiteId}'.`,
    {
      suggestion: "Call {{websiteSourceCode.files.list}} to see the draft's files.",
    },
  );
}

/**
 * Checks an optimistic-concurrency precondition: `undefined` skips it, `null` means "must not exist",
 * a sha256 means "must exist with exactly this content". A mismatch is `conflict`.
 */
export function checkExpected(
  field: string,
  path: string,
  expected: string | null | undefined,
  current: SourceFileRecord | undefined,
): void {
  if (expected === undefined) return;
  const reread = {
    suggestion:
      "Read the file again with {{websiteSourceCode.files.get}}, apply your change to its current content, and retry with its sha256 as expectedSha256.",
  };
  if (expected === null) {
    if (current) {
      throw new ApiError(
        "conflict",
        `${field}: '${path}' already exists (sha256 ${current.sha256}); expectedSha256 null means it must not exist.`,
        reread,
      );
    }
    return;
  }
  if (!current) {
    throw new ApiError(
      "conflict",
      `${field}: '${path}' does not exist, but expectedSha256 was ${expected}.`,
      reread,
    );
  }
  if (current.sha256 !== expected.toLowerCase()) {
    throw new ApiError(
      "conflict",
      `${field}: '${path}' has sha256 ${current.sha256}, not the expected ${expected}: it changed since you read it.`,
      reread,
    );
  }
}

export interface WriteEntry {
  /** How errors name the entry: `''` for a single write, `files[3].` for an entry of writeMany. */
  field: string;
  path: string;
  file: FileContent;
  expectedSha256?: string | null;
}

export interface WriteResult {
  path: string;
  sha256: string;
  size: number;
  created: boolean;
  changed: boolean;
}

/**
 * Writes entries into the draft inside the caller's transaction (the pipeline's), so a failure on any entry
 * leaves the draft as it was. Checks each entry's expectedSha256 and the draft's caps after all entries.
 */
export async function writeFiles(
  stores: Stores,
  websiteId: string,
  entries: readonly WriteEntry[],
  principal: Principal,
  now: number,
): Promise<{ results: WriteResult[]; draft: { files: number; bytes: number } }> {
  const before = await stores.sourceFiles.totals(websiteId);
  let { files, bytes } = before;
  const plans: { entry: WriteEntry; current: SourceFileRecord | undefined }[] = [];
  for (const entry of entries) {
    const current = await stores.sourceFiles.get(websiteId, entry.path);
    checkExpected(`${entry.field}path`, entry.path, entry.expectedSha256, current);
    files += current ? 0 : 1;
    bytes += entry.file.size - (current?.size ?? 0);
    plans.push({ entry, current });
  }
  assertDraftCaps(before, { files, bytes });
  const results: WriteResult[] = [];
  for (const { entry, current } of plans) {
    const { path, file } = entry;
    const changed = current?.sha256 !== file.sha256;
    if (changed) {
      await stores.sourceFiles.putContent(file, now);
      await stores.sourceFiles.put({
        websiteId,
        path,
        sha256: file.sha256,
        size: file.size,
        updatedAt: now,
        updatedByType: principal.type,
        updatedById: principal.id,
      });
    }
    results.push({ path, sha256: file.sha256, size: file.size, created: !current, changed });
  }
  return { results, draft: { files, bytes } };
}

/** The per-draft caps: refused (`conflict`) only when a change would grow a draft past one of them. */
function assertDraftCaps(
  before: { files: number; bytes: number },
  after: { files: number; bytes: number },
): void {
  if (after.files > limits.maxDraftFiles && after.files > before.files) {
    throw new ApiError(
      "conflict",
      `The draft would have ${after.files} files; a draft holds at most ${limits.maxDraftFiles.toLocaleString("en-US")} files.`,
      { suggestion: "Delete files you no longer need with {{websiteSourceCode.files.delete}}, then retry." },
    );
  }
  if (after.bytes > limits.maxDraftBytes && after.bytes > before.bytes) {
    throw new ApiError(
      "conflict",
      `The draft would hold ${after.bytes} bytes; a draft holds at most ${bytesText(limits.maxDraftBytes)} (${limits.maxDraftBytes} bytes) of files.`,
      {
        suggestion:
          "Delete or shrink files with {{websiteSourceCode.files.delete}}, or move large data into the CMS or Assets.",
      },
    );
  }
}

export async function deleteFile(
  stores: Stores,
  websiteId: string,
  path: string,
  expectedSha256: string | undefined,
): Promise<SourceFileRecord> {
  const current = await stores.sourceFiles.get(websiteId, path);
  if (!current) throw fileNotFound(websiteId, path);
  checkExpected("path", path, expectedSha256, current);
  await stores.sourceFiles.delete(websiteId, path);
  return current;
}

export async function moveFile(
  stores: Stores,
  websiteId: string,
  move: { from: string; to: string; overwrite: boolean; expectedSha256?: string },
  principal: Principal,
  now: number,
): Promise<{ file: SourceFileRecord; overwritten: boolean }> {
  const { from, to } = move;
  if (from === to) throw new ApiError("validation", `to: is the same path as from ('${from}').`);
  const source = await stores.sourceFiles.get(websiteId, from);
  if (!source) throw fileNotFound(websiteId, from, "from");
  checkExpected("from", from, move.expectedSha256, source);
  const target = await stores.sourceFiles.get(websiteId, to);
  if (target && !move.overwrite) {
    throw new ApiError("conflict", `to: '${to}' already exists; a move does not replace files by default.`, {
      suggestion: "Pass overwrite: true to replace it, or choose another destination.",
    });
  }
  const file = {
    ...source,
    path: to,
    updatedAt: now,
    updatedByType: principal.type,
    updatedById: principal.id,
  };
  await stores.sourceFiles.delete(websiteId, from);
  await stores.sourceFiles.put(file);
  return { file, overwritten: Boolean(target) };
}

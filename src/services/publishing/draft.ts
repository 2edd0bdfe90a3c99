import type { Stores } from "../../db/stores/index.ts";
import type { SourceFileRecord } from "../../db/stores/source-files.ts";
import { starterFiles } from "../../framework/index.ts";
import type { Principal } from "../../kernel/principal.ts";
import { sha256Of } from "../source-code/content.ts";

/** A website's draft as a build takes it: its file rows (for the deployment's source files) and their texts. */
export interface Draft {
  /** Draft files in byte order of path. */
  rows: SourceFileRecord[];
  /** path → text, what `buildSite` reads. */
  files: Map<string, string>;
}

/** Reads the whole draft of a website: one query for the rows, one (chunked) for their texts. */
export async function readDraft(stores: Stores, websiteId: string): Promise<Draft> {
  const rows = await stores.sourceFiles.list(websiteId, {});
  const texts = await stores.sourceFiles.getContents(rows.map((row) => row.sha256));
  const files = new Map<string, string>();
  for (const row of rows) {
    const text = texts.get(row.sha256);
    if (text === undefined) throw new Error(`content ${row.sha256} of draft file ${row.path} is missing`);
    files.set(row.path, text);
  }
  return { rows, files };
}

/** Whether two reads of a draft hold the same files (same paths, same contents). */
export function sameFiles(
  a: readonly Pick<SourceFileRecord, "path" | "sha256">[],
  b: readonly Pick<SourceFileRecord, "path" | "sha256">[],
): boolean {
  return (
    a.length === b.length && a.every((file, i) => file.path === b[i]!.path && file.sha256 === b[i]!.sha256)
  );
}

/**
 * Writes the framework's starter site, named after the website, as the draft of a new website, in the caller's
 * transaction (the one that creates the website), as written by `principal`. Nothing is published: the site goes
 * live on its first publish.
 */
export async function seedStarter(
  stores: Stores,
  website: { id: string; name: string },
  principal: Principal,
  now: number,
): Promise<void> {
  const websiteId = website.id;
  for (const [path, content] of starterFiles(website.name)) {
    const sha256 = sha256Of(content);
    const size = Buffer.byteLength(content);
    await stores.sourceFiles.putContent({ sha256, content, size }, now);
    await stores.sourceFiles.put({
      websiteId,
      path,
      sha256,
      size,
      updatedAt: now,
      updatedByType: principal.type,
      updatedById: principal.id,
    });
  }
}

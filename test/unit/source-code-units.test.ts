import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fsBlobStore, memoryBlobStore, sha256Hex } from "../../src/blobs/index.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { decodeContent } from "../../src/services/source-code/content.ts";
import { editScript, unifiedDiff } from "../../src/services/source-code/diff.ts";
import { limits } from "../../src/services/source-code/limits.ts";
import { normalizePath, normalizePrefix } from "../../src/services/source-code/paths.ts";
import { atOnceBound, timed } from "../support/timing.ts";

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { kind: error.kind, status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected an ApiError");
};

describe("source paths", () => {
  it("normalizes relative POSIX paths", () => {
    expect(normalizePath("path", "pages/index.tsx")).toBe("pages/index.tsx");
    expect(normalizePath("path", "./pages/./blog/[slug].tsx")).toBe("pages/blog/[slug].tsx");
    expect(normalizePath("path", "styles/cafe\u0301.css")).toBe("styles/caf\u00e9.css");
    expect(normalizePath("path", "free-form top/with space/é 👋.md")).toBe(
      "free-form top/with space/é 👋.md",
    );
    expect(normalizePrefix("prefix", "pages/")).toBe("pages/");
    expect(normalizePrefix("prefix", "./pages/ind")).toBe("pages/ind");
  });

  it.each([
    ["../secrets.txt", "'..'"],
    ["pages/../../etc/passwd", "'..'"],
    ["/etc/passwd", "relative"],
    ["pages\\index.tsx", "'/'"],
    ["C:/windows.txt", "drive letter"],
    ["pages//index.tsx", "empty segments"],
    ["pages/", "empty segments"],
    ["", "name a file"],
    [".", "name a file"],
    ["pages/a\u0000.tsx", "control characters"],
    ["pages/a\n.tsx", "control characters"],
    ["pages/a\u007f.tsx", "control characters"],
    ["pages/ a.tsx", "spaces"],
    ["pages/\ud800.tsx", "Unicode"],
    [`${"a/".repeat(256)}b`, `${limits.maxPathLength} characters`],
    [`${"x".repeat(256)}.md`, "bytes"],
  ])("refuses %j", (raw, why) => {
    const error = failure(() => normalizePath("files[2].path", raw));
    expect(error.kind).toBe("validation");
    expect(error.message).toMatch(/^files\[2\]\.path: /);
    expect(error.message).toContain(why);
  });
});

describe("source contents", () => {
  it("measures UTF-8 text and hashes its bytes", () => {
    const text = "héllo ☕\n";
    expect(decodeContent("content", text, "utf8")).toStrictEqual({
      content: text,
      size: Buffer.byteLength(text),
      sha256: sha256Hex(Buffer.from(text)),
    });
    const b64 = Buffer.from(text).toString("base64");
    expect(decodeContent("content", b64, "base64")).toStrictEqual(decodeContent("content", text, "utf8"));
    expect(decodeContent("content", "", "utf8").size).toBe(0);
    // A byte-order mark is kept, byte for byte.
    expect(decodeContent("c", Buffer.from("\ufeffx").toString("base64"), "base64").content).toBe("\ufeffx");
  });

  it("refuses binary content, NUL characters and unpaired surrogates", () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]).toString("base64");
    for (const [raw, encoding] of [
      [png, "base64"],
      ["a\u0000b", "utf8"],
      [Buffer.from("a\u0000b").toString("base64"), "base64"],
      ["\udc00 lone", "utf8"],
      ["not base64!", "base64"],
    ] as const) {
      const error = failure(() => decodeContent("content", raw, encoding));
      expect(error).toMatchObject({ kind: "validation", status: 400 });
      expect(error.message).toMatch(/^content: /);
    }
  });

  it("refuses a file over 512 KiB with status 413, counting UTF-8 bytes", () => {
    expect(decodeContent("c", "a".repeat(limits.maxFileBytes), "utf8").size).toBe(512 * 1024);
    const over = failure(() => decodeContent("c", "a".repeat(limits.maxFileBytes + 1), "utf8"));
    expect(over).toMatchObject({ kind: "validation", status: 413 });
    expect(over.message).toContain("512 KiB");
    // 200,000 characters of 3 bytes each: 600,000 bytes.
    expect(failure(() => decodeContent("c", "☕".repeat(200_000), "utf8")).status).toBe(413);
  });
});

describe("line diffs", () => {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-diff-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const words = ["a", "b", "c", "", "x y", "}"];
  const generate = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join("\n") +
    (random() < 0.5 ? "\n" : "");
  const mutate = (text: string) => {
    const lines = text.split("\n");
    for (let i = 0; i < 1 + random() * 5; i++) {
      const at = Math.floor(random() * (lines.length + 1));
      const r = random();
      if (r < 0.4) lines.splice(at, 1);
      else if (r < 0.8) lines.splice(at, 0, words[Math.floor(random() * words.length)]!);
      else lines[at] = "changed";
    }
    return lines.join("\n");
  };
  const apply = (before: string, patch: string) => {
    const repo = mkdtempSync(join(dir, "r-"));
    execFileSync("git", ["init", "-q", repo]);
    writeFileSync(join(repo, "f.txt"), before);
    writeFileSync(join(repo, "p.diff"), patch);
    execFileSync("git", ["apply", "--unidiff-zero", "p.diff"], { cwd: repo, stdio: "pipe" });
    return readFileSync(join(repo, "f.txt"), "utf8");
  };

  it("prints the unified format", () => {
    expect(unifiedDiff("a.txt", "one\ntwo\nthree\n", "one\n2\nthree\n")).toBe(
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
    );
    expect(unifiedDiff("new.md", undefined, "hi\n")).toBe(
      "--- /dev/null\n+++ b/new.md\n@@ -0,0 +1 @@\n+hi\n",
    );
    expect(unifiedDiff("old.md", "bye", undefined)).toBe(
      "--- a/old.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n\\ No newline at end of file\n",
    );
    expect(unifiedDiff("same", "x\n", "x\n")).toBe("");
    expect(unifiedDiff("eol", "x", "x\n")).toBe(
      "--- a/eol\n+++ b/eol\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n",
    );
  });

  it("joins nearby changes into one hunk and splits distant ones", () => {
    const before = `${Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n")}\n`;
    const after = before.replace("line 2\n", "line two\n").replace("line 25\n", "line twenty-five\n");
    const hunks = unifiedDiff("f", before, after)
      .split("\n")
      .filter((l) => l.startsWith("@@"));
    expect(hunks).toStrictEqual(["@@ -1,6 +1,6 @@", "@@ -23,7 +23,7 @@"]);
    // Six unchanged lines between two changes (2 × 3 of context) still make one hunk.
    const near = before.replace("line 2\n", "two\n").replace("line 9\n", "nine\n");
    expect(
      unifiedDiff("f", before, near)
        .split("\n")
        .filter((l) => l.startsWith("@@")),
    ).toStrictEqual(["@@ -1,13 +1,13 @@"]);
  });

  it("produces patches that git applies exactly, and minimal ones", () => {
    for (let i = 0; i < 150; i++) {
      const before = random() < 0.1 ? "" : generate(Math.floor(random() * 30));
      const after = random() < 0.3 ? generate(Math.floor(random() * 30)) : mutate(before);
      const patch = unifiedDiff("f.txt", before, after, Math.floor(random() * 4));
      if (before === after) {
        expect(patch).toBe("");
        continue;
      }
      expect(apply(before, patch)).toBe(after);
    }
  });

  it("stays correct when the edit budget runs out (patience split, then replace)", async () => {
    const intern = (text: string) => text.split("\n").map((line) => line.charCodeAt(0) * 1000 + line.length);
    for (let i = 0; i < 200; i++) {
      const a = intern(generate(Math.floor(random() * 40)));
      const b = intern(random() < 0.5 ? generate(Math.floor(random() * 40)) : mutate(generate(20)));
      const ops = editScript(a, b, 2);
      const rebuilt: number[] = [];
      let ai = 0;
      let bi = 0;
      for (const op of ops) {
        if (op === " ") {
          expect(a[ai]).toBe(b[bi]);
          rebuilt.push(a[ai++]!);
          bi++;
        } else if (op === "-") ai++;
        else rebuilt.push(b[bi++]!);
      }
      expect([ai, bi]).toStrictEqual([a.length, b.length]);
      expect(rebuilt).toStrictEqual(b);
    }
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const changed = lines.map((line, i) => (i % 10 === 0 ? `${line}!` : line));
    // Linear, not quadratic: a tenth of the lines, diffed first, is the baseline of this machine in this run.
    const tenth = (list: string[]) => `${list.slice(0, 2_000).join("\n")}\n`;
    const small = await timed(() => unifiedDiff("f.txt", tenth(lines), tenth(changed)));
    const { value: patch, ms } = await timed(() =>
      unifiedDiff("f.txt", `${lines.join("\n")}\n`, `${changed.join("\n")}\n`),
    );
    expect(ms).toBeLessThan(atOnceBound(small.ms, 5_000, 50));
    expect(patch.split("\n").filter((l) => l.startsWith("-line")).length).toBe(2_000);
    expect(apply(`${lines.join("\n")}\n`, patch)).toBe(`${changed.join("\n")}\n`);
  });
});

describe("blob stores", () => {
  const root = mkdtempSync(join(tmpdir(), "sitewright-blobs-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  for (const [name, make] of [
    ["filesystem", () => fsBlobStore(root)],
    ["memory", () => memoryBlobStore()],
  ] as const) {
    it(`${name}: stores bytes under their sha256, once`, async () => {
      const blobs = make();
      const bytes = new Uint8Array([0, 1, 2, 255, 10, 13]);
      const sha = await blobs.put(bytes);
      expect(sha).toBe(sha256Hex(bytes));
      expect(await blobs.has(sha)).toBe(true);
      expect(await blobs.get(sha)).toStrictEqual(bytes);
      expect(await blobs.put(bytes)).toBe(sha);
      expect(await blobs.get(sha256Hex(new Uint8Array([9])))).toBeUndefined();
      expect(await blobs.has(sha256Hex(new Uint8Array([9])))).toBe(false);
      expect(await blobs.get("../../etc/passwd")).toBeUndefined();
      const empty = await blobs.put(new Uint8Array());
      expect(await blobs.get(empty)).toStrictEqual(new Uint8Array());
    });
  }

  it("filesystem: lays blobs out as <root>/<aa>/<sha256>, leaves no temporary files, survives concurrent puts", async () => {
    const blobs = fsBlobStore(root);
    const bytes = Buffer.from("hello blob");
    const shas = await Promise.all(Array.from({ length: 8 }, () => blobs.put(bytes)));
    const sha = shas[0]!;
    expect(new Set(shas)).toStrictEqual(new Set([sha]));
    expect(readFileSync(join(root, sha.slice(0, 2), sha), "utf8")).toBe("hello blob");
    expect(readdirSync(join(root, sha.slice(0, 2))).filter((name) => name.endsWith(".tmp"))).toStrictEqual(
      [],
    );
    // A second store over the same root sees it.
    expect(await fsBlobStore(root).get(sha)).toStrictEqual(new Uint8Array(bytes));
  });

  it("lists and removes only blobs last put before a time; a put marks a present blob as put now", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitewright-sweep-"));
    let clock = 1_000_000;
    const stores = [
      {
        name: "filesystem",
        blobs: fsBlobStore(dir),
        age: (sha: string, at: number) => {
          utimesSync(join(dir, sha.slice(0, 2), sha), at / 1000, at / 1000);
        },
      },
      { name: "memory", blobs: memoryBlobStore(() => clock), age: () => undefined },
    ];
    try {
      for (const { name, blobs, age } of stores) {
        const put = async (text: string, at: number) => {
          clock = at;
          const sha = await blobs.put(new TextEncoder().encode(text));
          age(sha, at);
          return sha;
        };
        const [old, recent] = [await put("old", 1_000_000), await put("recent", 3_000_000)];
        const stale = async (before: number) => {
          const names: string[] = [];
          for await (const page of blobs.listStale(before)) names.push(...page);
          return names;
        };
        expect(await stale(2_000_000), name).toStrictEqual([old]);
        expect((await stale(4_000_000)).sort(), name).toStrictEqual([old, recent].sort());
        expect(await blobs.removeStale(recent, 2_000_000), name).toBe(false);
        // Put again after the cutoff: no longer stale, and not removed.
        await put("old", 2_500_000);
        expect(await blobs.removeStale(old, 2_000_000), name).toBe(false);
        expect(await blobs.has(old), name).toBe(true);
        expect(await blobs.removeStale(old, Number.MAX_SAFE_INTEGER), name).toBe(true);
        expect(await blobs.has(old), name).toBe(false);
        expect(await blobs.removeStale(old, Number.MAX_SAFE_INTEGER), name).toBe(false);
        expect(await blobs.removeStale("../../etc/passwd", Number.MAX_SAFE_INTEGER), name).toBe(false);
      }
      // The filesystem store leaves nothing aside.
      expect(
        readdirSync(dir)
          .flatMap((folder) => readdirSync(join(dir, folder)))
          .filter((f) => f.startsWith(".")),
      ).toStrictEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

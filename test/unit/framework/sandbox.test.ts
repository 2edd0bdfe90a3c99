import { afterAll, describe, expect, it } from "vitest";
import { closeSandboxPool, sandboxPool } from "../../../src/framework/sandbox/pool.ts";
import { atOnceBound, timed } from "../../support/timing.ts";
import { build, buildErrors, page, simplePage } from "./helpers.ts";

afterAll(closeSandboxPool);

/** A draft whose page runs `body` while rendering. */
const attack = (body: string) => ({
  "pages/index.tsx": `export default function Home() {\n${body}\n  return <p>rendered</p>;\n}\n`,
});

/** Runs `work` while a main-thread timer ticks every 10 ms; returns the result and the number of ticks. */
async function whileTicking<T>(work: () => Promise<T>): Promise<{ result: T; ticks: number; ms: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  try {
    const result = await work();
    return { result, ticks, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

describe("sandbox escapes", () => {
  const cases: [string, string, RegExp][] = [
    [
      "Function constructor to process",
      '  const p = constructor.constructor("return process")();\n  p.exit(1);',
      /^ReferenceError: process is not defined: website code runs in a sandbox without Node\.js/,
    ],
    [
      "globalThis.process",
      "  globalThis.process.exit(1);",
      /^TypeError: cannot read property 'exit' of undefined/,
    ],
    ["bare process", "  process.exit(1);", /^ReferenceError: process is not defined/],
    [
      "require",
      '  const r = eval("require");\n  r("fs");',
      /^ReferenceError: require is not defined: use import/,
    ],
    [
      "fetch",
      '  fetch("http://127.0.0.1/");',
      /^ReferenceError: fetch is not defined: pages render without network access/,
    ],
    [
      "setTimeout",
      "  setTimeout(() => {}, 0);",
      /^ReferenceError: setTimeout is not defined: pages render synchronously/,
    ],
    [
      "dynamic import of a computed name",
      '  const name = "node:" + "fs";\n  import(name).then(() => {});\n  throw new Error("import() returned: " + typeof import(name));',
      /^Error: import\(\) returned: object/,
    ],
  ];
  for (const [name, body, message] of cases) {
    it(`fails the build with a clear diagnostic: ${name}`, async () => {
      const errors = await buildErrors(attack(body));
      expect(errors).toHaveLength(1);
      expect(errors[0]!.file).toBe("pages/index.tsx");
      expect(errors[0]!.line).toBeGreaterThanOrEqual(2);
      expect(errors[0]!.message).toMatch(message);
    });
  }

  it("exposes no host object to website code", async () => {
    const result = await build(
      attack(`  const names = Object.getOwnPropertyNames(globalThis).filter((n) => !/^[A-Z]/.test(n) || n === "WebAssembly").sort();
  const probe = [typeof process, typeof module, typeof fetch, typeof setTimeout, typeof Deno, typeof Bun, typeof std, typeof os, typeof WebAssembly].join(",");
  if (names.join(",") !== "") console.log(names.join(","));
  console.log(probe);`),
    );
    expect(result.warnings.map((w) => w.message).join("\n")).toContain(
      "console.log: undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined",
    );
    const globals = result.warnings[0]!.message;
    // Only the language's own globals, the console shim and the render channel.
    expect(globals).toBe(
      "console.log: __sitewright,console,decodeURI,decodeURIComponent,encodeURI,encodeURIComponent,escape,eval,globalThis,isFinite,isNaN,parseFloat,parseInt,undefined,unescape",
    );
  });

  it("lets require(name) fail: only esbuild's shim exists, and it refuses", async () => {
    const errors = await buildErrors(attack('  const name = "f" + "s";\n  require(name);'));
    expect(errors[0]!.message).toMatch(/^Error: Dynamic require of "fs" is not supported/);
  });

  it("keeps one page from changing CMS data seen by the next", async () => {
    const errors = await buildErrors(
      {
        "pages/index.tsx": `import { cms } from "sitewright:cms";
export default function A() {
  const item = cms.get("posts", "a");
  item.values.title = "changed";
  return <p>{item.values.title}</p>;
}
`,
      },
      {
        cms: { collections: () => ["posts"], list: () => [{ slug: "a", values: { title: "original" } }] },
      },
    );
    expect(errors[0]).toMatchObject({ file: "pages/index.tsx", line: 4 });
    expect(errors[0]!.message).toMatch(/^TypeError: .*read-only/);
  });
});

describe("untrusted render output", () => {
  it("re-checks the routes the guest returns", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": `const original = JSON.stringify;
JSON.stringify = (value) =>
  value && value.pages ? '{"pages":[{"file":"pages/index.tsx","route":"/../../etc/"}],"problems":[]}' : original(value);
export default function A() { return <h1>x</h1>; }
`,
    });
    expect(errors).toEqual([
      {
        file: "pages/index.tsx",
        line: 0,
        column: 0,
        message: "the route /../../etc/ is not a valid URL path.",
      },
    ]);
  });

  it("fails the build when the guest answers garbage", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": 'JSON.stringify = () => "{";\nexport default function A() { return <h1>x</h1>; }\n',
    });
    expect(errors).toEqual([
      {
        file: "(render)",
        line: 0,
        column: 0,
        message: "the render sandbox stopped unexpectedly: the render returned output that is not JSON",
      },
    ]);
  });
});

describe("sandbox limits", () => {
  /** A build of a plain page: what a build costs on this machine in this run (for load-scaled bounds). */
  const baselineMs = async () => (await timed(() => build({ "pages/index.tsx": simplePage("Quick") }))).ms;

  it("stops an endless loop at the time limit while the main thread keeps running", async () => {
    const baseline = await baselineMs();
    const { result, ticks, ms } = await whileTicking(() =>
      buildErrors(attack("  while (true) {}"), { limits: { timeLimitMs: 1000 } }),
    );
    expect(result).toEqual([
      {
        file: "pages/index.tsx",
        line: expect.any(Number),
        column: expect.any(Number),
        message: "render exceeded the time limit of 1000 ms (an endless loop?) (while rendering /)",
      },
    ]);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(1000 + atOnceBound(baseline, 7_000));
    // A 10 ms timer on the main thread kept firing while the sandbox spun (a blocked loop would give ~0).
    expect(ticks).toBeGreaterThan(Math.max(5, ms / 10 / 8));
  });

  it("stops an endless loop with the default limit message naming the limit", async () => {
    const errors = await buildErrors(attack("  for (;;) { Math.random(); }"), {
      limits: { timeLimitMs: 300 },
    });
    expect(errors[0]!.message).toContain("render exceeded the time limit of 300 ms");
  });

  it("terminates a worker stuck in one long native call after the hard timeout", async () => {
    const baseline = await baselineMs();
    const { result, ticks, ms } = await whileTicking(() =>
      buildErrors(attack('  new Array(2 ** 32 - 1).join("");'), { limits: { timeLimitMs: 200 } }),
    );
    expect(result).toHaveLength(1);
    expect(result[0]!.file).toBe("pages/index.tsx");
    expect(result[0]!.message).toBe(
      "render exceeded the time limit of 200 ms (an endless loop?) (while rendering /)",
    );
    expect(ms).toBeLessThan(atOnceBound(baseline, 10_000));
    expect(ticks).toBeGreaterThan(Math.max(5, ms / 10 / 8));
  });

  it("stops a memory bomb at the memory limit", async () => {
    const { result, ticks, ms } = await whileTicking(() =>
      buildErrors(attack("  const a = [];\n  for (;;) a.push(new Array(1e6).fill(1));"), {
        limits: { memoryLimitBytes: 32 * 1024 * 1024, timeLimitMs: 20_000 },
      }),
    );
    expect(result).toEqual([
      {
        file: "pages/index.tsx",
        line: 3,
        column: expect.any(Number),
        message: "render exceeded the memory limit of 32 MiB (while rendering /)",
      },
    ]);
    expect(ticks).toBeGreaterThan(Math.max(5, ms / 10 / 8));
  });

  it("stops a memory bomb of strings and one of objects", async () => {
    const strings = await buildErrors(
      attack('  let s = "x";\n  const keep = [];\n  for (;;) { s = s + s; keep.push(s); }'),
    );
    expect(strings[0]!.message).toMatch(
      /^(render exceeded the memory limit of 64 MiB|RangeError: invalid string length|InternalError: string too long)/,
    );
    const objects = await buildErrors(attack("  const a = [];\n  for (;;) a.push({ a: 1, b: [1, 2, 3] });"), {
      limits: { timeLimitMs: 20_000 },
    });
    expect(objects[0]!.message).toBe("render exceeded the memory limit of 64 MiB (while rendering /)");
  });

  it("stops endless recursion at the stack limit", async () => {
    const errors = await buildErrors({
      "pages/index.tsx":
        "function down(n: number): number {\n  return down(n + 1) + 1;\n}\nexport default function A() {\n  return <p>{down(0)}</p>;\n}\n",
    });
    expect(errors).toEqual([
      {
        file: "pages/index.tsx",
        line: 2,
        column: expect.any(Number),
        message: "render exceeded the stack size limit of 1 MiB (endless recursion?) (while rendering /)",
      },
    ]);
  });

  it("renders deep component trees well within the stack limit", async () => {
    const result = await build({
      "pages/index.tsx":
        "function Nest({ n }) { return n ? <div><Nest n={n - 1} /></div> : <b>deep</b>; }\nexport default function A() { return <Nest n={300} />; }\n",
    });
    expect(page(result, "/")).toContain(`${"<div>".repeat(300)}<b>deep</b>`);
  });

  it("stops a component that renders itself forever", async () => {
    const errors = await buildErrors({
      "pages/index.tsx":
        "function Loop() {\n  return <div><Loop /></div>;\n}\nexport default function A() {\n  return <Loop />;\n}\n",
    });
    expect(errors[0]!.message).toMatch(/render exceeded the stack size limit/);
  });

  it("limits the number of pages and the size of one page", async () => {
    const many = await buildErrors(
      {
        "pages/[n].tsx":
          "export const paths = () => Array.from({ length: 20 }, (_, i) => ({ params: { n: String(i) } }));\nexport default function P() { return <p />; }\n",
      },
      { limits: { maxPages: 10 } },
    );
    expect(many[0]!.message).toBe("the routes produce 20 pages; one build renders at most 10");
    const big = await buildErrors(
      { "pages/index.tsx": 'export default function P() { return <p>{"x".repeat(5000)}</p>; }\n' },
      { limits: { maxPageBytes: 1024 } },
    );
    expect(big).toEqual([
      {
        file: "pages/index.tsx",
        line: 0,
        column: 0,
        message: "the page is 5 KiB of HTML; a page is at most 1 KiB (while rendering /)",
      },
    ]);
  });

  it("recovers after limit hits: the next build of a good draft succeeds", async () => {
    await buildErrors(attack("  while (true) {}"), { limits: { timeLimitMs: 200 } });
    const result = await build({ "pages/index.tsx": simplePage("After") });
    expect(page(result, "/")).toContain("<h1>After</h1>");
  });

  it("runs builds of several organizations in parallel on at most two workers", async () => {
    const drafts = Array.from({ length: 5 }, (_, i) => ({ "pages/index.tsx": simplePage(`Site ${i}`) }));
    const results = await Promise.all([
      ...drafts.map((d, i) => build(d, { organizationId: `org_${i % 3}` })),
      buildErrors(attack("  while (true) {}"), { organizationId: "org_3", limits: { timeLimitMs: 500 } }),
    ]);
    for (let i = 0; i < 5; i++) {
      expect(page(results[i] as Awaited<ReturnType<typeof build>>, "/")).toContain(`<h1>Site ${i}</h1>`);
    }
    expect(sandboxPool().size).toBeLessThanOrEqual(2);
  });
});

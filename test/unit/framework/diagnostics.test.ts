import { afterAll, describe, expect, it } from "vitest";
import { closeSandboxPool } from "../../../src/framework/sandbox/pool.ts";
import { ApiError } from "../../../src/kernel/errors.ts";
import { build, buildErrors, simplePage } from "./helpers.ts";

afterAll(closeSandboxPool);

describe("build diagnostics", () => {
  it("reports a TSX syntax error at its file, line and column as a validation error", async () => {
    const error = await build({
      "pages/index.tsx":
        "export default function Home() {\n  return (\n    <main>\n      <h1>Hi</h2>\n    </main>\n  );\n}\n",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const body = (error as ApiError).toBody();
    expect(body.kind).toBe("validation");
    expect(body.message).toMatch(/^The website failed to build: pages\/index\.tsx:4:/);
    expect(body.suggestion).toContain("line and column are 1-based");
    expect(body.details).toEqual([
      {
        file: "pages/index.tsx",
        line: 4,
        column: 15,
        message:
          'Unexpected closing "h2" tag does not match opening "h1" tag; the opening "h1" tag is at line 4, column 8',
      },
    ]);
  });

  it("reports every broken file of a draft at once", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": "export default function A() { return <p>; }\n",
      "pages/about.tsx": "export default function B() {\n  const x = ;\n}\n",
    });
    expect(errors.map((e) => e.file)).toEqual(expect.arrayContaining(["pages/about.tsx", "pages/index.tsx"]));
    expect(errors.find((e) => e.file === "pages/about.tsx")).toMatchObject({ line: 2, column: 13 });
  });

  it("reports an unresolved import at the import", async () => {
    const errors = await buildErrors({
      "pages/index.tsx":
        'import Header from "../components/Header";\nexport default function A() { return <Header />; }\n',
      "components/Footer.tsx": "export default function Footer() { return <footer />; }\n",
    });
    expect(errors).toEqual([
      {
        file: "pages/index.tsx",
        line: 1,
        column: 20,
        message: 'Could not resolve "../components/Header": no such file in the website.',
      },
    ]);
  });

  it("resolves imports with and without extensions, index files and site-absolute paths", async () => {
    const result = await build({
      "pages/index.tsx": `import A from "../components/A";
import B from "/components/B.tsx";
import C from "../components/c";
import data from "../data/site.json";
import { twice } from "../lib/util.ts";
import logo from "../public/logo.svg";
export default function Page() { return <main><A /><B /><C /><p>{data.name} {twice(21)}</p><div dangerouslySetInnerHTML={{ __html: logo }} /></main>; }
`,
      "components/A.tsx": "export default function A() { return <i>a</i>; }",
      "components/B.tsx": "export default function B() { return <i>b</i>; }",
      "components/c/index.jsx": "export default function C() { return <i>c</i>; }",
      "data/site.json": '{ "name": "Site" }',
      "lib/util.ts": "export const twice = (n: number): number => n * 2;",
      "public/logo.svg": '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    });
    expect(result.pages[0]!.html).toContain(
      '<main><i>a</i><i>b</i><i>c</i><p>Site 42</p><div><svg xmlns="http://www.w3.org/2000/svg"></svg></div></main>',
    );
  });

  it("refuses Node.js modules and unknown packages at bundle time, naming file and line", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": simplePage(),
      "pages/a.tsx":
        'import fs from "node:fs";\nexport default function A() { return <p>{String(fs)}</p>; }\n',
      "pages/b.tsx":
        'import { exec } from "child_process";\nexport default function B() { return <p>{String(exec)}</p>; }\n',
      "pages/c.tsx": '\nimport fs from "fs";\nexport default function C() { return <p>{String(fs)}</p>; }\n',
      "pages/d.tsx": 'import _ from "lodash";\nexport default function D() { return <p>{String(_)}</p>; }\n',
      "pages/e.tsx":
        'export default function E() {\n  const fs = require("fs");\n  return <p>{String(fs)}</p>;\n}\n',
      "pages/f.tsx": 'export default async function F() {\n  await import("node:fs");\n  return <p />;\n}\n',
      "pages/g.tsx":
        'import x from "https://example.com/x.js";\nexport default function G() { return <p>{x}</p>; }\n',
    });
    const byFile = Object.fromEntries(errors.map((e) => [e.file, e]));
    expect(byFile["pages/a.tsx"]).toMatchObject({ line: 1, column: 16 });
    expect(byFile["pages/a.tsx"]!.message).toBe(
      '"node:fs" is a Node.js module: pages render in a sandbox without file system, network or process access.',
    );
    expect(byFile["pages/b.tsx"]!.message).toContain('"child_process" is a Node.js module');
    expect(byFile["pages/c.tsx"]).toMatchObject({ line: 2, column: 16 });
    expect(byFile["pages/d.tsx"]!.message).toContain('Package "lodash" is not available');
    expect(byFile["pages/e.tsx"]).toMatchObject({ line: 2, column: 22 });
    expect(byFile["pages/e.tsx"]!.message).toContain('"fs" is a Node.js module');
    expect(byFile["pages/f.tsx"]).toMatchObject({ line: 2, column: 16 });
    expect(byFile["pages/g.tsx"]!.message).toContain("cannot be imported");
  });

  it("reports broken CSS at its line", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": simplePage(),
      "styles/ok.css": "body { color: red; }\n",
      "styles/broken.css": ".a { color: red; }\n.b { color: blue;\n\n",
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: "styles/broken.css", line: 4 });
    expect(errors[0]!.message).toContain('Expected "}" to go with "{"');
  });

  it("reports a JavaScript comment in CSS, and CSS imported from a component", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": 'import "./page.css";\n' + simplePage(),
      "pages/page.css": "// not a CSS comment\n.a { color: red }\n",
    });
    expect(errors[0]).toMatchObject({ file: "pages/page.css", line: 1, column: 1 });
  });

  it("maps a render-time exception back to the line that threw", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": simplePage(),
      "components/Card.tsx": `interface CardProps { title: string }
export default function Card({ title }: CardProps) {
  const words = title.split(" ");
  if (words.length > 1) {
    throw new Error("titles are one word");
  }
  return <h2>{title}</h2>;
}
`,
      "pages/cards.tsx": `import Card from "../components/Card";
export default function Cards() {
  return <main><Card title="Two words" /></main>;
}
`,
    });
    expect(errors).toEqual([
      {
        file: "components/Card.tsx",
        line: 5,
        column: 15,
        message: "Error: titles are one word (while rendering /cards/)",
      },
    ]);
  });

  it("reports a TypeError of undefined data and a missing default export", async () => {
    const errors = await buildErrors({
      "pages/index.tsx":
        "export default function A({ props }) {\n  return <p>{props.missing.value}</p>;\n}\n",
      "pages/empty.tsx": "export const head = { title: 'x' };\n",
    });
    expect(errors[0]).toMatchObject({ file: "pages/empty.tsx" });
    expect(errors[0]!.message).toContain("the page has no component: add export default function Page()");
    expect(errors[1]).toMatchObject({ file: "pages/index.tsx", line: 2 });
    expect(errors[1]!.message).toMatch(
      /^TypeError: cannot read property 'value' of undefined \(while rendering \/\)$/,
    );
  });

  it("reports an exception thrown while the modules load", async () => {
    const errors = await buildErrors({
      "pages/index.tsx":
        'const config = JSON.parse("{oops");\nexport default function A() { return <p>{config}</p>; }\n',
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: "pages/index.tsx", line: 1 });
    expect(errors[0]!.message).toContain("SyntaxError");
  });

  it("refuses public files at reserved paths and pages colliding with public files", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": simplePage(),
      "pages/about.tsx": simplePage(),
      "public/_assets/x.css": "a{}",
      "public/about/index.html": "<p>static</p>",
    });
    expect(errors).toEqual([
      {
        file: "public/_assets/x.css",
        line: 0,
        column: 0,
        message: "/_assets/ is reserved for the platform; move this file elsewhere in public/.",
      },
    ]);
    const collision = await buildErrors({
      "pages/index.tsx": simplePage(),
      "pages/about.tsx": simplePage(),
      "public/about/index.html": "<p>static</p>",
    });
    expect(collision).toEqual([
      {
        file: "public/about/index.html",
        line: 0,
        column: 0,
        message: "pages/about.tsx renders the same path; keep one.",
      },
    ]);
  });

  it("refuses paths that are not normalized", async () => {
    const errors = await buildErrors({ "../etc/passwd": "x", "pages/index.tsx": simplePage() });
    expect(errors[0]).toMatchObject({ file: "../etc/passwd" });
  });
});

import { describe, expect, it } from "vitest";
import { htmlToText } from "../../src/services/context/html-text.ts";
import { findPassages, pageAt, searchTerms } from "../../src/services/context/passages.ts";

describe("context text", () => {
  it("turns HTML into readable text, dropping what is not text", () => {
    expect(
      htmlToText(
        "<title>T</title><style>a{}</style><p>One &amp; <b>two</b>&#x21;</p><!-- c --><SCRIPT>x()</SCRIPT ><li>three&nbsp;four</li>",
      ),
    ).toBe("T\n\nOne & two!\n\nthree four");
    // An unclosed script or comment drops the rest; stray angle brackets are not tags.
    expect(htmlToText("<p>kept</p><script>lost")).toBe("kept");
    expect(htmlToText("a < b <<< c > d <!-- never closed")).toBe("a < b <<< c > d");
    // Pathological input stays linear: many unclosed openers.
    expect(htmlToText("<script".repeat(50_000))).toBe("");
    expect(htmlToText("<".repeat(200_000)).length).toBe(200_000);
  });

  it("finds passages with their offsets and PDF pages", () => {
    expect(searchTerms("Brand, COLOURS; brand!? ")).toEqual(["brand", "colours"]);
    expect(searchTerms("!!")).toEqual([]);
    const text = `${"x ".repeat(500)}the brand colours are teal${" y".repeat(500)} brand again`;
    const [best, next] = findPassages(text, ["brand", "colours"], 3);
    expect(text.slice(best!.offset, best!.offset + best!.text.length)).toBe(best!.text);
    expect(best!.text).toContain("brand colours are teal");
    expect(best!.score).toBe(2);
    expect(next!.text).toContain("brand again");
    expect(findPassages("branding only", ["brand"], 3)).toEqual([]);
    expect(pageAt([0, 10, 20], 15)).toBe(2);
    expect(pageAt([0, 10, 20], 25)).toBe(3);
    expect(pageAt(null, 5)).toBeNull();
  });
});

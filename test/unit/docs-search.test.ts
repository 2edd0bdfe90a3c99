import { describe, expect, it } from "vitest";
import { docsIndexOf, parseDocPage, productDocs } from "../../src/docs/index.ts";
import { createDocsSearch, productDocsSearch, termsOf } from "../../src/docs/search.ts";

// Questions as an agent asks them, each with the page whose section should answer it.
const questions: [question: string, page: string][] = [
  ["how do I publish a website", "publishing"],
  ["how do rate limits work", "rate-limits"],
  ["what roles can edit CMS items", "cms"],
  ["how do I roll back to an earlier deployment", "publishing"],
  ["what does a 429 response mean and when can I retry", "rate-limits"],
  ["how do I create an API key scoped to one website", "authentication-and-keys"],
  ["how do I rotate or revoke a key", "authentication-and-keys"],
  ["why do I get 404 instead of 403", "api-contract"],
  ["how does pagination with cursors work", "pagination"],
  ["how do I upload an image asset", "assets"],
  ["import an asset from a URL", "assets"],
  ["what is the edit lease and how do I acquire it", "source-code"],
  ["how do I avoid overwriting someone else's edit with expectedSha256", "source-code"],
  ["how do I write a page with a layout", "framework"],
  ["how do I read CMS items in a page", "cms"],
  ["how do I invite a member to my organization", "organizations"],
  ["what happens when the build fails", "publishing"],
  ["how do I connect Claude Code over MCP", "connecting-mcp-clients"],
  ["how do I sign in with OAuth from an MCP client", "connecting-mcp-clients"],
  ["what does the audit log record", "audit-log"],
  ["what fields does the error body have", "errors"],
  ["how do I create a collection and add fields", "cms"],
  ["how do I query CMS items with filters", "cms"],
  ["how are visitors counted in analytics without cookies", "analytics"],
  ["how do I export analytics as CSV", "analytics"],
  ["how do I run Sitewright locally", "getting-started"],
  ["how do I reset my password", "accounts"],
  ["how is the live site cached and compressed", "hosting"],
  ["how do I share a draft preview link", "hosting"],
  ["what limits apply to the build sandbox", "security"],
  ["how do I add a website editor who is not a member", "organizations"],
  ["step by step guide to build and publish a site", "guide-build-and-publish"],
  ["how do I search the documentation", "documentation"],
];

describe("documentation search", () => {
  it.each(questions)("%s → %s in the top 3", (question, page) => {
    const hits = productDocsSearch().search(question, 3);
    expect(hits.map((hit) => hit.page)).toContain(page);
  });

  it("returns sections with their anchor, heading and a snippet holding a word searched for", () => {
    const [best] = productDocsSearch().search("how do I reset my password", 1);
    expect(best).toMatchObject({
      page: "accounts",
      anchor: "password-reset",
      pageTitle: productDocs().page("accounts")!.title,
    });
    expect(productDocs().section(best!.page, best!.anchor!)).toBeDefined();
    expect(best!.snippet.toLowerCase()).toMatch(/password/);
    expect(best!.snippet.length).toBeLessThanOrEqual(245);
  });

  it("ranks by relevance, folds plurals and verb endings, and finds nothing for stop words alone", () => {
    expect(termsOf("Publishing published publishes")).toEqual(["publish", "publish", "publish"]);
    expect(termsOf("Deployments queries")).toEqual(["deployment", "query"]);
    const docs = docsIndexOf([
      parseDocPage(
        "a",
        "# Alpha\n\nIntro.\n\n## Gardens\n\nGardening with gardens.\n\n## Other\n\nA garden once.\n",
      ),
      parseDocPage("b", "# Beta\n\nNothing about plants.\n"),
    ]);
    const hits = createDocsSearch(docs).search("garden", 5);
    expect(hits.map((hit) => hit.anchor)).toEqual(["gardens", "other"]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(createDocsSearch(docs).search("how is the what", 5)).toEqual([]);
  });

  it("does not read headings inside fenced code as sections of their own", () => {
    const docs = docsIndexOf([
      parseDocPage("c", "# C\n\n## Shell\n\n```sh\n# a comment about lanterns\n```\n"),
    ]);
    expect(createDocsSearch(docs).search("lanterns", 5)).toMatchObject([{ page: "c", anchor: "shell" }]);
  });
});

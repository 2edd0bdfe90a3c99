import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
import type { DocsIndex } from "../docs/index.ts";

const PREFIX = "sitewright://docs/";
/** The template of one section of a documentation page (RFC 6570; the section is the heading's anchor). */
export const SECTION_TEMPLATE = `${PREFIX}{page}#{section}`;
const MARKDOWN = "text/markdown";
/** The most values one completion answer carries (the protocol's cap). */
export const MAX_COMPLETIONS = 100;

/** `resources/list`: every page of the product documentation, as `sitewright://docs/<page>`. */
export function listDocResources(docs: DocsIndex) {
  return {
    resources: docs.pages.map((page) => ({
      uri: `${PREFIX}${page.name}`,
      name: page.name,
      title: page.title,
      description: page.description || page.title,
      mimeType: MARKDOWN,
      size: Buffer.byteLength(page.text),
    })),
  };
}

/** `resources/templates/list`: one section of a page. */
export function listDocTemplates() {
  return {
    resourceTemplates: [
      {
        uriTemplate: SECTION_TEMPLATE,
        name: "docs-section",
        title: "A section of a documentation page",
        description:
          "One section of a page of the Sitewright documentation: page is a name from resources/list (errors, cms, framework…), section the anchor of one of its headings (errors#kinds-and-statuses). Complete both with completion/complete.",
        mimeType: MARKDOWN,
      },
    ],
  };
}

/** `resources/read` of a page or of one section; anything else is the protocol's resource-not-found error. */
export function readDocResource(docs: DocsIndex, uri: string) {
  const match = /^sitewright:\/\/docs\/([A-Za-z0-9_-]+)(?:#([^#]+))?$/.exec(uri);
  const page = match ? docs.page(match[1]!) : undefined;
  if (!match || !page)
    throw new ResourceNotFoundError(uri, `No documentation at ${uri}; resources/list names every page.`);
  if (match[2] === undefined) return { contents: [{ uri, mimeType: MARKDOWN, text: page.text }] };
  const section = docs.section(page.name, decodeURIComponent(match[2]));
  if (!section) {
    throw new ResourceNotFoundError(
      uri,
      `The page ${page.name} has no section '${match[2]}'; complete the section argument of ${SECTION_TEMPLATE} to list them.`,
    );
  }
  return { contents: [{ uri, mimeType: MARKDOWN, text: section.text }] };
}

/** The answer of `completion/complete`: matching values first-come, at most 100, with the total. */
export function completionOf(values: readonly string[], typed: string) {
  const prefix = typed.toLowerCase();
  const starts = values.filter((value) => value.toLowerCase().startsWith(prefix));
  const contains = values.filter(
    (v) => !v.toLowerCase().startsWith(prefix) && v.toLowerCase().includes(prefix),
  );
  const matching = [...new Set([...starts, ...contains])];
  return {
    completion: {
      values: matching.slice(0, MAX_COMPLETIONS),
      total: matching.length,
      hasMore: matching.length > MAX_COMPLETIONS,
    },
  };
}

/** Completes the template's variables: page names, then (given `page`) the anchors of that page's sections. */
export function completeDocTemplate(
  docs: DocsIndex,
  argument: { name: string; value: string },
  context: Record<string, string> | undefined,
) {
  if (argument.name === "page")
    return completionOf(
      docs.pages.map((page) => page.name),
      argument.value,
    );
  if (argument.name === "section") {
    const page = context?.page ? docs.page(context.page) : undefined;
    return completionOf(page?.sections.map((section) => section.anchor) ?? [], argument.value);
  }
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `The template ${SECTION_TEMPLATE} has no variable '${argument.name}'; it has page and section.`,
  );
}

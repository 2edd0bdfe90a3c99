import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { callTool } from "../kernel/pipeline.ts";
import type { Platform } from "../kernel/platform.ts";
import type { Principal } from "../kernel/principal.ts";
import { completionOf } from "./docs-resources.ts";

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

/** One prompt: a task an agent does with the tools, written as the user's request. */
export interface SitewrightPrompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** Operation ids the task needs: the prompt is listed only to a credential that may call all of them. */
  needs: string[];
  text(args: Record<string, string>, website: WebsiteRef | undefined): string;
}

/** A website a prompt argument named, resolved among those the credential reaches. */
interface WebsiteRef {
  id: string;
  name: string;
}

const websiteArgument: PromptArgument = {
  name: "website",
  description: "The website: its id or its name (completion offers the websites this credential reaches).",
  required: true,
};

const target = (args: Record<string, string>, website: WebsiteRef | undefined) =>
  website
    ? `the website "${website.name}" (websiteId ${website.id})`
    : `the website "${args.website}" (find its websiteId with websites_list; ask me if several match)`;

export const prompts: readonly SitewrightPrompt[] = [
  {
    name: "build_and_publish_site",
    title: "Build and publish a website",
    description: "Create a new website from a description, write its pages, check the build and publish it.",
    arguments: [
      {
        name: "description",
        description: "What the site is for and what it should contain.",
        required: true,
      },
      { name: "name", description: "The website's name (a short title if omitted).", required: false },
    ],
    needs: ["websites.create", "websiteSourceCode.files.writeMany", "websiteSourceCode.head.publish"],
    text: (args) =>
      [
        `Build and publish a website on Sitewright${args.name ? ` named "${args.name}"` : ""}: ${args.description}`,
        "",
        "1. Read the resource sitewright://docs/framework to learn how pages, layouts, styles and routes are written.",
        `2. Create the website with websites_create${args.name ? ` (name "${args.name}")` : ""} and keep its websiteId.`,
        "3. Take the edit lease with website_source_code_lease_acquire; every write passes its leaseId.",
        "4. Write the pages, layout and styles in one call with website_source_code_files_write_many.",
        "5. Build without publishing with website_source_code_head_check; fix every diagnostic it reports and check again.",
        "6. Open website_source_code_preview_create_link's link to look at the draft, and show it to me.",
        "7. Publish with website_source_code_head_publish, release the lease with website_source_code_lease_release, and give me the live url.",
      ].join("\n"),
  },
  {
    name: "add_cms_blog",
    title: "Add a blog backed by the CMS",
    description:
      "Add a blog to an existing website: a CMS collection of posts, a list page and a page per post, then publish.",
    arguments: [
      websiteArgument,
      { name: "topic", description: "What the blog is about, for the first post.", required: false },
    ],
    needs: ["cms.collections.create", "cms.items.create", "websiteSourceCode.files.writeMany"],
    text: (args, website) =>
      [
        `Add a blog to ${target(args, website)}${args.topic ? `, about ${args.topic}` : ""}.`,
        "",
        "1. Read sitewright://docs/cms and the section sitewright://docs/framework#cms-content-sitewrightcms.",
        "2. Check cms_collections_list: reuse a blog collection if there is one.",
        "3. Otherwise create one with cms_collections_create (slug blog): fields title (text, required), summary (text), body (richText) and publishedAt (date).",
        "4. Write a first post with cms_items_create (publish: true when it is ready).",
        "5. Take the lease (website_source_code_lease_acquire) and write a list page and a dynamic page per post reading the collection through sitewright:cms, with website_source_code_files_write_many.",
        "6. Check the build with website_source_code_head_check, show me a website_source_code_preview_create_link link, then publish with website_source_code_head_publish and release the lease.",
      ].join("\n"),
  },
  {
    name: "review_before_publishing",
    title: "Review a website before publishing",
    description:
      "Review a website's unpublished changes: what changed, whether it builds, broken content; report before anything is published.",
    arguments: [websiteArgument],
    needs: ["websiteSourceCode.changes.list", "websiteSourceCode.files.diff", "websiteSourceCode.head.check"],
    text: (args, website) =>
      [
        `Review the unpublished draft of ${target(args, website)} before it is published. Change nothing.`,
        "",
        "1. List what changed against the live version with website_source_code_changes_list, and read the diffs with website_source_code_files_diff.",
        "2. Build the draft without publishing with website_source_code_head_check and collect every diagnostic.",
        "3. Look for draft CMS content that pages rely on with cms_collections_list and cms_items_list (status draft).",
        "4. Make a preview link with website_source_code_preview_create_link so I can look at the draft.",
        "5. Report: what changed, what fails or looks wrong (file and line), and whether it is ready to publish. Do not publish.",
      ].join("\n"),
  },
];

const byName = new Map(prompts.map((prompt) => [prompt.name, prompt]));

/** The prompts a credential may use: those whose every needed operation it `can` call. */
export function promptsFor(can: (operationId: string) => boolean): SitewrightPrompt[] {
  return prompts.filter((prompt) => prompt.needs.every(can));
}

/** `prompts/list`. */
export function listPrompts(visible: readonly SitewrightPrompt[]) {
  return {
    prompts: visible.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  };
}

const unknownPrompt = (name: string) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown prompt '${name}'; prompts/list names the prompts.`,
  );

/** A prompt by name among the visible ones, else the protocol's invalid-params error. */
export function promptNamed(visible: readonly SitewrightPrompt[], name: string): SitewrightPrompt {
  const prompt = byName.get(name);
  if (!prompt || !visible.includes(prompt)) throw unknownPrompt(name);
  return prompt;
}

/** The websites `principal` reaches (the first 100, newest first), through the call pipeline. */
export async function websitesOf(platform: Platform, principal: Principal, requestId: string) {
  const tool = platform.registry.byOperationId("websites.list")!;
  const output = (await callTool(
    platform,
    tool,
    { limit: 100 },
    { principal, transport: "mcp", requestId },
  )) as {
    items: WebsiteRef[];
  };
  return output.items;
}

/** `prompts/get`: the prompt's messages, its `website` argument resolved by id or exact name when it can be. */
export async function getPrompt(
  prompt: SitewrightPrompt,
  args: Record<string, string> | undefined,
  websites: () => Promise<WebsiteRef[]>,
) {
  const given = args ?? {};
  for (const argument of prompt.arguments) {
    if (argument.required && !given[argument.name]?.trim()) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The prompt ${prompt.name} needs the argument '${argument.name}': ${argument.description}`,
      );
    }
  }
  let website: WebsiteRef | undefined;
  if (given.website) {
    const wanted = given.website.trim();
    const list = await websites();
    website =
      list.find((w) => w.id === wanted) ??
      (list.filter((w) => w.name.toLowerCase() === wanted.toLowerCase()).length === 1
        ? list.find((w) => w.name.toLowerCase() === wanted.toLowerCase())
        : undefined);
  }
  return {
    description: prompt.description,
    messages: [
      { role: "user" as const, content: { type: "text" as const, text: prompt.text(given, website) } },
    ],
  };
}

/** Completes a prompt's argument: website names (and ids by prefix) for `website`; nothing for free text. */
export async function completePromptArgument(
  prompt: SitewrightPrompt,
  argument: { name: string; value: string },
  websites: () => Promise<WebsiteRef[]>,
) {
  if (!prompt.arguments.some((a) => a.name === argument.name)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `The prompt ${prompt.name} has no argument '${argument.name}'.`,
    );
  }
  if (argument.name !== "website") return completionOf([], argument.value);
  const list = await websites();
  const ids = argument.value ? list.map((w) => w.id).filter((id) => id.startsWith(argument.value)) : [];
  return completionOf([...list.map((w) => w.name), ...ids], argument.value);
}

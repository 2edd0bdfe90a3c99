import { ApiError } from "../kernel/errors.ts";
import type { Principal } from "../kernel/principal.ts";
import { defaultToolsets, isToolset, type Toolset, toolsets } from "../kernel/toolsets.ts";

/** What a connection asked to see, read from its MCP URL and headers. */
export interface ToolSelection {
  /**
   * The toolsets picked (`?toolsets=a,b` or `X-MCP-Toolsets: a,b`; `all` for every one): only their tools are listed
   * and callable. Undefined when none was picked: `tools/list` shows the default set, and the credential's other tools
   * stay callable by name.
   */
  toolsets: readonly Toolset[] | undefined;
  /** `?readonly=1`: only read-only tools are listed and callable. */
  readOnly: boolean;
  /** `?tools=discover`: `tools/list` shows the meta-tools of discovery mode, which reach every callable tool. */
  discover: boolean;
}

const truthy = new Set(["1", "true", "yes"]);
const flags = new Set([...truthy, "0", "false", "no"]);

/** The selection of a request that asks for none (most clients: no query, no `X-MCP-Toolsets`). */
const NO_SELECTION: ToolSelection = Object.freeze({ toolsets: undefined, readOnly: false, discover: false });

/** Reads the selection of an MCP request; an unknown toolset or mode is a validation error naming the valid values. */
export function selectionOf(request: Request): ToolSelection {
  // Most clients send no query: the URL is parsed only when there is one.
  const query = request.url.includes("?") ? new URL(request.url).searchParams : undefined;
  const param = query?.get("toolsets") ?? request.headers.get("x-mcp-toolsets");
  if (!query && param === null) return NO_SELECTION;
  const readonly = (query?.get("readonly") ?? "0").toLowerCase();
  if (!flags.has(readonly)) {
    throw new ApiError("validation", "readonly must be 1 or 0.", { validValues: ["1", "0"] });
  }
  const mode = query?.get("tools") ?? null;
  if (mode !== null && mode !== "discover") {
    throw new ApiError("validation", `tools must be 'discover', not '${mode}'.`, {
      validValues: ["discover"],
    });
  }
  return { toolsets: toolsetsOf(param), readOnly: truthy.has(readonly), discover: mode === "discover" };
}

function toolsetsOf(param: string | null): readonly Toolset[] | undefined {
  if (param === null || param.trim() === "") return undefined;
  const names = param
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes("all")) return toolsets;
  const picked = new Set<Toolset>();
  for (const name of names) {
    if (name === "default") for (const set of defaultToolsets) picked.add(set);
    else if (isToolset(name)) picked.add(name);
    else {
      throw new ApiError("validation", `toolsets: '${name}' is not a toolset.`, {
        validValues: [...toolsets, "default", "all"],
        suggestion:
          "Pick toolsets from validValues (comma-separated), or leave toolsets out for the default set.",
      });
    }
  }
  return [...picked];
}

/**
 * The principal as this connection sees it: read-only when asked, and limited to the picked toolsets (within the
 * toolsets its OAuth consent granted, if any). Discovery mode without a pick reaches every toolset. A request that
 * selects nothing sees the principal as it is (the same object).
 */
export function narrowed(principal: Principal, selection: ToolSelection): Principal {
  if (selection === NO_SELECTION) return principal;
  const picked = selection.toolsets ?? (selection.discover ? toolsets : undefined);
  const granted = principal.toolsets;
  const reach = picked && granted ? picked.filter((set) => granted.includes(set)) : (picked ?? granted);
  const readOnly = principal.readOnly || selection.readOnly;
  return { ...principal, ...(readOnly ? { readOnly } : {}), ...(reach ? { toolsets: reach } : {}) };
}

/** The toolsets `tools/list` shows a principal: the ones it is limited to, else the default set. */
export function listedToolsets(principal: Principal): readonly Toolset[] {
  return principal.toolsets ?? defaultToolsets;
}

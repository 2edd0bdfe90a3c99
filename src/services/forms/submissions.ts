import type { FormSubmissionState } from "../../db/schema/forms.ts";
import type {
  FormSubmissionFileRecord,
  FormSubmissionRecord,
  SubmissionFilter,
} from "../../db/stores/forms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped } from "../../kernel/ids.ts";
import { iso, toMs } from "../../kernel/schemas.ts";
import { DEFAULT_SETTINGS, type FormSettings, settingsByForm } from "./settings.ts";

export const SUBMISSION_STATES = [
  "new",
  "read",
  "spam",
  "archived",
] as const satisfies readonly FormSubmissionState[];

/** A submission as operations return it. */
export function projectSubmission(record: FormSubmissionRecord, files: readonly FormSubmissionFileRecord[]) {
  return {
    id: record.id,
    websiteId: record.websiteId,
    formName: record.formName,
    state: record.state,
    values: record.values,
    files: files.map((file) => ({
      field: file.field,
      filename: file.filename,
      contentType: file.contentType,
      size: file.size,
      sha256: file.sha256,
    })),
    spamReasons: record.spamReasons,
    page: record.page,
    createdAt: iso(record.createdAt),
  };
}

/** A submission of the website, or `not_found` (an id of another website is not found either). */
export async function loadSubmission(stores: Stores, websiteId: string, id: string) {
  const record = isIdShaped(id) ? await stores.forms.getSubmission(websiteId, id) : undefined;
  if (!record) {
    throw new ApiError(
      "not_found",
      `submissionId: submission '${id}' was not found on website '${websiteId}'.`,
      {
        suggestion: "Call {{forms.submissions.list}} to see this website's submissions.",
      },
    );
  }
  return record;
}

/** The store filter of a list or export input; `from` after `to` is a validation error. */
export function filterOf(input: {
  formName?: string;
  state?: FormSubmissionState;
  from?: string;
  to?: string;
}) {
  const filter: SubmissionFilter = {};
  if (input.formName !== undefined) filter.formName = input.formName;
  if (input.state !== undefined) filter.states = [input.state];
  if (input.from !== undefined) filter.from = toMs(input.from);
  if (input.to !== undefined) filter.to = toMs(input.to);
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) {
    throw new ApiError("validation", "to: must be later than from.");
  }
  return filter;
}

/**
 * The website's forms: those of its live deployment, with their settings and submission counts, then forms that
 * are no longer on the live site but still have submissions (`live: false`).
 */
export async function listForms(stores: Stores, websiteId: string) {
  const deploymentId = await stores.deployments.publishedId(websiteId);
  const live = deploymentId ? await stores.forms.deploymentForms(deploymentId) : [];
  const settings = await settingsByForm(stores, websiteId);
  const counts = new Map<string, Record<FormSubmissionState, number>>();
  for (const row of await stores.forms.counts(websiteId)) {
    const entry = counts.get(row.formName) ?? { new: 0, read: 0, spam: 0, archived: 0 };
    entry[row.state] = row.count;
    counts.set(row.formName, entry);
  }
  const project = (name: string, isLive: boolean, page: string | null, fields: unknown) => {
    const c = counts.get(name) ?? { new: 0, read: 0, spam: 0, archived: 0 };
    return {
      name,
      live: isLive,
      page,
      fields: fields as { name: string; type: string; required: boolean }[],
      settings: projectSettings(settings.get(name) ?? DEFAULT_SETTINGS),
      counts: { ...c, total: c.new + c.read + c.spam + c.archived },
    };
  };
  const items = live.map((form) => project(form.name, true, form.page, form.fields));
  const liveNames = new Set(live.map((form) => form.name));
  for (const name of [...counts.keys()].sort())
    if (!liveNames.has(name)) items.push(project(name, false, null, []));
  return items;
}

export const projectSettings = (settings: FormSettings) => ({
  enabled: settings.enabled,
  successUrl: settings.successUrl,
  notify: settings.notify,
  spamSensitivity: settings.spamSensitivity,
});

/** A success URL is a path of the site (`/thanks/`) or an absolute http(s) URL. */
export function checkSuccessUrl(value: string): void {
  if (value.length > 2000) throw new ApiError("validation", "successUrl: at most 2000 characters.");
  if (value.startsWith("/") && !value.startsWith("//")) return;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new ApiError(
      "validation",
      `successUrl: '${value.slice(0, 100)}' is neither a path of the site (starting with one '/') nor an http(s) URL.`,
    );
  }
}

import type { FormSettingsRecord } from "../../db/stores/forms.ts";
import type { Stores } from "../../db/stores/index.ts";

export type FormSettings = Omit<FormSettingsRecord, "websiteId" | "formName" | "updatedAt">;

/** What a form without stored settings does: receive, notify, medium spam sensitivity, the platform's thank-you page. */
export const DEFAULT_SETTINGS: FormSettings = {
  enabled: true,
  successUrl: null,
  notify: true,
  spamSensitivity: "medium",
};

/** The settings of every form of a website that has some stored, by form name. */
export async function settingsByForm(stores: Stores, websiteId: string): Promise<Map<string, FormSettings>> {
  const rows = await stores.forms.settings(websiteId);
  return new Map(
    rows.map(({ formName, enabled, successUrl, notify, spamSensitivity }) => [
      formName,
      { enabled, successUrl, notify, spamSensitivity },
    ]),
  );
}

export async function settingsOf(stores: Stores, websiteId: string, formName: string): Promise<FormSettings> {
  return (await settingsByForm(stores, websiteId)).get(formName) ?? DEFAULT_SETTINGS;
}

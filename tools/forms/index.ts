// The forms operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import formsList from "./list.ts";
import formsRecipientsAdd from "./recipients-add.ts";
import formsRecipientsList from "./recipients-list.ts";
import formsRecipientsRemove from "./recipients-remove.ts";
import formsSettingsUpdate from "./settings-update.ts";
import formsSubmissionsDelete from "./submissions-delete.ts";
import formsSubmissionsExport from "./submissions-export.ts";
import formsSubmissionsGet from "./submissions-get.ts";
import formsSubmissionsList from "./submissions-list.ts";
import formsSubmissionsUpdateState from "./submissions-update-state.ts";

export const formsTools = [
  formsList,
  formsSubmissionsList,
  formsSubmissionsGet,
  formsSubmissionsUpdateState,
  formsSubmissionsDelete,
  formsSubmissionsExport,
  formsSettingsUpdate,
  formsRecipientsList,
  formsRecipientsAdd,
  formsRecipientsRemove,
] as const satisfies readonly Tool[];

// The cms operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import cmsCollectionsCreate from "./collections-create.ts";
import cmsCollectionsDelete from "./collections-delete.ts";
import cmsCollectionsGet from "./collections-get.ts";
import cmsCollectionsList from "./collections-list.ts";
import cmsCollectionsUpdate from "./collections-update.ts";
import cmsFieldsCreate from "./fields-create.ts";
import cmsFieldsDelete from "./fields-delete.ts";
import cmsFieldsList from "./fields-list.ts";
import cmsFieldsUpdate from "./fields-update.ts";
import cmsItemsArchive from "./items-archive.ts";
import cmsItemsBulkCreate from "./items-bulk-create.ts";
import cmsItemsBulkDelete from "./items-bulk-delete.ts";
import cmsItemsBulkUpdate from "./items-bulk-update.ts";
import cmsItemsCreate from "./items-create.ts";
import cmsItemsDelete from "./items-delete.ts";
import cmsItemsGet from "./items-get.ts";
import cmsItemsList from "./items-list.ts";
import cmsItemsQuery from "./items-query.ts";
import cmsItemsReorder from "./items-reorder.ts";
import cmsItemsSetPublished from "./items-set-published.ts";
import cmsItemsUpdate from "./items-update.ts";

export const cmsTools = [
  cmsCollectionsList,
  cmsCollectionsCreate,
  cmsCollectionsGet,
  cmsCollectionsUpdate,
  cmsCollectionsDelete,
  cmsFieldsList,
  cmsFieldsCreate,
  cmsFieldsUpdate,
  cmsFieldsDelete,
  cmsItemsList,
  cmsItemsQuery,
  cmsItemsGet,
  cmsItemsCreate,
  cmsItemsUpdate,
  cmsItemsDelete,
  cmsItemsSetPublished,
  cmsItemsBulkCreate,
  cmsItemsBulkUpdate,
  cmsItemsBulkDelete,
  cmsItemsArchive,
  cmsItemsReorder,
] as const satisfies readonly Tool[];

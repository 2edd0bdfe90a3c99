-- Planner statistics of the CMS query index (PostgreSQL only; drizzle-kit has no notion of them, so SQLite has no
-- counterpart). A condition on a value row names its field and a value: `field_key = 'category' AND skey = 'x'
-- AND txt = 'x'`, or `field_key = 'inStock' AND num = 1`. Those columns are far from independent (skey and txt of
-- a row agree, and the values of a field are a small part of all values), so without these statistics the
-- planner multiplies their selectivities, expects a filter to match a handful of rows where it matches
-- thousands, and reads every match and sorts it instead of walking the sort key's index until the page is full
-- (`npm run bench:cms`, 100,000 items). The most-common-value lists give it the joint frequencies; ANALYZE
-- builds them now rather than at autovacuum's next visit.
CREATE STATISTICS IF NOT EXISTS "cms_item_values_text_stats" (dependencies, mcv) ON "field_key", "skey", "txt" FROM "cms_item_values";--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "cms_item_values_num_stats" (mcv) ON "field_key", "num" FROM "cms_item_values";--> statement-breakpoint
ANALYZE "cms_item_values";

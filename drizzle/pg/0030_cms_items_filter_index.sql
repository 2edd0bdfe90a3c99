CREATE INDEX "cms_items_filter_idx" ON "cms_items" USING btree ("id","collection_id","status","archived");--> statement-breakpoint
-- A CMS page query walks one value index in sort order and stops once the page is full. A parallel plan splits
-- that walk among workers that do not stop early: on 100,000 items (`npm run bench:cms`) it read 6,000–11,000
-- index rows for a page that a single walk finds in 1,250, and took 100–150 ms instead of ~25 ms. The value
-- table's scans are kept serial (no parallel workers); the rest of the database keeps the server's setting.
ALTER TABLE "cms_item_values" SET (parallel_workers = 0);

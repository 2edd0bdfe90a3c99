-- Text columns compare by byte (code point) order, as SQLite does.
CREATE TABLE "cms_item_terms" (
	"item_id" text COLLATE "C" NOT NULL,
	"collection_id" text COLLATE "C" NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"field_key" text COLLATE "C" NOT NULL,
	"term" text COLLATE "C" NOT NULL,
	"score" integer NOT NULL,
	CONSTRAINT "cms_item_terms_item_id_state_field_key_term_pk" PRIMARY KEY("item_id","state","field_key","term")
);
--> statement-breakpoint
CREATE TABLE "cms_item_uniques" (
	"collection_id" text COLLATE "C" NOT NULL,
	"field_key" text COLLATE "C" NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"hash" text COLLATE "C" NOT NULL,
	"item_id" text COLLATE "C" NOT NULL,
	CONSTRAINT "cms_item_uniques_collection_id_field_key_state_hash_pk" PRIMARY KEY("collection_id","field_key","state","hash")
);
--> statement-breakpoint
CREATE TABLE "cms_item_values" (
	"item_id" text COLLATE "C" NOT NULL,
	"collection_id" text COLLATE "C" NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"field_key" text COLLATE "C" NOT NULL,
	"ord" integer NOT NULL,
	"num" double precision,
	"txt" text COLLATE "C",
	"skey" text COLLATE "C",
	"low" text COLLATE "C",
	CONSTRAINT "cms_item_values_item_id_state_field_key_ord_pk" PRIMARY KEY("item_id","state","field_key","ord")
);
--> statement-breakpoint
CREATE INDEX "cms_item_terms_term_idx" ON "cms_item_terms" USING btree ("collection_id","state","term","item_id");--> statement-breakpoint
CREATE INDEX "cms_item_uniques_item_idx" ON "cms_item_uniques" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "cms_item_values_num_idx" ON "cms_item_values" USING btree ("collection_id","state","field_key","num" NULLS FIRST,"item_id");--> statement-breakpoint
CREATE INDEX "cms_item_values_text_idx" ON "cms_item_values" USING btree ("collection_id","state","field_key","skey" NULLS FIRST,"item_id");--> statement-breakpoint
CREATE INDEX "cms_items_updated_idx" ON "cms_items" USING btree ("collection_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "cms_items_published_idx" ON "cms_items" USING btree ("collection_id","published_at" NULLS FIRST,"id");
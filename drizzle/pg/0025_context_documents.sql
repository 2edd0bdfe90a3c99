-- Ids, website ids and blob hashes compare byte-wise, as on SQLite (keyset paging sorts by id).
CREATE TABLE "context_documents" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"website_id" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	"blob_hash" text COLLATE "C" NOT NULL,
	"text" text NOT NULL,
	"page_offsets" jsonb,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "context_documents" ADD CONSTRAINT "context_documents_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "context_documents_website_idx" ON "context_documents" USING btree ("website_id","created_at","id");--> statement-breakpoint
CREATE INDEX "context_documents_blob_idx" ON "context_documents" USING btree ("blob_hash","website_id");
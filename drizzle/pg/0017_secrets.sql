-- Website ids and secret names are sorted (list by name): byte order (COLLATE "C"), as on SQLite.
CREATE TABLE "website_secrets" (
	"website_id" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"ciphertext" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "website_secrets_website_id_name_pk" PRIMARY KEY("website_id","name")
);
--> statement-breakpoint
ALTER TABLE "website_secrets" ADD CONSTRAINT "website_secrets_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "blob_locks" (
	"sha256" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"locked_at" bigint NOT NULL
);

CREATE TABLE "deployment_functions" (
	"deployment_id" text NOT NULL,
	"name" text NOT NULL,
	"file" text NOT NULL,
	"bundle_sha256" text NOT NULL,
	"size" integer NOT NULL,
	CONSTRAINT "deployment_functions_deployment_id_name_pk" PRIMARY KEY("deployment_id","name")
);
--> statement-breakpoint
ALTER TABLE "deployment_functions" ADD CONSTRAINT "deployment_functions_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_functions_bundle_idx" ON "deployment_functions" USING btree ("bundle_sha256");
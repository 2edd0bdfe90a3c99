CREATE TABLE "deployment_outputs" (
	"deployment_id" text NOT NULL,
	"path" text NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	CONSTRAINT "deployment_outputs_deployment_id_path_pk" PRIMARY KEY("deployment_id","path")
);
--> statement-breakpoint
ALTER TABLE "deployment_outputs" ADD CONSTRAINT "deployment_outputs_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_outputs" ALTER COLUMN "path" TYPE text COLLATE "C";

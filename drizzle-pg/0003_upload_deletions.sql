CREATE TABLE "upload_deletions" (
	"name" text PRIMARY KEY NOT NULL,
	"deleted_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);

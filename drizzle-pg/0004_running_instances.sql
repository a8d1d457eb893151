CREATE TABLE "running_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_check" text NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);

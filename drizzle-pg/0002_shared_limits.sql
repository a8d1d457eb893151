CREATE TABLE "shared_limits" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	"state" jsonb,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "shared_limits_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE INDEX "shared_limits_expires" ON "shared_limits" USING btree ("expires_at");
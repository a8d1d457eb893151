-- What the pages show changed: every instance empties its page cache (src/server/db/changes.ts).
-- The first row a transaction changes in a table the pages read bumps one version row, in that
-- transaction, and the notification goes out when it commits (never for one rolled back, nor
-- for a statement that changed no row). An instance that was disconnected reads the version
-- when it reconnects, so a missed notification is caught.
CREATE TABLE "cam_guide_changes" (
	"id" smallint PRIMARY KEY CHECK ("id" = 1),
	"version" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "cam_guide_changes" ("id", "version") VALUES (1, 0);
--> statement-breakpoint
CREATE FUNCTION "cam_guide_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	next_version bigint;
	flag text := 'cam_guide.changed_' || TG_TABLE_NAME;
BEGIN
	-- Once per table and transaction: a transaction-local setting remembers it was done.
	IF current_setting(flag, true) = txid_current()::text THEN
		RETURN NULL;
	END IF;
	PERFORM set_config(flag, txid_current()::text, true);
	UPDATE "cam_guide_changes" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version" INTO next_version;
	-- "<table> <version>": saved results going only drop the pages of results.
	PERFORM pg_notify('cam_guide_changes', TG_TABLE_NAME || ' ' || next_version);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "blog_posts_changed" AFTER INSERT OR UPDATE OR DELETE ON "blog_posts" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "blog_posts_emptied" AFTER TRUNCATE ON "blog_posts" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "blog_categories_changed" AFTER INSERT OR UPDATE OR DELETE ON "blog_categories" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "blog_categories_emptied" AFTER TRUNCATE ON "blog_categories" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "blog_redirects_changed" AFTER INSERT OR UPDATE OR DELETE ON "blog_redirects" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "blog_redirects_emptied" AFTER TRUNCATE ON "blog_redirects" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "affiliate_offers_changed" AFTER INSERT OR UPDATE OR DELETE ON "affiliate_offers" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "affiliate_offers_emptied" AFTER TRUNCATE ON "affiliate_offers" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "recommended_products_changed" AFTER INSERT OR UPDATE OR DELETE ON "recommended_products" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "recommended_products_emptied" AFTER TRUNCATE ON "recommended_products" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "site_settings_changed" AFTER INSERT OR UPDATE OR DELETE ON "site_settings" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "site_settings_emptied" AFTER TRUNCATE ON "site_settings" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "site_pages_changed" AFTER INSERT OR UPDATE OR DELETE ON "site_pages" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "site_pages_emptied" AFTER TRUNCATE ON "site_pages" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "media_changed" AFTER INSERT OR UPDATE OR DELETE ON "media" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "media_emptied" AFTER TRUNCATE ON "media" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
-- A link's health, checked in the background, shows on no page: only what the admin edits counts.
CREATE TRIGGER "links_changed" AFTER INSERT OR DELETE ON "links" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "links_edited" AFTER UPDATE OF "slug", "destination", "active", "fallback_destination" ON "links" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "links_emptied" AFTER TRUNCATE ON "links" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "quiz_results_deleted" AFTER DELETE ON "quiz_results" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "quiz_results_emptied" AFTER TRUNCATE ON "quiz_results" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "earnings_results_deleted" AFTER DELETE ON "earnings_results" FOR EACH ROW EXECUTE FUNCTION "cam_guide_changed"();
--> statement-breakpoint
CREATE TRIGGER "earnings_results_emptied" AFTER TRUNCATE ON "earnings_results" FOR EACH STATEMENT EXECUTE FUNCTION "cam_guide_changed"();

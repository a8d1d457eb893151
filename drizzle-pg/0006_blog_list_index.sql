-- The blog's list in its order (the date it shows), holding what its filter reads.
CREATE INDEX "blog_posts_list_idx" ON "blog_posts" USING btree ("published",coalesce("publish_at", "created_at"),"id","publish_at","category");

CREATE TABLE `admin_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_users_username_unique` ON `admin_users` (`username`);--> statement-breakpoint
CREATE TABLE `affiliate_offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`image_url` text,
	`video_url` text,
	`use_embed` integer DEFAULT false NOT NULL,
	`embed_code` text,
	`link_url` text NOT NULL,
	`link_text` text,
	`module_id` integer DEFAULT 1 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`archetype` text,
	`product_id` text,
	`badge` text,
	`price` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	CONSTRAINT "affiliate_offers_module_range" CHECK("affiliate_offers"."module_id" BETWEEN 1 AND 10)
);
--> statement-breakpoint
CREATE INDEX `affiliate_offers_module_active_idx` ON `affiliate_offers` (`module_id`,`is_active`);--> statement-breakpoint
CREATE TABLE `blog_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blog_categories_slug_unique` ON `blog_categories` (`slug`);--> statement-breakpoint
CREATE TABLE `blog_posts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`excerpt` text,
	`category` text,
	`cover_image` text,
	`content` text NOT NULL,
	`meta_description` text,
	`meta_keywords` text,
	`published` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`category`) REFERENCES `blog_categories`(`slug`) ON UPDATE cascade ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blog_posts_slug_unique` ON `blog_posts` (`slug`);--> statement-breakpoint
CREATE INDEX `blog_posts_published_created_idx` ON `blog_posts` (`published`,`created_at`);--> statement-breakpoint
CREATE TABLE `earnings_results` (
	`id` text PRIMARY KEY NOT NULL,
	`quiz_result_id` text,
	`tier` text NOT NULL,
	`estimated_earnings` text NOT NULL,
	`score` integer NOT NULL,
	`answers` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`quiz_result_id`) REFERENCES `quiz_results`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `quiz_results` (
	`id` text PRIMARY KEY NOT NULL,
	`archetype` text NOT NULL,
	`answers` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `recommended_products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`link` text NOT NULL,
	`price` text NOT NULL,
	`image_url` text,
	`badge` text DEFAULT 'ESSENTIAL' NOT NULL,
	`archetype` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`module_id` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `recommended_products_archetype_idx` ON `recommended_products` (`archetype`);--> statement-breakpoint
CREATE TABLE `site_pages` (
	`slug` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`body` text NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `site_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`brand_name` text NOT NULL,
	`platform_a_name` text NOT NULL,
	`platform_a_url` text NOT NULL,
	`platform_b_name` text NOT NULL,
	`platform_b_url` text NOT NULL,
	`banner_platform` text DEFAULT 'a' NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	CONSTRAINT "site_settings_single_row" CHECK("site_settings"."id" = 1),
	CONSTRAINT "site_settings_banner_platform" CHECK("site_settings"."banner_platform" IN ('a', 'b'))
);

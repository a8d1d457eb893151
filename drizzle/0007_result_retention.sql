ALTER TABLE `site_settings` ADD `result_retention_days` integer;--> statement-breakpoint
CREATE INDEX `earnings_results_created_idx` ON `earnings_results` (`created_at`);--> statement-breakpoint
CREATE INDEX `earnings_results_quiz_result_idx` ON `earnings_results` (`quiz_result_id`);--> statement-breakpoint
CREATE INDEX `quiz_results_created_idx` ON `quiz_results` (`created_at`);
// API paths the pages and admin screens use besides their declared reads.

import { blogCategoriesRead, blogPostsRead } from "#shared/features/blog/reads.ts";
import { settingsRead } from "#shared/features/settings/reads.ts";

export const API = {
  /** Where the quiz and the calculator save a result (POST). */
  quizResults: "/api/quiz/result",
  earningsResults: "/api/earnings/result",
  // The admin screens refresh these public reads after a change; every read is declared
  // in its feature's reads.ts.
  settings: settingsRead.key(),
  blogCategories: blogCategoriesRead.key(),
  blogPosts: blogPostsRead.key(),
};

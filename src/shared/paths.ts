// Paths and path rules both sides agree on.

export const API = {
  settings: "/api/settings",
  sitePage: (slug: string) => `/api/pages/${encodeURIComponent(slug)}`,
  quizResults: "/api/quiz/result",
  quizResult: (id: string) => `/api/quiz/result/${encodeURIComponent(id)}`,
  earningsResults: "/api/earnings/result",
  earningsResult: (id: string) => `/api/earnings/result/${encodeURIComponent(id)}`,
  products: (archetype: string) => `/api/recommended-products/${encodeURIComponent(archetype)}`,
  modules: "/api/course/modules",
  blogCategories: "/api/blog/categories",
  blogPosts: "/api/blog/posts",
  blogPost: (slug: string) => `/api/blog/post/${encodeURIComponent(slug)}`,
  blogRelated: (slug: string) => `/api/blog/post/${encodeURIComponent(slug)}/related`,
  module: (id: number | string) => `/api/course/modules/${id}`,
} as const;

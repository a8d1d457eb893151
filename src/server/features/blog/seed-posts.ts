// The seed's blog posts, one file each in content/blog/posts (checked by tests/content.test.ts).
import p0 from "#content/blog/posts/building-a-tip-menu-that-works.json" with { type: "json" };
import p1 from "#content/blog/posts/choosing-a-stage-name.json" with { type: "json" };
import p2 from "#content/blog/posts/fan-clubs-and-content-sales-without-burnout.json" with { type: "json" };
import p3 from "#content/blog/posts/how-to-start-camming-safely.json" with { type: "json" };
import p4 from "#content/blog/posts/keeping-chat-lively-on-slow-nights.json" with { type: "json" };
import p5 from "#content/blog/posts/lighting-on-a-budget.json" with { type: "json" };
import p6 from "#content/blog/posts/platform-reviews.json" with { type: "json" };
import p7 from "#content/blog/posts/questions-to-ask-before-signing-up.json" with { type: "json" };
import p8 from "#content/blog/posts/taxes-for-cam-models.json" with { type: "json" };
import p9 from "#content/blog/posts/your-first-week-on-camera.json" with { type: "json" };
import type { SeedPost } from "#shared/features/blog/contract.ts";

export const seedPosts = [p0, p1, p2, p3, p4, p5, p6, p7, p8, p9] as SeedPost[];

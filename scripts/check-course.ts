// Checks course modules while writing them: `bun scripts/check-course.ts 3 4` (all without arguments).
import { Value } from "@sinclair/typebox/value";
import { MODULE_IDS } from "#shared/features/course/constants.ts";
import { CourseModule } from "#shared/features/course/contract.ts";

const titles = [
  "Camming 101 – What to Expect",
  "Privacy, Safety & Boundaries",
  "Creating Your Persona & Brand",
  "Setting Up Your Space & Equipment",
  "On-Camera Confidence & Viewer Engagement",
  "Money, Monetization & Tip-Based Strategy",
  "Tools, Apps & Automations",
  "Fan Clubs, Content Sales & Passive Income",
  "Preventing Burnout & Staying Empowered",
  "Business Mindset, Goals & Evolving Your Career",
];
let bad = false;
const wanted = process.argv.slice(2).map(Number);
for (const n of wanted.length ? wanted : MODULE_IDS) {
  const file = `${import.meta.dir}/../content/course/module-${String(n).padStart(2, "0")}.json`;
  const m = await Bun.file(file).json();
  const errs = [...Value.Errors(CourseModule, m)].map((e) => `${e.path}: ${e.message}`);
  if (m.id !== n) errs.push(`id must be ${n}`);
  if (m.title !== titles[n - 1]) errs.push(`title must be exactly "${titles[n - 1]}"`);
  if (m.topics?.length !== 5) errs.push("need exactly 5 topics");
  if (!m.quiz) errs.push("quiz missing");
  for (const t of m.topics ?? []) {
    const words = t.content
      .replace(/<[^>]+>/g, " ")
      .split(/\s+/)
      .filter(Boolean).length;
    const tags = new Set([...t.content.matchAll(/<([a-z0-9]+)[\s>]/g)].map((x) => x[1]));
    const badTags = [...tags].filter(
      (x) => !["h3", "h4", "p", "ul", "ol", "li", "strong", "em", "blockquote"].includes(x),
    );
    console.log(`module ${n} topic ${t.id} "${t.title}": ${words} words`);
    if (words < 300 || words > 600) errs.push(`topic ${t.id} has ${words} words (need 300-600)`);
    if (badTags.length) errs.push(`topic ${t.id} uses disallowed tags ${badTags}`);
    if (!t.proTip) errs.push(`topic ${t.id} needs a proTip`);
    if (/\s(on\w+|style)=|javascript:/i.test(t.content)) errs.push(`topic ${t.id} has attributes that are not allowed`);
  }
  const answers = (m.quiz?.questions ?? []).map((q: { correctAnswer: string }) => q.correctAnswer).join("");
  console.log(`module ${n} quiz answers: ${answers}`);
  if (errs.length) {
    bad = true;
    console.log(`module ${n} PROBLEMS:\n  ${errs.join("\n  ")}`);
  } else console.log(`module ${n} ok`);
}
process.exit(bad ? 1 : 0);

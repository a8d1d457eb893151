// `bun bench/quiz-fairness.ts`: each archetype's share of wins over 100,000 seeded answer
// sets, with uniformly random answers, as a couple (7 D and 14 D) and aged 45 or over (13 D).
// The unit test src/shared/features/quiz/scoring-simulation.test.ts holds the bands.
import { ARCHETYPES } from "#shared/features/quiz/constants.ts";
import { RUNS, winShares } from "#shared/features/quiz/fairness.ts";

const cases = {
  random: winShares(13),
  "couple (7 D + 14 D)": winShares(14, { 7: "D", 14: "D" }),
  "45 or over (13 D)": winShares(15, { 13: "D" }),
};
const percent = (share: number) => (share * 100).toFixed(1);
console.log(`Wins in % of ${RUNS.toLocaleString("en")} seeded answer sets\n`);
console.log(`| Archetype | ${Object.keys(cases).join(" | ")} |`);
console.log(
  `| --- | ${Object.keys(cases)
    .map(() => "---")
    .join(" | ")} |`,
);
for (const archetype of ARCHETYPES)
  console.log(
    `| ${archetype} | ${Object.values(cases)
      .map((shares) => percent(shares[archetype]))
      .join(" | ")} |`,
  );

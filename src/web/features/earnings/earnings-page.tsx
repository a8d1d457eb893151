import { useEffect, useState } from "react";
import { useSearch } from "wouter";
import { spellAnswers } from "#shared/answers.ts";
import { type EarningsAnswer, earningsAnswersSoFar } from "#shared/features/earnings/constants.ts";
import { earningsQuestions } from "#shared/features/earnings/content.ts";
import { computeTier } from "#shared/features/earnings/tiers.ts";
import { quizResultRead } from "#shared/features/quiz/reads.ts";
import { API } from "#shared/paths.ts";
import { updateProgress } from "#web/features/progress/store.ts";
import { useRead } from "#web/lib/reads.ts";
import { saveResult } from "#web/lib/save-result.ts";
import { optional, type PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { Wizard } from "#web/ui/wizard.tsx";
import { UNFINISHED_KEYS } from "#web/ui/wizard-resume.tsx";

export const route: PageRoute = {
  // The calculator is the same for everyone.
  cache: true,
  loader: ({ search }) => {
    const quizId = search.get("quizId");
    // A stale quiz id only means the result is saved without it: not a missing page.
    return quizId ? [{ ...optional(quizResultRead, { id: quizId }), missingStatus: 200 }] : [];
  },
};

/**
 * /quiz/earnings: the calculator; ?quizId= links the saved result to a quiz result,
 * ?answers= holds the answers so far.
 */
export default function EarningsPage() {
  const search = new URLSearchParams(useSearch());
  const quizId = search.get("quizId");
  const answered = earningsAnswersSoFar(search.get("answers") ?? "") ?? [];
  const [saving, setSaving] = useState(false);
  // A stale quiz id in the address must not block saving: it is sent only if it exists.
  const quiz = useRead(quizResultRead, quizId ? { id: quizId } : null);
  const knownQuizId = quiz.data?.id ?? null;

  // Back from the tier result may show this page as it was left (the browser's page cache).
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) setSaving(false);
    };
    window.addEventListener("pageshow", shown);
    return () => window.removeEventListener("pageshow", shown);
  }, []);

  /** The address of the calculator after these answers, with the quiz result it belongs to. */
  function step(answers: readonly EarningsAnswer[]): string {
    const query = new URLSearchParams();
    if (quizId) query.set("quizId", quizId);
    if (answers.length > 0) query.set("answers", spellAnswers(answers));
    return query.size > 0 ? `/quiz/earnings?${query}` : "/quiz/earnings";
  }

  async function finish(answers: EarningsAnswer[]) {
    const { tier, estimatedEarnings, score } = computeTier(answers);
    setSaving(true);
    const body = { quizResultId: knownQuizId, tier, estimatedEarnings, score, answers };
    const saved = await saveResult(API.earningsResults, body, "Failed to save earnings result. Please try again.");
    if (!saved) return setSaving(false);
    updateProgress((progress) => ({ ...progress, earnings: { id: saved.id, tier } }));
    // A full page navigation to the tier result.
    window.location.assign(`/quiz/earnings?tier=${encodeURIComponent(tier)}&id=${encodeURIComponent(saved.id)}`);
  }

  return (
    <>
      <PageMeta
        page="Cam Model Earnings Calculator"
        description="Estimate what you could earn as a cam model: 15 quick questions about your hours, schedule, setup, promotion and goals give an honest monthly range."
      />
      <header className="page-intro">
        <h1>Calculate Your Earning Potential</h1>
        <p>
          Answer 15 quick questions about your schedule, setup and goals. You will get an honest monthly range and the
          habits that move it up. Estimates are illustrative, not promises.
        </p>
      </header>
      <Wizard
        questions={earningsQuestions}
        answered={answered}
        href={step}
        action="/quiz/earnings"
        fields={quizId ? { quizId } : {}}
        onFinish={finish}
        busy={saving}
        resume={{ storageKey: UNFINISHED_KEYS.earnings, parse: earningsAnswersSoFar }}
      />
    </>
  );
}

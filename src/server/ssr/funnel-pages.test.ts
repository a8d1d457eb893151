// The quiz funnel's pages as the first HTML response holds them, read through the parsed page.
import { describe, expect, test } from "bun:test";
import { tierProfile } from "#server/features/earnings/content.ts";
import { archetypeProfile } from "#server/features/quiz/content.ts";
import { siteApp } from "#tests/support/app.ts";
import { createEarningsResult, createProduct, createQuizResult } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";

describe("/quiz", () => {
  test("the wizard's first question is in the first HTML", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz");
    expect(page.status).toBe(200);
    const main = page.main();
    expect(main.getByRole("heading", { level: 1, name: "Discover Your Cam Girl Archetype" })).toBeTruthy();
    expect(main.getByText("Question 1/15")).toBeTruthy();
    expect(main.getByRole("heading", { name: "How would your closest friends describe you?" })).toBeTruthy();
    expect(page.title).toBe("Discover Your Cam Girl Archetype | Cam Guide");
  });
});

describe("a wizard step in the address (?answers=)", () => {
  test("/quiz?answers=AC: question 3 as a form that sends the answers with the next one", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz?answers=AC");
    expect(page.status).toBe(200);
    const main = page.main();
    expect(main.getByText("Question 3/15")).toBeTruthy();
    const form = page.document.querySelector("main form")!;
    expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["get", "/quiz"]);
    const radios = [...form.querySelectorAll('input[type="radio"]')].map((r) => r.getAttribute("value"));
    expect(radios).toEqual(["ACA", "ACB", "ACC", "ACD"]);
    expect(main.getByRole("button", { name: "PREVIOUS" }).getAttribute("href")).toBe("/quiz?answers=A");
  });

  test("the last step posts to the page; anything but answers before the last question is the first step", async () => {
    const { request } = await siteApp();
    const last = await renderPage(request, `/quiz?answers=${"B".repeat(14)}`);
    expect(last.main().getByText("Question 15/15")).toBeTruthy();
    expect(last.document.querySelector("main form")!.getAttribute("method")).toBe("post");
    for (const answers of ["", "ACX", "ac", "B".repeat(15), "1"]) {
      const page = await renderPage(request, `/quiz?answers=${answers}`);
      expect(page.status).toBe(200);
      expect(page.main().getByText("Question 1/15")).toBeTruthy();
    }
  });

  test("/quiz/earnings keeps the quiz result it belongs to in every step's form", async () => {
    const { request, db } = await siteApp();
    const quiz = await createQuizResult(db);
    const page = await renderPage(request, `/quiz/earnings?quizId=${quiz.id}&answers=23`);
    const main = page.main();
    expect(main.getByText("Question 3/15")).toBeTruthy();
    const form = page.document.querySelector("main form")!;
    expect(form.querySelector<HTMLInputElement>('input[name="quizId"]')!.getAttribute("value")).toBe(quiz.id);
    expect(form.querySelector('input[type="radio"]')!.getAttribute("value")).toBe("231");
    expect(main.getByRole("button", { name: "PREVIOUS" }).getAttribute("href")).toBe(
      `/quiz/earnings?quizId=${quiz.id}&answers=2`,
    );
  });
});

describe("/quiz/result", () => {
  test("with an archetype: its profile and the promotional banner are in the first HTML", async () => {
    const { request, db } = await siteApp();
    await createQuizResult(db, { id: "abc", archetype: "Cosplay Babe" });
    const page = await renderPage(request, "/quiz/result?archetype=Cosplay%20Babe&id=abc");
    expect(page.status).toBe(200);
    const profile = archetypeProfile("Cosplay Babe")!;
    expect(page.text).toContain(profile.description);
    expect(page.text).toContain(profile.superpowers[0]!.text);
    expect(page.text).toContain(
      "Join Platform One today and start earning! Over 100,000 webcam models trust Platform One for steady income.",
    );
    const main = page.main();
    expect(main.getByRole("button", { name: "Calculate My Earnings" }).getAttribute("href")).toBe(
      "/quiz/earnings?quizId=abc",
    );
    expect(main.getByRole("button", { name: "Join Platform One (opens in a new tab)" }).getAttribute("rel")).toBe(
      "sponsored noopener",
    );
  });

  test.each([
    ["only an id", ""],
    ["an unknown archetype", "archetype=Pirate&"],
    ["another archetype than the saved one", "archetype=Girl%20Next%20Door&"],
  ])("with %s: a redirect to the archetype the saved result holds, which shows it", async (_, before) => {
    const { request, db } = await siteApp();
    const quiz = await createQuizResult(db, { archetype: "Dominatrix", answers: Array(15).fill("B") });
    const res = await request(`/quiz/result?${before}id=${quiz.id}`);
    expect(res.status).toBe(302);
    const location = `/quiz/result?archetype=Dominatrix&id=${quiz.id}`;
    expect(res.headers.get("location")).toBe(location);
    const page = await renderPage(request, location);
    expect(page.status).toBe(200);
    expect(page.main().getByRole("heading", { level: 1 }).textContent).toBe("Dominatrix");
    expect(page.text).toContain(archetypeProfile("Dominatrix")!.description);
  });

  test("an unknown id: status 404 saying how long results are kept, and Retake the Quiz", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz/result?id=missing");
    expect(page.status).toBe(404);
    const main = page.main();
    expect(main.getByRole("heading", { name: "This result is no longer here" })).toBeTruthy();
    expect(page.title).toBe("Quiz Result No Longer Here | Cam Guide");
    expect(page.text).toContain("Saved quiz results are kept for 180 days and then deleted");
    expect(main.getByRole("button", { name: "Retake the Quiz" }).getAttribute("href")).toBe("/quiz");
  });

  test("an unknown id with an archetype in the address: the same 404, with a link to that archetype", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz/result?archetype=Cosplay%20Babe&id=missing");
    expect(page.status).toBe(404);
    const main = page.main();
    expect(main.getByRole("heading", { name: "This result is no longer here" })).toBeTruthy();
    expect(main.getByRole("link", { name: "Read about the Cosplay Babe archetype" }).getAttribute("href")).toBe(
      "/quiz/result?archetype=Cosplay%20Babe",
    );
  });

  test("an archetype that does not exist: 404 with the same error", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz/result?archetype=Pirate");
    expect(page.status).toBe(404);
    expect(page.main().getByRole("heading", { name: "Oops! Something went wrong" })).toBeTruthy();
  });

  test.each([
    "/quiz/result?id=..",
    "/quiz/result?id=.",
    "/quiz/starter-kit?quizId=..",
    "/quiz/earnings?quizId=..",
    "/quiz/earnings?tier=x&id=..",
    "/learn/1?x=..",
    "/quiz/result?id=%2F..%2F..%2Fsettings",
  ])("a path-like id %s is just unknown, never a 5xx", async (path) => {
    const { request } = await siteApp();
    const res = await request(path);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  test("neither archetype nor id: a real redirect to /quiz", async () => {
    const { request } = await siteApp();
    const res = await request("/quiz/result");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/quiz");
  });
});

describe("/quiz/earnings", () => {
  test("no parameters: the calculator, stating its true 15 questions", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz/earnings");
    expect(page.main().getByRole("heading", { level: 1, name: "Calculate Your Earning Potential" })).toBeTruthy();
    expect(page.text).toContain("15 quick questions");
    expect(page.html).not.toContain("5 questions");
  });

  test("a stale quizId still shows the calculator with 200", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz/earnings?quizId=gone");
    expect(page.status).toBe(200);
    expect(page.main().getByRole("heading", { level: 1, name: "Calculate Your Earning Potential" })).toBeTruthy();
  });

  test.each(["Power%20Earner", "Starter", "hustler%20mode"])(
    "tier=%s with a saved Hustler Mode result: a redirect to the tier it holds",
    async (tier) => {
      const { request, db } = await siteApp();
      const result = await createEarningsResult(db, {
        quizResultId: null,
        tier: "Hustler Mode",
        estimatedEarnings: "$160 – $3,120 a month",
        score: 30,
        answers: Array(15).fill(2),
      });
      const res = await request(`/quiz/earnings?tier=${tier}&id=${result.id}`);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/quiz/earnings?tier=Hustler%20Mode&id=${result.id}`);
    },
  );

  test("tier and id: the tier profile with GET MY STARTER KIT when a quiz is known", async () => {
    const { request, db } = await siteApp();
    const quiz = await createQuizResult(db, { archetype: "Dominatrix", answers: Array(15).fill("B") });
    const result = await createEarningsResult(db, {
      quizResultId: quiz.id,
      tier: "Hustler Mode",
      estimatedEarnings: "$160 – $3,120 a month",
      score: 30,
      answers: Array(15).fill(2),
    });
    const page = await renderPage(request, `/quiz/earnings?tier=Hustler%20Mode&id=${result.id}`);
    expect(page.status).toBe(200);
    // The headline is the worked example's own range (18 h × 60 × 20 % × 4.33 × 50 % × $1 / $4),
    // the tier's general range is labelled as the tier's, and the saved text is not shown.
    expect(page.text).toContain("Your own estimate: $470 – $1,870 a month");
    expect(page.text).toContain("Hustler Mode in general: $160 – $3,120 a month");
    expect(page.main().getByTestId("estimate-band").textContent).toContain("High $1,870");
    expect(page.text).toContain(tierProfile("Hustler Mode")!.tip);
    expect(page.text).toContain("3–5 days a week at 2–4 hours a show");
    expect(page.main().getByRole("button", { name: "GET MY STARTER KIT" }).getAttribute("href")).toBe(
      `/quiz/starter-kit?quizId=${quiz.id}`,
    );
  });

  test("without a quiz: START FREE COURSE to /learn", async () => {
    const { request, db } = await siteApp();
    const result = await createEarningsResult(db);
    const page = await renderPage(request, `/quiz/earnings?tier=Casual%20Starter&id=${result.id}`);
    expect(page.main().getByRole("button", { name: "START FREE COURSE" }).getAttribute("href")).toBe("/learn");
    expect(page.text).toContain("2–3 short shows a week");
  });

  test("an unknown result: 404 saying how long results are kept, titled so, and the calculator again", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz/earnings?tier=Power%20Earner&id=nope");
    expect(page.status).toBe(404);
    const main = page.main();
    expect(main.getByRole("heading", { name: "This result is no longer here" })).toBeTruthy();
    expect(page.title).toBe("Earnings Result No Longer Here | Cam Guide");
    expect(page.text).toContain("Saved earnings estimates are kept for 180 days and then deleted");
    // The estimate came from the calculator: that is the way to a new one (not the persona quiz).
    expect(main.getByRole("button", { name: "Calculate Again" }).getAttribute("href")).toBe("/quiz/earnings");
    expect(main.queryByRole("button", { name: /quiz/i })).toBeNull();
    const calculator = await renderPage(request, "/quiz/earnings");
    expect(calculator.status).toBe(200);
    expect(calculator.main().getByRole("heading", { level: 1 }).textContent).toBe("Calculate Your Earning Potential");
  });
});

describe("/quiz/starter-kit", () => {
  test("the archetype's products and the essentials are in the first HTML", async () => {
    const { request, db } = await siteApp();
    const quiz = await createQuizResult(db, { archetype: "Dominatrix", answers: Array(15).fill("B") });
    const mine = [
      await createProduct(db, { name: "Leather Cuff Set", archetype: "Dominatrix", isDefault: true }),
      await createProduct(db, { name: "Riding Crop", archetype: "Dominatrix" }),
      await createProduct(db, { name: "Ring Light", archetype: "All Archetypes", isDefault: true }),
      await createProduct(db, { name: "USB Microphone", archetype: "All Archetypes" }),
    ];
    const theirs = await createProduct(db, { name: "Matching Robes", archetype: "Couple" });
    const page = await renderPage(request, `/quiz/starter-kit?quizId=${quiz.id}`);
    expect(page.status).toBe(200);
    const main = page.main();
    for (const { name } of mine) expect(main.getByRole("heading", { name })).toBeTruthy();
    expect(main.queryByRole("heading", { name: theirs.name })).toBeNull();
    expect(main.getByRole("heading", { name: "Essential For All Cam Models" })).toBeTruthy();
    expect(page.document.querySelector(".product-card.featured")).not.toBeNull();
    expect(main.getByRole("button", { name: "Start the Free Cam Model Course" }).getAttribute("href")).toBe("/learn/1");
  });

  test("without quizId: a real redirect to /quiz", async () => {
    const { request } = await siteApp();
    const res = await request("/quiz/starter-kit");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/quiz");
  });

  test("an unknown quizId: 404 saying how long results are kept", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/quiz/starter-kit?quizId=nope");
    expect(page.status).toBe(404);
    const main = page.main();
    expect(main.getByRole("heading", { name: "This result is no longer here" })).toBeTruthy();
    expect(page.title).toBe("Starter Kit No Longer Here | Cam Guide");
    expect(page.text).toContain("Saved quiz results are kept for 180 days");
    expect(main.getByRole("button", { name: "Retake the Quiz" }).getAttribute("href")).toBe("/quiz");
  });
});

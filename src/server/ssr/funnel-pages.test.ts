// The quiz funnel's pages as the first HTML response holds them (SPEC 2, DECISIONS P10).
import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { postJson } from "#tests/support/json.ts";
import { archetypeProfile } from "#server/features/quiz/content.ts";
import { tierProfile } from "#server/features/earnings/content.ts";

async function savedQuiz(request: ReturnType<typeof testApp>["request"], archetype = "Dominatrix", letter = "B") {
  const res = await request("/api/quiz/result", postJson({ archetype, answers: Array(15).fill(letter) }));
  return (await res.json()).id as string;
}

/** Text as the browser shows it: React escapes apostrophes and quotes in HTML. */
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

describe("/quiz", () => {
  test("the wizard's first question is in the first HTML", async () => {
    const { request } = testApp();
    const res = await request("/quiz");
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain("Discover Your Cam Girl Archetype");
    expect(body).toContain("Question <!-- -->1<!-- -->/<!-- -->15");
    expect(body).toContain("How would your closest friends describe you?");
    expect(body).toContain("<title>Discover Your Cam Girl Archetype | Cam Guide</title>");
  });
});

describe("/quiz/result", () => {
  test("with an archetype: its profile and the promotional banner are in the first HTML", async () => {
    const { request } = testApp();
    const res = await request("/quiz/result?archetype=Cosplay%20Babe&id=abc");
    expect(res.status).toBe(200);
    const body = await res.text();
    const profile = archetypeProfile("Cosplay Babe")!;
    expect(body).toContain(html(profile.description));
    expect(body).toContain(html(profile.superpowers[0]!.text));
    // React separates text parts with empty comments.
    expect(body.replaceAll("<!-- -->", "")).toContain(
      "Join Platform One today and start earning! Over 100,000 webcam models trust Platform One for steady income.",
    );
    expect(body).toContain('href="/quiz/earnings?quizId=abc"');
    expect(body).toContain('rel="sponsored noopener"');
  });

  test("with only an id: loaded by id on the server", async () => {
    const { request } = testApp();
    const id = await savedQuiz(request);
    const body = await (await request(`/quiz/result?id=${id}`)).text();
    expect(body).toContain(html(archetypeProfile("Dominatrix")!.description));
  });

  test("an unknown id: status 404 with SPEC's error and Retake the Quiz", async () => {
    const { request } = testApp();
    const res = await request("/quiz/result?id=missing");
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).toContain("Oops! Something went wrong");
    expect(body).toContain(html("We couldn't load your quiz results. Please try taking the quiz again."));
    expect(body).toContain("Retake the Quiz");
  });

  test("an archetype that does not exist: 404 with the same error", async () => {
    const { request } = testApp();
    const res = await request("/quiz/result?archetype=Pirate");
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Oops! Something went wrong");
  });

  test("an unknown archetype with a valid id: the result is read by id", async () => {
    const { request } = testApp();
    const id = await savedQuiz(request);
    const res = await request(`/quiz/result?archetype=Pirate&id=${id}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<h1>Dominatrix</h1>");
  });

  test.each(["/quiz/result?id=..", "/quiz/result?id=.", "/quiz/starter-kit?quizId=..", "/quiz/earnings?quizId=..", "/quiz/earnings?tier=x&id=..", "/learn/1?x=..", "/quiz/result?id=%2F..%2F..%2Fsettings"])(
    "a path-like id %s is just unknown, never a 5xx",
    async (path) => {
      const { request } = testApp();
      const res = await request(path);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("content-type")).toContain("text/html");
    },
  );

  test("neither archetype nor id: a real redirect to /quiz", async () => {
    const { request } = testApp();
    const res = await request("/quiz/result");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/quiz");
  });
});

describe("/quiz/earnings", () => {
  test("no parameters: the calculator, stating its true 15 questions (DECISIONS P4)", async () => {
    const { request } = testApp();
    const body = await (await request("/quiz/earnings")).text();
    expect(body).toContain("Calculate Your Earning Potential");
    expect(body).toContain("15 quick questions");
    expect(body).not.toContain("5 questions");
  });

  test("a stale quizId still shows the calculator with 200", async () => {
    const { request } = testApp();
    const res = await request("/quiz/earnings?quizId=gone");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Calculate Your Earning Potential");
  });

  test("tier and id: the tier profile with GET MY STARTER KIT when a quiz is known", async () => {
    const { request } = testApp();
    const quizId = await savedQuiz(request);
    const saved = await request(
      "/api/earnings/result",
      postJson({ quizResultId: quizId, tier: "Hustler Mode", estimatedEarnings: "$2,000 - $5,000 / month", score: 30, answers: Array(15).fill(2) }),
    );
    const { id } = await saved.json();
    const res = await request(`/quiz/earnings?tier=Hustler%20Mode&id=${id}`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain("$2,000 - $5,000 / month");
    expect(body).toContain(html(tierProfile("Hustler Mode")!.tip));
    expect(body).toContain("3–5 days a week at 2–4 hours a show");
    expect(body).toContain(`href="/quiz/starter-kit?quizId=${quizId}"`);
    expect(body).toContain("GET MY STARTER KIT");
  });

  test("without a quiz: START FREE COURSE to /learn", async () => {
    const { request } = testApp();
    const saved = await request(
      "/api/earnings/result",
      postJson({ tier: "Casual Starter", estimatedEarnings: "$500 - $1,500 / month", score: 15, answers: Array(15).fill(1) }),
    );
    const { id } = await saved.json();
    const body = await (await request(`/quiz/earnings?tier=Casual%20Starter&id=${id}`)).text();
    expect(body).toContain("START FREE COURSE");
    expect(body).toContain('href="/learn"');
    expect(body).toContain("2–3 short shows a week");
  });

  test("an unknown result: 404 with SPEC's error and Restart the Quiz", async () => {
    const { request } = testApp();
    const res = await request("/quiz/earnings?tier=Power%20Earner&id=nope");
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).toContain(html("We couldn't load your earnings calculation. Please try again."));
    expect(body).toContain("Restart the Quiz");
  });
});

describe("/quiz/starter-kit", () => {
  test("the archetype's products and the essentials are in the first HTML", async () => {
    const { request, database } = testApp();
    const id = await savedQuiz(request);
    const res = await request(`/quiz/starter-kit?quizId=${id}`);
    expect(res.status).toBe(200);
    const body = await res.text();
    const names = (archetype: string) =>
      (database.sqlite.query("SELECT name FROM recommended_products WHERE archetype = ?").all(archetype) as { name: string }[]).map((r) => r.name);
    for (const name of [...names("Dominatrix"), ...names("All Archetypes")]) expect(body).toContain(html(name));
    expect(body).toContain("Essential For All Cam Models");
    expect(body).toContain('class="product-card featured"');
    expect(body).toContain('href="/learn/1"');
    expect(body).toContain("Start the Free Cam Model Course");
    expect(body).not.toContain(html(names("Couple")[0]!));
  });

  test("without quizId: a real redirect to /quiz", async () => {
    const { request } = testApp();
    const res = await request("/quiz/starter-kit");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/quiz");
  });

  test("an unknown quizId: 404 with SPEC's error", async () => {
    const { request } = testApp();
    const res = await request("/quiz/starter-kit?quizId=nope");
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).toContain(html("We couldn't load your personalized starter kit. Please try again."));
    expect(body).toContain("Restart the Quiz");
  });
});

import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { ARCHETYPES } from "#shared/features/quiz/contract.ts";
import { PRODUCT_ARCHETYPES } from "#shared/features/products/contract.ts";

describe("GET /api/recommended-products/:archetype", () => {
  test.each([...ARCHETYPES, "All Archetypes"])("%s: seeded products, the featured one first", async (archetype) => {
    const { request } = testApp();
    const res = await request(`/api/recommended-products/${encodeURIComponent(archetype)}`);
    expect(res.status).toBe(200);
    const products = await res.json();
    expect(products.length).toBeGreaterThanOrEqual(archetype === "All Archetypes" ? 4 : 3);
    expect(products.every((p: { archetype: string }) => p.archetype === archetype)).toBe(true);
    expect(products[0].isDefault).toBe(true);
    expect(products.filter((p: { isDefault: boolean }) => p.isDefault)).toHaveLength(1);
  });

  test.each(["Astronaut", "girl next door", "Fitness Model", "%00"])("unknown archetype %s: 422 listing the allowed names", async (name) => {
    const { request } = testApp();
    const res = await request(`/api/recommended-products/${encodeURIComponent(name)}`);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error).toContain("Allowed:");
    expect(body.details.allowed).toEqual([...PRODUCT_ARCHETYPES]);
  });

  test("an archetype with no products answers an empty list", async () => {
    const { request, database } = testApp();
    database.sqlite.run("DELETE FROM recommended_products WHERE archetype = 'Couple'");
    const res = await request(`/api/recommended-products/Couple`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });
});

import { expect } from "bun:test";
import { PRODUCT_ARCHETYPES } from "#shared/features/products/contract.ts";
import { ARCHETYPES } from "#shared/features/quiz/contract.ts";
import { createProduct } from "#tests/support/factories.ts";
import { runScenarios, type Scenario } from "#tests/support/scenario.ts";

runScenarios("GET /api/recommended-products/:archetype", [
  ...[...ARCHETYPES, "All Archetypes"].map(
    (archetype): Scenario => ({
      name: `${archetype}: the seeded products, the featured one first`,
      seed: true,
      path: `/api/recommended-products/${encodeURIComponent(archetype)}`,
      status: 200,
      check: (res) => {
        const products = res.json<{ archetype: string; isDefault: boolean }[]>();
        expect(products.length).toBeGreaterThanOrEqual(archetype === "All Archetypes" ? 4 : 3);
        expect(products.every((p) => p.archetype === archetype)).toBe(true);
        expect(products[0]!.isDefault).toBe(true);
        expect(products.filter((p) => p.isDefault)).toHaveLength(1);
      },
    }),
  ),
  ...["Astronaut", "girl next door", "Fitness Model", "%00"].map(
    (name): Scenario => ({
      name: `unknown archetype ${name}: 422 listing the allowed names`,
      path: `/api/recommended-products/${encodeURIComponent(name)}`,
      status: 422,
      contains: { error: expect.stringContaining("Allowed:"), details: { allowed: [...PRODUCT_ARCHETYPES] } },
    }),
  ),
  {
    name: "an archetype with no products answers an empty list",
    path: "/api/recommended-products/Couple",
    setup: ({ db }) => createProduct(db, { archetype: "Dominatrix" }),
    status: 200,
    json: [],
  },
]);

import { describe, expect, test } from "bun:test";
import { productInput } from "#tests/support/admin-inputs.ts";
import { createProduct } from "#tests/support/factories.ts";
import { runAdminRefusals, runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";

const product = productInput();

const rows: Scenario["setup"] = async ({ db }) => ({
  product: (await createProduct(db, { id: "essential-key-light", archetype: "All Archetypes" })).id,
});

runAdminRefusals("products", { record: "product", path: "/api/admin/recommended-product", body: product }, rows);

runScenarios("a product with a bad field: 422 with the form's message, nothing stored", [
  {
    name: "an archetype that does not exist",
    who: "admin",
    method: "POST",
    path: "/api/admin/recommended-product",
    body: { ...product, id: "custom_zz", archetype: "Fitness Model" },
    status: 422,
    contains: ["Archetype must be one of: Girl Next Door"],
    rows: { recommended_products: 0 },
  },
  ...(
    [
      ["name", "x", "Name must be at least 2 characters"],
      ["description", "short", "Description must be at least 10 characters"],
      ["link", "nope", "Must be a valid URL"],
      ["price", "", "Price is required, at most 40 characters"],
      ["badge", "", "Badge is required, at most 30 characters"],
    ] as const
  ).map(
    ([field, value, message]): Scenario => ({
      name: field,
      who: "admin",
      method: "POST",
      path: "/api/admin/recommended-product",
      body: { ...product, id: "custom_qq", [field]: value },
      status: 422,
      contains: [message],
      rows: { recommended_products: 0 },
    }),
  ),
]);

describe("products admin API as the admin", () => {
  test("create shows in the starter kit data; a taken id is 409; one default per group; delete, then 404", async () => {
    const api = await scenarioApp({ admin: true });
    const featured = await createProduct(api.db, { archetype: "Couple", isDefault: true });
    await api.check({
      who: "admin",
      method: "POST",
      path: "/api/admin/recommended-product",
      body: product,
      status: 201,
      rows: { recommended_products: 1 },
    });
    const couple = (await api.check({ path: "/api/recommended-products/Couple", status: 200 })).json<
      { id: string }[]
    >();
    expect(couple.map((p) => p.id)).toContain("custom_ab12cd34");
    await api.check({
      who: "admin",
      method: "POST",
      path: "/api/admin/recommended-product",
      body: product,
      status: 409,
      rows: { recommended_products: 0 },
    });

    await api.check({
      who: "admin",
      method: "PUT",
      path: "/api/admin/recommended-product/custom_ab12cd34",
      body: { ...product, isDefault: true },
      status: 200,
    });
    const after = (await api.check({ path: "/api/recommended-products/Couple", status: 200 })).json<
      { id: string; isDefault: boolean }[]
    >();
    expect(after.filter((p) => p.isDefault).map((p) => p.id)).toEqual(["custom_ab12cd34"]);
    expect(after.map((p) => p.id)).toContain(featured.id);

    await api.check({
      who: "admin",
      method: "DELETE",
      path: "/api/admin/recommended-product/custom_ab12cd34",
      status: 200,
      rows: { recommended_products: -1 },
    });
    await api.check({
      who: "admin",
      method: "DELETE",
      path: "/api/admin/recommended-product/custom_ab12cd34",
      status: 404,
    });
  });
});

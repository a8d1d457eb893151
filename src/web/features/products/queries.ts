import { useQuery } from "@tanstack/react-query";
import type { RecommendedProduct } from "#shared/features/products/contract.ts";
import { API } from "#shared/paths.ts";

export function useProducts(archetype: string | null) {
  return useQuery<RecommendedProduct[]>({ queryKey: [API.products(archetype ?? "")], enabled: Boolean(archetype) });
}

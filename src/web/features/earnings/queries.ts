import { useQuery } from "@tanstack/react-query";
import type { EarningsResult } from "#shared/features/earnings/contract.ts";
import { API } from "#shared/paths.ts";

export function useEarningsResult(id: string | null) {
  return useQuery<EarningsResult | null>({ queryKey: [API.earningsResult(id ?? "")], enabled: Boolean(id) });
}

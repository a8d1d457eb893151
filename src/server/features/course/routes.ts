import { Elysia, t } from "elysia";
import { getModule, listModules } from "./service.ts";

export function courseRoutes() {
  return new Elysia({ name: "course" })
    .get("/api/course/modules", () => listModules())
    .get("/api/course/modules/:id", ({ params }) => getModule(Number(params.id)), {
      params: t.Object({ id: t.String({ pattern: "^\\d{1,4}$", error: "Module id must be a whole number." }) }),
    });
}

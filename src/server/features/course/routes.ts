import { serveRead } from "#server/lib/reads.ts";
import { moduleRead, modulesRead } from "#shared/features/course/reads.ts";
import { getModule, listModules } from "./service.ts";

export const courseReads = [
  serveRead(modulesRead, () => listModules()),
  serveRead(moduleRead, (_, { id }) => getModule(Number(id))),
];

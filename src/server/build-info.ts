// Set by `bun run build` (--define); in a checkout it is the time the process started.
declare const CAM_GUIDE_BUILD_DATE: string | undefined;

export const BUILD_DATE = new Date(typeof CAM_GUIDE_BUILD_DATE === "string" ? CAM_GUIDE_BUILD_DATE : Date.now());

import packageJson from "#package.json" with { type: "json" };

// Set by `bun run build` (--define); in a checkout it is the time the process started.
declare const CAM_GUIDE_BUILD_DATE: string | undefined;
// Set by `bun run build` when it runs in a git checkout: the commit, and whether files differed from it.
declare const CAM_GUIDE_COMMIT: string | undefined;

export const BUILD_DATE = new Date(typeof CAM_GUIDE_BUILD_DATE === "string" ? CAM_GUIDE_BUILD_DATE : Date.now());

/**
 * "cam-guide 0.1.0 (commit 1a2b3c4d5e6f)": the release in package.json, and the commit the
 * executable was built from when the build knew it; from source, "(run from source)".
 */
export const VERSION_LINE = `cam-guide ${packageJson.version} (${
  typeof CAM_GUIDE_COMMIT === "string" && CAM_GUIDE_COMMIT ? `commit ${CAM_GUIDE_COMMIT}` : "run from source"
})`;

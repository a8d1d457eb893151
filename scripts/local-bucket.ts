// An S3-compatible server on this machine, to try several instances on loopback (docs/deploy.md,
// "Several instances behind a load balancer"): @20minutes/s3rver, the one the tests start, from
// the project's own dependencies. Not for a real site: it keeps objects in a plain folder, with
// fixed credentials. Stops on Ctrl-C.
//
//   bun run local-bucket [folder]   (default ./local-bucket; BUCKET_PORT, default 9000)
import { resolve } from "node:path";
import S3rver from "@20minutes/s3rver";

const BUCKET = "cam-guide-uploads";
const KEY = "S3RVER";
const directory = resolve(process.argv[2] ?? "local-bucket");
const port = Number(process.env.BUCKET_PORT ?? "9000");
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`BUCKET_PORT must be a whole number from 1 to 65535 (got "${process.env.BUCKET_PORT}")`);
  process.exit(1);
}

const server = new S3rver({
  port,
  address: "127.0.0.1",
  silent: true,
  directory,
  configureBuckets: [{ name: BUCKET }],
});
try {
  await server.run();
} catch (error) {
  const code = (error as { code?: string }).code;
  console.error(
    code === "EADDRINUSE"
      ? `Port ${port} is already in use on 127.0.0.1. Stop the other process or set BUCKET_PORT.`
      : `The bucket server could not start: ${(error as Error).message}`,
  );
  process.exit(1);
}

console.log(`A bucket "${BUCKET}" on http://127.0.0.1:${port}, its objects in ${directory}. Give each instance:
S3_BUCKET=${BUCKET}
S3_ENDPOINT=http://127.0.0.1:${port}
S3_REGION=us-east-1
S3_ACCESS_KEY_ID=${KEY}
S3_SECRET_ACCESS_KEY=${KEY}
Ctrl-C stops it.`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

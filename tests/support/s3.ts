// A local S3-compatible server for the tests (@20minutes/s3rver, from npm, on 127.0.0.1): the
// bucket the uploads are kept in when S3_BUCKET is set. Real HTTP and real signatures, its
// objects in a scratch folder; never a mock.
import S3rver from "@20minutes/s3rver";
import { S3Client } from "bun";
import type { BucketConfig } from "#server/features/media/store.ts";
import { scratchDir } from "./scratch.ts";

export interface TestBucket {
  /** What the site is started with to keep its uploads there. */
  env: Record<string, string>;
  /** A client on the same bucket, to look at what is kept. */
  client: S3Client;
  /** Where the site keeps uploads under the bucket. */
  prefix: string;
  /** The same bucket as an in-process app is configured with (TestAppOptions.uploadBucket). */
  config: BucketConfig;
  close(): Promise<void>;
  /** Serves the bucket again after close(), on the same address, with everything it held. */
  resume(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export async function startBucket(name = "cam-guide-test"): Promise<TestBucket> {
  const directory = scratchDir("s3rver");
  const serve = (port: number) =>
    new S3rver({ port, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name }] });
  let server = serve(0);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const prefix = "uploads/";
  return {
    env: {
      S3_BUCKET: name,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
    client: new S3Client({ bucket: name, endpoint, region: "us-east-1", ...CREDENTIALS }),
    prefix,
    config: { bucket: name, endpoint, region: "us-east-1", ...CREDENTIALS, prefix },
    close: () => server.close(),
    async resume() {
      // The same port and objects: to a site, the bucket was out of reach for a while.
      server = serve(port);
      await server.run();
    },
  };
}

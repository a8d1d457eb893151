// @20minutes/s3rver ships no types: what tests/support/s3.ts uses of it.
declare module "@20minutes/s3rver" {
  interface Options {
    port?: number;
    address?: string;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: Options);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}

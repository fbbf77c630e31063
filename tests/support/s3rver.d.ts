// s3rver (a dev-only S3-compatible server for tests) ships no types: the part the tests use.
declare module "s3rver" {
  type Options = {
    port?: number;
    address?: string;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: unknown[] }[];
  };
  export default class S3rver {
    constructor(options?: Options);
    run(): Promise<{ address: string; port: number; family: string }>;
    close(): Promise<void>;
  }
}

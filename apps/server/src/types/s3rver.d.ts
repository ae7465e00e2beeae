declare module "@20minutes/s3rver" {
  import type { AddressInfo } from "node:net";

  /** The fake S3 server used by the tests (the part of its API they use). */
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      resetOnClose?: boolean;
      allowMismatchedSignatures?: boolean;
      vhostBuckets?: boolean;
      configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
    });
    /** Its file store; listing through it sidesteps s3rver's mismatch with the SDK's signature of bucket listings. */
    store: { listObjects(bucket: string, options: object): Promise<{ objects: { key: string }[] }> };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "@20minutes/s3rver";

/** s3rver's fixed credentials. */
const KEY = "S3RVER";

/** A real (fake) S3 server on a free port with one empty bucket, and the settings that point the app at it. */
export async function startS3(bucket = "unheard-test"): Promise<{
  /** S3_* variables for loadConfig / a server process. */
  env: Record<string, string>;
  /** Keys of every object in the bucket. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}> {
  const directory = mkdtempSync(path.join(tmpdir(), "unheard-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
    },
    async keys() {
      // s3rver canonicalises a path-style listing URL without the SDK's trailing slash, so ListObjectsV2 through
      // the SDK fails its signature check; the objects the app reads and writes are signed alike on both sides.
      const { objects } = await server.store.listObjects(bucket, {});
      return objects.map((o) => o.key).sort();
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

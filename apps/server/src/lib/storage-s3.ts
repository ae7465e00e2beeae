import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Config } from "../config.js";
import { type AudioStorage, safeKey } from "./storage.js";

type Sdk = typeof import("@aws-sdk/client-s3");

/** A 404 from S3 (HeadObject answers NotFound without a body, GetObject NoSuchKey). */
function isNotFound(sdk: Sdk, err: unknown): boolean {
  return err instanceof sdk.S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === "NoSuchKey");
}

/** The SDK's Body is an IncomingMessage on Node; anything else is a bug in the wiring. */
function nodeStream(body: unknown): Readable {
  if (body instanceof Readable) return body;
  throw new Error("S3 returned no readable body");
}

/**
 * Audio in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, Garage, ...), so every instance sees every file.
 * Reads are proxied through the app (GetObject with Range) so access rules, ETag and caching stay the server's.
 */
export function createS3Storage(s3: S3Config, opts: { tmpDir: string }): AudioStorage {
  // The SDK loads on first use, so servers on local disk do not pay for it at start.
  let ready: Promise<{ sdk: Sdk; client: S3Client }> | undefined;
  const connect = () => {
    ready ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: s3.region,
        ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
        forcePathStyle: s3.forcePathStyle,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
        // Only checksum when S3 requires it: many S3-compatible stores reject the newer aws-chunked trailers.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        // One socket per listener streaming a song: allow many, and fail fast on a dead endpoint.
        requestHandler: {
          connectionTimeout: 5_000,
          requestTimeout: 60_000,
          httpAgent: { keepAlive: true, maxSockets: 256 },
          httpsAgent: { keepAlive: true, maxSockets: 256 },
        },
      }),
    }));
    return ready;
  };
  const Bucket = s3.bucket;
  const objectKey = (key: string) => `${s3.prefix}${safeKey(key)}`;

  return {
    async putFile(key, tempFile) {
      const { sdk, client } = await connect();
      const { size } = await stat(tempFile);
      // A single PutObject streams the file (uploads are at most MAX_UPLOAD_MB, well under S3's 5 GB limit).
      await client.send(
        new sdk.PutObjectCommand({
          Bucket,
          Key: objectKey(key),
          Body: createReadStream(tempFile),
          ContentLength: size,
        }),
      );
      await rm(tempFile, { force: true });
    },

    async read(key, range) {
      const { sdk, client } = await connect();
      const res = await client.send(
        new sdk.GetObjectCommand({
          Bucket,
          Key: objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return nodeStream(res.Body);
    },

    async size(key) {
      const Key = objectKey(key);
      const { sdk, client } = await connect();
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key }));
        return head.ContentLength;
      } catch (err) {
        if (isNotFound(sdk, err)) return undefined;
        throw err;
      }
    },

    async localFile(key) {
      const { sdk, client } = await connect();
      await mkdir(opts.tmpDir, { recursive: true });
      const file = path.join(opts.tmpDir, `${randomBytes(8).toString("hex")}-${safeKey(key)}.s3`);
      const release = () => rm(file, { force: true });
      try {
        const res = await client.send(new sdk.GetObjectCommand({ Bucket, Key: objectKey(key) }));
        await pipeline(nodeStream(res.Body), createWriteStream(file));
      } catch (err) {
        await release();
        throw err;
      }
      return { path: file, release };
    },

    async remove(key) {
      const { sdk, client } = await connect();
      // DeleteObject succeeds for a missing key too, like rm --force.
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
  };
}

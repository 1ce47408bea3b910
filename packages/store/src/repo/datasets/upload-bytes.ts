import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { formatBytes } from "@seed/model";

// The bytes of an upload as every import counts them, whatever its format: the size limit, and
// the announced size (Content-Length) that a shorter or longer stream must match.

export class UploadBytesError extends Error {
  override name = "UploadBytesError";
  constructor(
    readonly code: "file_too_large" | "incomplete_upload",
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** A pass-through that counts bytes, tells the total, and fails past the limit or off the announced size. */
export function byteCounter(
  maxBytes: number,
  onBytes: (bytes: number) => void,
  expectedBytes: number | undefined,
): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      onBytes(bytes);
      if (bytes > maxBytes) {
        callback(
          new UploadBytesError(
            "file_too_large",
            `The file is larger than the ${formatBytes(maxBytes)} limit.`,
          ),
        );
        return;
      }
      callback(null, buffer);
    },
    flush(callback) {
      if (expectedBytes !== undefined && bytes !== expectedBytes) {
        callback(
          new UploadBytesError(
            "incomplete_upload",
            `The upload ended after ${bytes.toLocaleString("en-US")} of ${expectedBytes.toLocaleString("en-US")} bytes.`,
          ),
        );
        return;
      }
      callback();
    },
  });
}

/** Spools a byte stream to `file`, counting bytes against the limit and the announced size. */
export async function spoolUpload(
  source: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>,
  file: string,
  maxBytes: number,
  onBytes: (bytes: number) => void,
  expectedBytes: number | undefined,
): Promise<void> {
  const input =
    source instanceof ReadableStream
      ? Readable.fromWeb(source as import("node:stream/web").ReadableStream<Uint8Array>)
      : Readable.from(source);
  await pipeline(input, byteCounter(maxBytes, onBytes, expectedBytes), createWriteStream(file));
}

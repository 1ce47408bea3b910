/**
 * A request body's bytes, read no further than `maxBytes`: null when the body reaches the limit
 * (a body cut exactly at the limit counts too), so no route buffers more than it accepts.
 */
export async function readBytesCapped(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes >= maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** A request body as UTF-8 text, read no further than `maxBytes` (see readBytesCapped). */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<string | null> {
  const bytes = await readBytesCapped(request, maxBytes);
  return bytes === null ? null : Buffer.from(bytes).toString("utf8");
}

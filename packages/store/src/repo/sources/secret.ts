import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ValidationError } from "@seed/model";

// Source passwords at rest: AES-256-GCM with a key only the environment holds (never a default),
// the source's id as associated data so a ciphertext cannot be moved to another source.

export const sourcesKeyVariable = "SEED_SOURCES_KEY";
const format = "v1";

/** Why the key cannot be used, as one sentence naming the variable; null when it can. */
export function sourcesKeyProblem(text: string | undefined): string | null {
  if (text === undefined || text.trim() === "") {
    return `Live sources need an encryption key: set ${sourcesKeyVariable} to 32 random bytes in base64 (openssl rand -base64 32) and restart.`;
  }
  if (decodeKey(text) === null) {
    return `${sourcesKeyVariable} must be 32 bytes in base64 (openssl rand -base64 32) or 64 hex digits.`;
  }
  return null;
}

function decodeKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, "base64");
  return key.length === 32 ? key : null;
}

/** The key, or a ValidationError saying which variable to set. */
export function sourcesKeyOf(text: string | undefined): Buffer {
  const problem = sourcesKeyProblem(text);
  if (problem !== null) throw new ValidationError({ fieldErrors: {}, formError: problem });
  return decodeKey(text as string) as Buffer;
}

export function encryptPassword(key: Buffer, sourceId: string, password: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(sourceId));
  const encrypted = Buffer.concat([cipher.update(password, "utf8"), cipher.final()]);
  return `${format}:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString("base64")}`;
}

export function decryptPassword(key: Buffer, sourceId: string, stored: string): string {
  const [version, body] = stored.split(":");
  const bytes = Buffer.from(body ?? "", "base64");
  if (version !== format || bytes.length < 28) {
    throw new ValidationError({
      fieldErrors: {},
      formError: "The source's stored password is unreadable.",
    });
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(sourceId));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new ValidationError({
      fieldErrors: {},
      formError: `The source's password cannot be decrypted: ${sourcesKeyVariable} is not the key it was saved with. Restore that key, or enter the password again.`,
    });
  }
}

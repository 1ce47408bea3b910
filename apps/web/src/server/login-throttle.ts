import "server-only";

// The sign-in server action calls better-auth's API directly, which skips its HTTP rate limiter,
// so failed attempts are counted here: per email, in this process.
const maxFailures = 10;
const windowMs = 15 * 60 * 1000;
const failures = new Map<string, { count: number; resetAt: number }>();

export function isLoginThrottled(email: string, now = Date.now()): boolean {
  const entry = failures.get(email);
  if (!entry) return false;
  if (entry.resetAt <= now) {
    failures.delete(email);
    return false;
  }
  return entry.count >= maxFailures;
}

export function recordLoginFailure(email: string, now = Date.now()): void {
  const entry = failures.get(email);
  if (!entry || entry.resetAt <= now) {
    failures.set(email, { count: 1, resetAt: now + windowMs });
    return;
  }
  entry.count += 1;
}

export function clearLoginFailures(email: string): void {
  failures.delete(email);
}

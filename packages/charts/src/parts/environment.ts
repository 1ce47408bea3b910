import { useEffect, useLayoutEffect, useSyncExternalStore } from "react";

declare const process: { env: Record<string, string | undefined> };

/** True unless the consumer's bundler marked this a production build. */
export function isDevelopment(): boolean {
  try {
    return process.env.NODE_ENV !== "production";
  } catch {
    return false;
  }
}

/** useLayoutEffect in the browser, useEffect on the server (where it never runs). */
export const useIsomorphicLayoutEffect =
  typeof window === "undefined" ? useEffect : useLayoutEffect;

const noSubscribe = () => () => {};

/** False during server rendering and hydration, true for renders that start on the client. */
export function useIsClientRender(): boolean {
  return useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
}

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

function subscribeReducedMotion(onChange: () => void): () => void {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener?.("change", onChange);
  return () => query.removeEventListener?.("change", onChange);
}

/** Whether the user asked for reduced motion; the server assumes yes so its markup has no animation. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () =>
      typeof window !== "undefined" && typeof window.matchMedia === "function"
        ? window.matchMedia(REDUCED_MOTION).matches
        : true,
    () => true,
  );
}

/** Longest mount animation of any chart: one that takes longer to settle feels slow (issue 11). */
export const ANIMATION_MS = 400;

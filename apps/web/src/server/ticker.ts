/**
 * Runs `work` now when asked and every `tickMs` (the timer does not keep the process alive); a
 * tick asked while one runs shares it, so two never overlap. For the schedules' clocks (reports
 * due, alerts due): what a tick enqueues is keyed, so a tick more or less changes nothing.
 */
export function startTicker(
  work: () => Promise<number>,
  tickMs: number,
  onError?: (error: unknown) => void,
): { tick(): Promise<number>; stop(): Promise<void> } {
  let ticking: Promise<number> | null = null;
  const tick = () => {
    ticking ??= work().finally(() => {
      ticking = null;
    });
    return ticking;
  };
  const timer = setInterval(() => {
    tick().catch((error) => onError?.(error));
  }, tickMs);
  timer.unref();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await ticking?.catch(() => undefined);
    },
  };
}

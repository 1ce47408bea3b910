/**
 * Lucide's circle-x drawn inline: the icon runtime of @seed/ui cost LineChart 1.3 kB gzip. Its
 * size and stroke are in styles.css (.seed-chart-state svg), where they cost no script.
 */
function CircleX() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="12" cy="12" r="10" />
      <path d="m15 9-6 6m0-6 6 6" />
    </svg>
  );
}

/** Shown instead of the plot when there is nothing valid to draw. */
export function EmptyState({ message, reason }: { message: string; reason: string | null }) {
  return (
    <div className="seed-chart-state" data-testid="seed-chart-empty">
      <CircleX />
      <p>{message}</p>
      {reason && reason !== message ? <small>{reason}</small> : null}
    </div>
  );
}

/** A pulsing block of the plot's exact size while data loads. */
export function LoadingState() {
  return <div className="seed-chart-skeleton" data-testid="seed-chart-skeleton" />;
}

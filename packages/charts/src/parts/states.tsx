import { CircleXIcon } from "@seed/ui";

/** Shown instead of the plot when there is nothing valid to draw. */
export function EmptyState({ message, reason }: { message: string; reason: string | null }) {
  return (
    <div className="seed-chart-state" data-testid="seed-chart-empty">
      <CircleXIcon size={24} />
      <p style={{ margin: 0 }}>{message}</p>
      {reason && reason !== message ? (
        <p style={{ margin: 0, fontSize: "0.75rem" }}>{reason}</p>
      ) : null}
    </div>
  );
}

/** A pulsing block of the plot's exact size while data loads. */
export function LoadingState() {
  return <div className="seed-chart-skeleton" data-testid="seed-chart-skeleton" />;
}

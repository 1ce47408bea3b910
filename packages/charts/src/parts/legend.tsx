export type LegendPosition = "top" | "bottom" | "left" | "right";

export interface LegendEntry {
  key: string;
  label: string;
  color: string;
}

export interface ChartLegendProps {
  entries: readonly LegendEntry[];
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
  onHighlight: (key: string | null) => void;
}

/** Names longer than this may be cut by the CSS ellipsis, so they get a full-name tooltip. */
const LONG_NAME = 22;

/** The legend: one toggle button per series; Enter and Space toggle like a click. */
export function ChartLegend({ entries, hidden, onToggle, onHighlight }: ChartLegendProps) {
  return (
    <ul className="seed-chart-legend" aria-label="Legend: press a series to hide or show it">
      {entries.map((entry) => {
        const shown = !hidden.has(entry.key);
        return (
          <li
            key={entry.key}
            className="seed-chart-legend-item"
            onMouseEnter={() => onHighlight(shown ? entry.key : null)}
            onMouseLeave={() => onHighlight(null)}
          >
            <button
              type="button"
              className="seed-chart-legend-button"
              aria-pressed={shown}
              onClick={() => onToggle(entry.key)}
              onFocus={() => onHighlight(shown ? entry.key : null)}
              onBlur={() => onHighlight(null)}
            >
              <span
                className="seed-chart-swatch"
                style={{ color: entry.color, background: shown ? entry.color : "transparent" }}
              />
              <span className="seed-chart-legend-name">{entry.label}</span>
            </button>
            {entry.label.length > LONG_NAME ? (
              <span className="seed-chart-legend-full" role="tooltip">
                {entry.label}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** Placeholder legend for the loading state, the same height as the real one. */
export function LegendSkeleton({ count }: { count: number }) {
  return (
    <ul className="seed-chart-legend" aria-hidden="true">
      {Array.from({ length: Math.max(1, count) }, (_, i) => `chip-${i}`).map((id) => (
        <li key={id} className="seed-chart-legend-item">
          <span className="seed-chart-skeleton-chip" />
        </li>
      ))}
    </ul>
  );
}

import { useId, useState } from "react";

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
  /** Pressing an entry calls this instead of onToggle (the chart's onLegendSelect). */
  onSelect?: ((key: string) => void) | undefined;
  onHighlight: (key: string | null) => void;
  /** Entries shown before a "+N more" button (default 8). */
  limit?: number;
}

/** Names longer than this may be cut by the CSS ellipsis, so they get a full-name tooltip. */
const LONG_NAME = 22;
/** Entries listed before the rest fold behind "+N more": two rows of an average legend. */
export const LEGEND_LIMIT = 8;

/**
 * The legend: one toggle button per series (or, with onSelect, one that selects it); Enter and
 * Space press it like a click. Past `limit` entries the rest fold behind a "+N more" button;
 * unfolded, the list scrolls instead of growing.
 */
export function ChartLegend({
  entries,
  hidden,
  onToggle,
  onSelect,
  onHighlight,
  limit = LEGEND_LIMIT,
}: ChartLegendProps) {
  const listId = useId();
  const [expanded, setExpanded] = useState(false);
  // one extra entry is never worth a button of its own
  const folds = entries.length > limit + 1;
  const shown = folds && !expanded ? entries.slice(0, limit) : entries;
  return (
    <ul
      id={listId}
      className="seed-chart-legend"
      data-expanded={folds && expanded ? "" : undefined}
      aria-label={`Legend: press a series to ${onSelect ? "select" : "hide or show"} it`}
    >
      {shown.map((entry) => {
        const visible = !hidden.has(entry.key);
        return (
          <li
            key={entry.key}
            className="seed-chart-legend-item"
            onMouseEnter={() => onHighlight(visible ? entry.key : null)}
            onMouseLeave={() => onHighlight(null)}
          >
            <button
              type="button"
              className="seed-chart-legend-button"
              aria-pressed={onSelect ? undefined : visible}
              onClick={() => (onSelect ?? onToggle)(entry.key)}
              onFocus={() => onHighlight(visible ? entry.key : null)}
              onBlur={() => onHighlight(null)}
            >
              <span
                className="seed-chart-swatch"
                style={{ color: entry.color, background: visible ? entry.color : "transparent" }}
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
      {folds ? (
        <li className="seed-chart-legend-item">
          <button
            type="button"
            className="seed-chart-legend-button seed-chart-legend-more"
            aria-expanded={expanded}
            aria-controls={listId}
            onClick={() => setExpanded((open) => !open)}
          >
            {expanded ? "Show fewer" : `+${entries.length - limit} more`}
          </button>
        </li>
      ) : null}
    </ul>
  );
}

/** Placeholder legend for the loading state, the same height as the real one. */
export function LegendSkeleton({ count }: { count: number }) {
  return (
    <ul className="seed-chart-legend" aria-hidden="true">
      {Array.from(
        { length: Math.min(LEGEND_LIMIT + 1, Math.max(1, count)) },
        (_, i) => `chip-${i}`,
      ).map((id) => (
        <li key={id} className="seed-chart-legend-item">
          <span className="seed-chart-skeleton-chip" />
        </li>
      ))}
    </ul>
  );
}

import { ArrowUp, CircleCheck, CircleX, TriangleAlert } from "lucide-react";
import type { HTMLAttributes } from "react";
import { Icon } from "../icons/icon";
import type { IconName } from "../icons/icon-types";
import { ArrowDownIcon } from "../icons/lucide-icons";
import {
  formatSignedPercent,
  formatStatValue,
  type StatTileFigures,
  type Trend,
  trendOf,
} from "./format";

export interface StatTileProps
  extends HTMLAttributes<HTMLDivElement>,
    Omit<StatTileFigures, "status"> {
  icon?: IconName;
  /** Shows a skeleton and marks the tile aria-busy. */
  loading?: boolean;
  /**
   * How the value stands against a target: colours the value and adds an icon and words, so
   * colour is never the only sign, e.g. { tone: "bad", label: "below target" }.
   */
  status?: StatTileStatus;
}

export type StatTileTone = "good" | "warning" | "bad";

export interface StatTileStatus {
  tone: StatTileTone;
  label: string;
}

const TONE_ICON = { good: CircleCheck, warning: TriangleAlert, bad: CircleX } as const;

const TREND_WORD: Record<Trend, string> = { up: "up", down: "down", flat: "no change" };

export function StatTile({
  label,
  value,
  format,
  locale,
  delta,
  deltaLabel,
  icon,
  loading = false,
  emptyReason,
  status,
  className,
  ...rest
}: StatTileProps) {
  const written = formatStatValue(value, locale, format);
  const hasValue = written !== null;
  const showDelta = !loading && delta !== undefined && Number.isFinite(delta);
  return (
    <div
      className={className ? `seed-stat-tile ${className}` : "seed-stat-tile"}
      aria-busy={loading || undefined}
      {...rest}
    >
      <div className="seed-stat-tile__header">
        {icon ? <Icon name={icon} size={18} className="seed-stat-tile__icon" /> : null}
        <p className="seed-stat-tile__label">{label}</p>
      </div>
      {loading ? (
        <div className="seed-stat-tile__skeleton" data-testid="stat-tile-skeleton">
          <span className="seed-skeleton seed-skeleton--value" />
          <span className="seed-skeleton seed-skeleton--delta" />
          <span className="seed-visually-hidden">Loading</span>
        </div>
      ) : (
        <p
          className={
            status && hasValue
              ? `seed-stat-tile__value seed-stat-tile__value--${status.tone}`
              : "seed-stat-tile__value"
          }
          data-tone={status && hasValue ? status.tone : undefined}
        >
          {hasValue ? (
            written
          ) : (
            <>
              <span aria-hidden="true">—</span>
              <span className="seed-visually-hidden">no data</span>
            </>
          )}
        </p>
      )}
      {!hasValue && !loading && emptyReason ? (
        <p className="seed-stat-tile__empty">{emptyReason}</p>
      ) : null}
      {status && hasValue && !loading ? <StatStatus status={status} /> : null}
      {showDelta ? <StatDelta delta={delta} locale={locale} deltaLabel={deltaLabel} /> : null}
    </div>
  );
}

function StatDelta({
  delta,
  locale,
  deltaLabel,
}: {
  delta: number;
  locale: string | undefined;
  deltaLabel: string | undefined;
}) {
  const trend = trendOf(delta);
  return (
    <p className={`seed-stat-tile__delta seed-stat-tile__delta--${trend}`} data-trend={trend}>
      {trend === "down" ? <ArrowDownIcon size={16} className="seed-stat-tile__trend-icon" /> : null}
      {trend === "up" ? (
        <ArrowUp
          size={16}
          aria-hidden="true"
          focusable="false"
          className="seed-icon seed-stat-tile__trend-icon"
          data-seed-icon="arrow-up"
        />
      ) : null}
      <span className="seed-stat-tile__delta-value">{formatSignedPercent(delta, locale)}</span>
      <span className="seed-visually-hidden"> ({TREND_WORD[trend]})</span>
      {deltaLabel ? <span className="seed-stat-tile__delta-label"> {deltaLabel}</span> : null}
    </p>
  );
}

function StatStatus({ status }: { status: StatTileStatus }) {
  const ToneIcon = TONE_ICON[status.tone];
  return (
    <p className={`seed-stat-tile__status seed-stat-tile__status--${status.tone}`}>
      <ToneIcon
        size={16}
        aria-hidden="true"
        focusable="false"
        className="seed-icon seed-stat-tile__status-icon"
      />
      <span>{status.label}</span>
    </p>
  );
}

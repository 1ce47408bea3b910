"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

const clock = { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" } as const;

function everyLabel(seconds: number): string {
  return seconds < 60
    ? `${seconds} seconds`
    : seconds === 60
      ? "minute"
      : `${seconds / 60} minutes`;
}

/**
 * "Updated HH:MM:SS" for the data on the page, and, with an interval, a refresh of the page's
 * server data (router.refresh) that pauses while the tab is hidden and runs at once when it is
 * shown again. Screen readers hear about new data only when it changed, not on every tick.
 */
export function AutoRefresh({
  intervalSeconds,
  renderedAt,
  dataKey,
}: {
  /** Seconds between refreshes; null is off. */
  intervalSeconds: number | null;
  /** When the server rendered this data (ISO). */
  renderedAt: string;
  /** Changes only when the shown data does. */
  dataKey: string;
}) {
  const router = useRouter();
  // The server's clock is UTC; after hydration the reader's own time zone.
  const [time, setTime] = useState(
    () => `${new Date(renderedAt).toLocaleTimeString("en-GB", { ...clock, timeZone: "UTC" })} UTC`,
  );
  const [announcement, setAnnouncement] = useState("");
  const shownKey = useRef(dataKey);

  useEffect(() => {
    const local = new Date(renderedAt).toLocaleTimeString("en-GB", clock);
    setTime(local);
    if (shownKey.current !== dataKey) {
      shownKey.current = dataKey;
      setAnnouncement(`Data updated at ${local}.`);
    }
  }, [renderedAt, dataKey]);

  useEffect(() => {
    if (!intervalSeconds) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      timer ??= setInterval(() => router.refresh(), intervalSeconds * 1000);
    };
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
    };
    const onVisibilityChange = () => {
      if (document.hidden) return stop();
      router.refresh();
      start();
    };
    if (!document.hidden) start();
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
  }, [intervalSeconds, router]);

  return (
    <p className="refresh-status muted" data-testid="refresh-status">
      <time dateTime={renderedAt}>Updated {time}</time>
      {intervalSeconds ? ` · refreshes every ${everyLabel(intervalSeconds)}` : null}
      <span role="status" className="visually-hidden">
        {announcement}
      </span>
    </p>
  );
}

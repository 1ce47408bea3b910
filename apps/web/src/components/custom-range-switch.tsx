"use client";

import { useEffect } from "react";

/**
 * With JavaScript, typing a From or To date sets the period to "Custom dates", which is what the
 * dates mean; without it the visitor picks "Custom dates" (the form says so).
 */
export function CustomRangeSwitch({
  rangeId,
  dateIds,
  customValue,
}: {
  rangeId: string;
  dateIds: readonly string[];
  customValue: string;
}) {
  useEffect(() => {
    const range = document.getElementById(rangeId);
    const dates = dateIds.flatMap((id) => document.getElementById(id) ?? []);
    const toCustom = () => {
      if (range instanceof HTMLSelectElement) range.value = customValue;
    };
    for (const date of dates) date.addEventListener("input", toCustom);
    return () => {
      for (const date of dates) date.removeEventListener("input", toCustom);
    };
  }, [rangeId, dateIds, customValue]);
  return null;
}

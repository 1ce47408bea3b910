/** An ISO instant as the admin pages show it: UTC, to the minute ("2026-11-30 07:00 UTC"). */
export function minuteText(stamp: string | null, absent = "Never"): string {
  return stamp ? `${stamp.replace("T", " ").slice(0, 16)} UTC` : absent;
}

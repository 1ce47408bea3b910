import type { CSSProperties } from "react";
import type { IconName } from "./icon-names";

export { type IconName, iconNames } from "./icon-names";

export interface IconProps {
  /** Width and height; a number is pixels. Default 24. */
  size?: number | string;
  /** Stroke width of outline icons (brand icons are filled and ignore it). Default 2. */
  strokeWidth?: number;
  /** Accessible name: makes the icon role="img". Without it the icon is aria-hidden. */
  label?: string;
  className?: string;
  style?: CSSProperties;
}

/** ARIA attributes for an icon: named image when labelled, hidden decoration otherwise. */
export function iconA11yProps(label: string | undefined) {
  return label
    ? ({ role: "img", "aria-label": label } as const)
    : ({ "aria-hidden": true } as const);
}

export function iconClassName(name: IconName, className: string | undefined): string {
  return className ? `seed-icon seed-icon--${name} ${className}` : `seed-icon seed-icon--${name}`;
}

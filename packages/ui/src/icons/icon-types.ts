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

/**
 * The attributes every icon's root <svg> takes, in this order: the seed-icon classes, style, its
 * name, no focus stop, and a named image when labelled or hidden decoration otherwise.
 */
export function iconRootProps(
  name: IconName,
  { label, className, style }: Pick<IconProps, "label" | "className" | "style">,
) {
  return {
    className: className
      ? `seed-icon seed-icon--${name} ${className}`
      : `seed-icon seed-icon--${name}`,
    style,
    "data-seed-icon": name,
    focusable: "false",
    ...(label
      ? ({ role: "img", "aria-label": label } as const)
      : ({ "aria-hidden": true } as const)),
  } as const;
}

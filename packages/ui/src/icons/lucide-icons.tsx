import {
  ArrowDown,
  Bookmark,
  Bug,
  Building,
  CirclePlay,
  CircleX,
  Crown,
  Database,
  Folder,
  Grid3x3,
  Handshake,
  HeartHandshake,
  type LucideIcon,
  MessageSquareReply,
  ShoppingCart,
  ThumbsUp,
} from "lucide-react";
import { forwardRef } from "react";
import { type IconName, type IconProps, iconRootProps } from "./icon-types";

function createOutlineIcon(name: IconName, Glyph: LucideIcon) {
  const OutlineIcon = forwardRef<SVGSVGElement, IconProps>(function OutlineIcon(
    { size = 24, strokeWidth = 2, label, className, style },
    ref,
  ) {
    return (
      <Glyph
        ref={ref}
        size={size}
        strokeWidth={strokeWidth}
        color="currentColor"
        {...iconRootProps(name, { label, className, style })}
      />
    );
  });
  OutlineIcon.displayName = `${Glyph.displayName ?? name}Icon`;
  return OutlineIcon;
}

export const CrownIcon = /* @__PURE__ */ createOutlineIcon("crown", Crown);
export const FolderIcon = /* @__PURE__ */ createOutlineIcon("folder", Folder);
export const BuildingIcon = /* @__PURE__ */ createOutlineIcon("building", Building);
export const HandshakeIcon = /* @__PURE__ */ createOutlineIcon("handshake", Handshake);
export const ShoppingCartIcon = /* @__PURE__ */ createOutlineIcon("shopping-cart", ShoppingCart);
export const CirclePlayIcon = /* @__PURE__ */ createOutlineIcon("circle-play", CirclePlay);
export const BugIcon = /* @__PURE__ */ createOutlineIcon("bug", Bug);
export const DatabaseIcon = /* @__PURE__ */ createOutlineIcon("database", Database);
export const BookmarkIcon = /* @__PURE__ */ createOutlineIcon("bookmark", Bookmark);
export const HeartHandshakeIcon = /* @__PURE__ */ createOutlineIcon(
  "heart-handshake",
  HeartHandshake,
);
export const MessageSquareReplyIcon = /* @__PURE__ */ createOutlineIcon(
  "message-square-reply",
  MessageSquareReply,
);
export const ArrowDownIcon = /* @__PURE__ */ createOutlineIcon("arrow-down", ArrowDown);
export const CircleXIcon = /* @__PURE__ */ createOutlineIcon("circle-x", CircleX);
// Lucide renamed "grid" to Grid3x3; the name callers use stays "grid".
export const GridIcon = /* @__PURE__ */ createOutlineIcon("grid", Grid3x3);
export const ThumbsUpIcon = /* @__PURE__ */ createOutlineIcon("thumbs-up", ThumbsUp);

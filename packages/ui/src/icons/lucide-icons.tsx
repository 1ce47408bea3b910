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
import { type IconName, type IconProps, iconA11yProps, iconClassName } from "./icon-types";

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
        className={iconClassName(name, className)}
        style={style}
        data-seed-icon={name}
        focusable="false"
        {...iconA11yProps(label)}
      />
    );
  });
  OutlineIcon.displayName = `${Glyph.displayName ?? name}Icon`;
  return OutlineIcon;
}

export const CrownIcon = createOutlineIcon("crown", Crown);
export const FolderIcon = createOutlineIcon("folder", Folder);
export const BuildingIcon = createOutlineIcon("building", Building);
export const HandshakeIcon = createOutlineIcon("handshake", Handshake);
export const ShoppingCartIcon = createOutlineIcon("shopping-cart", ShoppingCart);
export const CirclePlayIcon = createOutlineIcon("circle-play", CirclePlay);
export const BugIcon = createOutlineIcon("bug", Bug);
export const DatabaseIcon = createOutlineIcon("database", Database);
export const BookmarkIcon = createOutlineIcon("bookmark", Bookmark);
export const HeartHandshakeIcon = createOutlineIcon("heart-handshake", HeartHandshake);
export const MessageSquareReplyIcon = createOutlineIcon("message-square-reply", MessageSquareReply);
export const ArrowDownIcon = createOutlineIcon("arrow-down", ArrowDown);
export const CircleXIcon = createOutlineIcon("circle-x", CircleX);
// Lucide renamed "grid" to Grid3x3; the name callers use stays "grid".
export const GridIcon = createOutlineIcon("grid", Grid3x3);
export const ThumbsUpIcon = createOutlineIcon("thumbs-up", ThumbsUp);

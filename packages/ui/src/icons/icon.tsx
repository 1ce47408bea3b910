import type { ComponentType } from "react";
import { GithubIcon, InstagramIcon } from "./brand-icons";
import type { IconName, IconProps } from "./icon-types";
import {
  ArrowDownIcon,
  BookmarkIcon,
  BugIcon,
  BuildingIcon,
  CirclePlayIcon,
  CircleXIcon,
  CrownIcon,
  DatabaseIcon,
  FolderIcon,
  GridIcon,
  HandshakeIcon,
  HeartHandshakeIcon,
  MessageSquareReplyIcon,
  ShoppingCartIcon,
  ThumbsUpIcon,
} from "./lucide-icons";

export const iconComponents: Readonly<Record<IconName, ComponentType<IconProps>>> = {
  crown: CrownIcon,
  folder: FolderIcon,
  building: BuildingIcon,
  handshake: HandshakeIcon,
  "shopping-cart": ShoppingCartIcon,
  "circle-play": CirclePlayIcon,
  bug: BugIcon,
  database: DatabaseIcon,
  bookmark: BookmarkIcon,
  "heart-handshake": HeartHandshakeIcon,
  "message-square-reply": MessageSquareReplyIcon,
  github: GithubIcon,
  "arrow-down": ArrowDownIcon,
  "circle-x": CircleXIcon,
  grid: GridIcon,
  "thumbs-up": ThumbsUpIcon,
  instagram: InstagramIcon,
};

export interface NamedIconProps extends IconProps {
  name: IconName;
}

/** Renders one of the kit's icons by name, e.g. from data such as a dashboard tile config. */
export function Icon({ name, ...props }: NamedIconProps) {
  const Component = iconComponents[name];
  return <Component {...props} />;
}

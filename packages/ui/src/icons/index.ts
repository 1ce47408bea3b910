export { GithubIcon, InstagramIcon } from "./brand-icons";
export { Icon, iconComponents, type NamedIconProps } from "./icon";
export { type IconName, type IconProps, iconNames } from "./icon-types";
export {
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

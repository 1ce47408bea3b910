import { apiMethodNotAllowed } from "@/server/api-v1";
import { historyRoutes } from "@/server/api-v1-history";

export const dynamic = "force-dynamic";

/** Every kept version of a dashboard, newest first, a page at a time. */
export const GET = historyRoutes("dashboard", "slug").list;

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);

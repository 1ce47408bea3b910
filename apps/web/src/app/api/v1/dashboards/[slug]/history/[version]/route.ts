import { apiMethodNotAllowed } from "@/server/api-v1";
import { historyRoutes } from "@/server/api-v1-history";

export const dynamic = "force-dynamic";

/** One kept version of a dashboard, with its snapshot. */
export const GET = historyRoutes("dashboard", "slug").one;

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);

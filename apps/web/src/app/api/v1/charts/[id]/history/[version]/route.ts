import { apiMethodNotAllowed } from "@/server/api-v1";
import { historyRoutes } from "@/server/api-v1-history";

export const dynamic = "force-dynamic";

/** One kept version of a chart, with its snapshot. */
export const GET = historyRoutes("chart", "id").one;

export const POST = () => apiMethodNotAllowed(["GET", "HEAD"]);

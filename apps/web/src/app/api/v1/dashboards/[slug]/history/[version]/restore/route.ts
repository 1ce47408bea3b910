import { apiMethodNotAllowed } from "@/server/api-v1";
import { historyRoutes } from "@/server/api-v1-history";

export const dynamic = "force-dynamic";

/** Restores a dashboard to a kept version, as one new version (If-Match guarded). */
export const POST = historyRoutes("dashboard", "slug").restore;

export const GET = () => apiMethodNotAllowed(["POST"]);

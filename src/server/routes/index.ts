// Every route module of the server. A new group of operations is a new module
// exporting a Route[] listed here.

import type { Route } from "../http.js";
import { authRoutes } from "./auth.js";
import { eventRoutes } from "./events.js";
import { flagRoutes } from "./flags.js";
import { messageRoutes } from "./messages.js";
import { registerRoutes } from "./register.js";
import { sendRoutes } from "./send.js";
import { topicRoutes } from "./topics.js";

export const allRoutes: Route[] = [
  ...authRoutes,
  ...registerRoutes,
  ...eventRoutes,
  ...messageRoutes,
  ...sendRoutes,
  ...flagRoutes,
  ...topicRoutes,
];

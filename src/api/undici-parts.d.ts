// Types for the two undici modules the api layer imports directly (see http.ts): they are
// the package's own Agent class and Dispatcher#request, so they take the package's types.
declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}

declare module "undici/lib/dispatcher/env-http-proxy-agent.js" {
  import type { EnvHttpProxyAgent } from "undici";
  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent;
  export default EnvHttpProxyAgentClass;
}

declare module "undici/lib/dispatcher/dispatcher.js" {
  import type { Dispatcher } from "undici";
  const DispatcherClass: typeof Dispatcher;
  export default DispatcherClass;
}

declare module "undici/lib/api/api-connect.js" {
  const connect: (...args: unknown[]) => unknown;
  export default connect;
}

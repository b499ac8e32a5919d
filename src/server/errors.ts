// Error values of the reference server. Every failure a handler wants to report
// is thrown as an ApiError; the HTTP layer turns it into the error envelope
// `{result: "error", msg, code, ...extra}` with the given HTTP status.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(msg);
  }

  body(): Record<string, unknown> {
    return { result: "error", msg: this.message, code: this.code, ...this.extra };
  }
}

/** A generic 400 error with code BAD_REQUEST. */
export function badRequest(msg: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(400, "BAD_REQUEST", msg, extra);
}

export function missingArgument(name: string): ApiError {
  return new ApiError(400, "REQUEST_VARIABLE_MISSING", `Missing '${name}' argument`, { var_name: name });
}

export function badNarrow(what: string): ApiError {
  return new ApiError(400, "BAD_NARROW", `Invalid narrow operator: ${what}`);
}

export function incompatibleParameters(names: string[]): ApiError {
  const list = names.join(", ");
  return badRequest(`Unsupported parameter combination: ${list}`, { parameters: list });
}

export function channelNameNotFound(name: string): ApiError {
  return new ApiError(400, "STREAM_DOES_NOT_EXIST", `Channel '${name}' does not exist`, { stream: name });
}

export function channelIdNotFound(id: number): ApiError {
  return new ApiError(400, "STREAM_DOES_NOT_EXIST", `Channel with ID '${id}' does not exist`, {
    stream_id: id,
  });
}

export function badEventQueue(queueId: string): ApiError {
  return new ApiError(400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${queueId}`, { queue_id: queueId });
}

export function notLoggedIn(): ApiError {
  return new ApiError(401, "UNAUTHORIZED", "Not logged in: API authentication or user session required");
}

export function invalidApiKey(): ApiError {
  return new ApiError(401, "INVALID_API_KEY", "Invalid API key");
}

export function userDeactivated(): ApiError {
  return new ApiError(401, "USER_DEACTIVATED", "Account is deactivated");
}

export function authenticationFailed(): ApiError {
  return new ApiError(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect");
}

export function endpointNotFound(): ApiError {
  return new ApiError(404, "BAD_REQUEST", "Endpoint not found");
}

export function methodNotAllowed(allowed: string[]): ApiError {
  return new ApiError(405, "BAD_REQUEST", "Method Not Allowed", { allowed_methods: allowed }, {
    Allow: allowed.join(", "),
  });
}

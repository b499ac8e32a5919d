/**
 * Since feature level 167 a success response names the parameters the
 * server did not understand in `ignored_parameters_unsupported`. Every route
 * returns the parsed response with that field kept; this reads it.
 */
export function ignoredParameters(res: { ignored_parameters_unsupported?: readonly string[] | undefined }): string[] {
  return [...(res.ignored_parameters_unsupported ?? [])];
}

/** A short warning for logs or a status line, or undefined when nothing was ignored. */
export function describeIgnoredParameters(
  endpoint: string,
  res: { ignored_parameters_unsupported?: readonly string[] | undefined },
): string | undefined {
  const ignored = ignoredParameters(res);
  return ignored.length ? `${endpoint}: the server ignored ${ignored.join(", ")} (not supported by this server version)` : undefined;
}

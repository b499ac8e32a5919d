/** `termchat api METHOD PATH [key=value …]`: any endpoint, JSON in, pretty JSON out. */
import * as z from "zod";
import { ApiError } from "../../api/errors.js";
import type { ApiClient } from "../../api/http.js";
import type { ApiArgs } from "../args-commands.js";
import { safeJson, type CommandIO } from "./io.js";

const anySuccess = z.looseObject({ result: z.literal("success"), msg: z.string() });

/**
 * Prints the response. Only GETs are retried (the client's default): a raw
 * call may be anything. A refusal prints the error envelope on stdout too
 * (scripts may want its fields) and rethrows for the exit status.
 */
export async function runApi(args: ApiArgs, client: ApiClient, io: CommandIO): Promise<number> {
  try {
    const res = await client.request(args.method, args.path, { params: args.params, schema: anySuccess });
    io.stdout.write(`${safeJson(res)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof ApiError) {
      io.stdout.write(`${safeJson({ result: "error", msg: err.message, code: err.code, ...err.data })}\n`);
    }
    throw err;
  }
}

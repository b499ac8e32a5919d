/**
 * What every user action against the server answers: a value, or a failure
 * with one line a person can read. The line is made here, from the api's
 * error types, and nowhere else.
 */
import { ApiError, describeError, TermchatApiError } from "../../api/errors.js";
import type { ApiClient } from "../../api/http.js";
import { missingFeature, type Feature } from "../../model/features.js";
import type { DraftJournal } from "../draft-journal.js";
import type { DraftSync } from "../draft-sync.js";
import type { Outbox } from "../outbox.js";
import type { UpdateMachine } from "../update-machine.js";

export interface ActionError {
  /** The server's error code (`BAD_REQUEST`, `REACTION_DOES_NOT_EXIST`…), or the failure's kind. */
  code?: string;
  /** One line for the status line. */
  message: string;
}

export type ActionResult<T = void> = { ok: true; value: T } | { ok: false; error: ActionError };

/** What the actions reach: one account's live connection and its local state. */
export interface ActionSession {
  readonly machine: UpdateMachine;
  readonly outbox: Outbox;
  readonly journal: DraftJournal;
  readonly drafts: DraftSync;
}

export function succeeded<T>(value: T): ActionResult<T> {
  return { ok: true, value };
}

export function failed<T = never>(message: string, code?: string): ActionResult<T> {
  return { ok: false, error: code === undefined ? { message } : { code, message } };
}

/** The failure a thrown value stands for. */
export function actionError(err: unknown): ActionError {
  if (err instanceof ApiError) return { code: err.code, message: describeError(err) };
  if (err instanceof TermchatApiError) return { code: err.kind, message: describeError(err) };
  return { message: describeError(err) };
}

/** Runs a request (or several); whatever it throws becomes the failure. */
export async function perform<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return succeeded(await work());
  } catch (err) {
    return { ok: false, error: actionError(err) };
  }
}

/** Runs a request with the session's connection. */
export function request<T>(session: Pick<ActionSession, "machine">, work: (client: ApiClient) => Promise<T>): Promise<ActionResult<T>> {
  return perform(() => work(session.machine.client));
}

/** Runs a request whose answer the caller has no use for (the store follows through events). */
export async function command(session: Pick<ActionSession, "machine">, work: (client: ApiClient) => Promise<unknown>): Promise<ActionResult> {
  const r = await request(session, work);
  return r.ok ? { ok: true, value: undefined } : r;
}

/**
 * The failure an action returns when the server is too old for it (checked against the
 * current store's feature level; before the first store, the server answers for itself).
 */
export function unsupported(session: Pick<ActionSession, "machine">, feature: Feature): ActionResult<never> | undefined {
  const level = session.machine.store?.realm.featureLevel;
  const why = level === undefined ? undefined : missingFeature(level, feature);
  return why === undefined ? undefined : failed(why, "UNSUPPORTED_FEATURE");
}

/**
 * Typed errors: every answer of 400 or more becomes a PassServiceError subclass, chosen by the
 * error's `type` (401: AuthenticationError). Network failures that outlast the retries stay
 * fetch's own TypeError.
 */

export interface ErrorBody {
  error?: { type?: string; code?: string; param?: string; message?: string; [member: string]: unknown };
  requestId?: string;
}

export class PassServiceError extends Error {
  readonly status: number;
  readonly type: string | undefined;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody, requestId?: string | null) {
    const error = body.error ?? {};
    const id = body.requestId ?? requestId ?? undefined;
    super(`${status} ${error.type ?? error.code}: ${error.message ?? `HTTP ${status}`} (requestId ${id})`);
    this.name = new.target.name;
    this.status = status;
    this.type = error.type;
    this.code = error.code;
    this.param = error.param;
    this.requestId = id;
    this.body = body;
  }
}

/** 400, 413, 422...: the request was refused as it is. */
export class InvalidRequestError extends PassServiceError {}
/** 401: a missing, malformed, unknown or revoked API key. */
export class AuthenticationError extends PassServiceError {}
/** 403: the key lacks the permission the operation needs. */
export class PermissionDeniedError extends PassServiceError {}
/** 404: no such object. */
export class NotFoundError extends PassServiceError {}
/** 409: the object's state refuses the change. */
export class ConflictError extends PassServiceError {}
/** 409: the Idempotency-Key is still running, or was used with another request. */
export class IdempotencyError extends PassServiceError {}
/** 429 after the retries. */
export class RateLimitError extends PassServiceError {}
/** 500 or 503 after the retries. */
export class ApiServerError extends PassServiceError {}

type ErrorClass = new (status: number, body: ErrorBody, requestId?: string | null) => PassServiceError;

const BY_TYPE: Record<string, ErrorClass> = {
  invalid_request_error: InvalidRequestError,
  permission_error: PermissionDeniedError,
  not_found_error: NotFoundError,
  conflict_error: ConflictError,
  idempotency_error: IdempotencyError,
  rate_limit_error: RateLimitError,
  api_error: ApiServerError,
};
const BY_STATUS: Record<number, ErrorClass> = {
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** The typed error for an answer of `status` with the text `content`. */
export function errorFrom(status: number, content: string, requestId: string | null): PassServiceError {
  let body: ErrorBody = {};
  try {
    const parsed: unknown = JSON.parse(content);
    if (parsed && typeof parsed === "object") body = parsed as ErrorBody;
  } catch {
    // not JSON (a proxy's page): the status alone decides
  }
  const byType = status === 401 ? AuthenticationError : BY_TYPE[body.error?.type ?? ""];
  const cls = byType ?? BY_STATUS[status] ?? (status >= 500 ? ApiServerError : InvalidRequestError);
  return new cls(status, body, requestId);
}

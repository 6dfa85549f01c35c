/**
 * Domain errors, keyed by name and free of HTTP. One middleware (http/error-handler.ts) renders each as
 * the exact body GitLab sends (lib/api/helpers.rb: `not_found!`, `forbidden!`, `bad_request!`,
 * `render_validation_error!`, and Grape's `{"error": ...}` for parameter errors).
 */
export class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** `not_found!('Group')` → 404 {"message":"404 Group Not Found"}; no resource → "404 Not found" (RecordNotFound). */
export class NotFoundError extends DomainError {
  constructor(readonly resource?: string) {
    super(resource ? `404 ${resource} Not Found` : '404 Not found');
  }
}

/** 401 {"message":"401 Unauthorized"}. */
export class UnauthorizedError extends DomainError {
  constructor(readonly reason?: string) {
    super(reason ? `401 Unauthorized - ${reason}` : '401 Unauthorized');
  }
}

/** 403 {"message":"403 Forbidden"} or "403 Forbidden - reason". */
export class ForbiddenError extends DomainError {
  constructor(readonly reason?: string) {
    super(reason ? `403 Forbidden - ${reason}` : '403 Forbidden');
  }
}

/** Grape parameter validation: 400 {"error":"name is missing, x is invalid"}. */
export class ParamError extends DomainError {
  constructor(readonly messages: string[]) {
    super(messages.join(', '));
  }
}

/** `bad_request!(reason)`: 400 {"message":"400 Bad request - reason"}. */
export class BadRequestError extends DomainError {
  constructor(readonly reason?: string) {
    super(reason ? `400 Bad request - ${reason}` : '400 Bad request');
  }
}

/**
 * Errors GitLab renders with a structured message: `{"message":{"title":["is too long"]}}` (model
 * validation) or `{"message":{"error":"List could not be moved!"}}` (service errors). Status defaults to 400.
 */
export class ModelError extends DomainError {
  constructor(
    readonly body: Record<string, unknown>,
    readonly status = 400,
  ) {
    super(JSON.stringify(body));
  }

  static fields(fields: Record<string, string[]>, status = 400): ModelError {
    return new ModelError(fields, status);
  }

  static error(message: string, status = 400): ModelError {
    return new ModelError({ error: message }, status);
  }
}

/** 409 {"message":"..."}; GitLab members: "Member already exists". */
export class ConflictError extends DomainError {
  constructor(message = '409 Conflict') {
    super(message);
  }
}

/** Any error with an explicit status and a ready body (for the rare one-off GitLab shapes). */
export class HttpError extends DomainError {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

/**
 * `check_rate_limit!` (lib/api/helpers/rate_limiter.rb): 429
 * {"message":{"error":"This endpoint has been requested too many times. Try again later."}} with
 * `Retry-After` set to the limit's interval (`too_many_requests!`).
 */
export class TooManyRequestsError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'This endpoint has been requested too many times. Try again later.',
  ) {
    super(message);
  }
}

/** Infrastructure not ready (database or bus down): 503, so clients and load balancers retry elsewhere. */
export class UnavailableError extends DomainError {}

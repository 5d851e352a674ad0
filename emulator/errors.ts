/** The one error type route code throws; the server turns it into `{code, message, request_id}`. */
export class ApiFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiFault";
  }
}

/** Error codes the emulator uses (the API's `ErrorCode` is a free string). */
export const Codes = {
  badRequest: "INVALID_REQUEST",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  notFound: "NOT_FOUND",
  conflict: "CONFLICT",
  preconditionFailed: "PRECONDITION_FAILED",
  unprocessable: "UNPROCESSABLE_ENTITY",
  locked: "LOCKED",
  tooMany: "TOO_MANY_REQUESTS",
  internal: "INTERNAL_ERROR",
  unavailable: "SERVICE_UNAVAILABLE",
  unsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
} as const;

export const badRequest = (message: string) => new ApiFault(400, Codes.badRequest, message);
export const notFound = (message: string) => new ApiFault(404, Codes.notFound, message);
export const forbidden = (message: string) => new ApiFault(403, Codes.forbidden, message);
export const conflict = (message: string) => new ApiFault(409, Codes.conflict, message);

/**
 * The real service's answer to a project-scoped key used on another project: 404, an empty `code`, and
 * this exact message (`subject_project_id` is the project the request named).
 */
export const outOfScope = (projectId: string) =>
  new ApiFault(
    404,
    "",
    `not allowed to perform actions outside the project this key is scoped to; subject_project_id:"${projectId}"`,
  );

/** The real service's 423 while a project has an operation in progress (its message, verbatim). */
export const PROJECT_BUSY_MESSAGE =
  "project already has running conflicting operations, scheduling of new ones is prohibited";

/**
 * The real service's 423 for a compute with a pending transition. The service's wording is known for
 * suspend ("could not suspend"); the emulator uses the same sentence with the refused verb for the others.
 */
export const transitive = (verb: string) =>
  new ApiFault(423, Codes.locked, `endpoint is in some transitive state, could not ${verb}`);

/** The real service's 422 for work against a branch whose creation has not finished (verbatim). */
export const branchNotReady = () => new ApiFault(422, Codes.unprocessable, "branch not ready yet");
export const unprocessable = (message: string) => new ApiFault(422, Codes.unprocessable, message);

/** 412: what the request needs is switched off (`reveal_password` of a project that does not store passwords). */
export const preconditionFailed = (message: string) => new ApiFault(412, Codes.preconditionFailed, message);

import { ErrorCode, httpStatusOf, type ErrorCodeValue } from '@broker/contract';

/** A registry code and a message that says what to fix. */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = httpStatusOf[code];
  }

  static validation(field: string, rule: string) {
    return new ApiError(ErrorCode.VALIDATION, `${field}: ${rule}`);
  }
  static notFound(message: string) {
    return new ApiError(ErrorCode.NOT_FOUND, message);
  }
  static forbidden(message: string) {
    return new ApiError(ErrorCode.FORBIDDEN, message);
  }
  static conflict(message: string) {
    return new ApiError(ErrorCode.CONFLICT, message);
  }
}

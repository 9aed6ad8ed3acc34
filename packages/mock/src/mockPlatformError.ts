/** Every error code of the mock, declared once; {@link MockPlatformErrorCode} is derived from it. */
export const MockPlatformErrorCodes = {
  /** An option of `startMockPlatform` (or a flag of the command) cannot be used; the message says what to pass. */
  InvalidOption: 'invalid-option',
  /** `MockPlatform.mintSession` was refused, as generate-session would refuse it; `status` is the HTTP status. */
  Refused: 'refused',
} as const;

/** One of the {@link MockPlatformErrorCodes} values. */
export type MockPlatformErrorCode = (typeof MockPlatformErrorCodes)[keyof typeof MockPlatformErrorCodes];

/** The only error the mock throws: an unusable option, or a generate-session failure raised by `MockPlatform.mintSession`. */
export class MockPlatformError extends Error {
  /** What went wrong, as a stable machine-readable code. */
  readonly code: MockPlatformErrorCode;
  /** For `refused`: the HTTP status generate-session answers. */
  readonly status: number | undefined;

  constructor(code: MockPlatformErrorCode, message: string, status?: number) {
    super(code === MockPlatformErrorCodes.Refused ? `generate-session answered ${status}: ${message}` : message);
    this.name = 'MockPlatformError';
    this.code = code;
    this.status = status;
  }
}

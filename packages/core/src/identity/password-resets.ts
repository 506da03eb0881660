/**
 * A pending password reset: the digest of the token e-mailed to the user (the token itself is
 * never stored), until when it may be used. A user has at most one: a newer one replaces it.
 */
export interface PasswordReset {
  readonly userId: number;
  readonly tokenDigest: string;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

/** The pending password resets (one per user). */
export interface PasswordResets {
  /** Stores this reset as the user's only one, replacing any earlier one. */
  replace(reset: PasswordReset): Promise<void>;
  /**
   * Removes the reset of this digest and answers it (expired or not: the caller decides), or null
   * when none has it. Two calls with the same digest never both answer it: a token is used once.
   */
  take(tokenDigest: string): Promise<PasswordReset | null>;
  /** Removes every reset that expired before `now`; answers how many. */
  removeExpired(now: Date): Promise<number>;
}

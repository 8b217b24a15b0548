import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

// OWASP's baseline argon2id parameters (19 MiB, 2 passes, 1 lane): about 30-60 ms per hash here.
const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Password hashing and session tokens: the crypto side effects of auth. */
@Injectable()
export class CryptoRepository {
  private dummyHash: Promise<string> | undefined;

  hashPassword(password: string): Promise<string> {
    return argon2.hash(password, ARGON2_OPTIONS);
  }

  /**
   * Verifies against the stored hash. With no hash (unknown email) it still runs one argon2
   * verification, so response time does not reveal whether the account exists.
   */
  async verifyPassword(hash: string | null, password: string): Promise<boolean> {
    if (hash === null) {
      this.dummyHash ??= this.hashPassword(randomBytes(16).toString('hex'));
      await argon2.verify(await this.dummyHash, password);
      return false;
    }
    return argon2.verify(hash, password);
  }

  /** 256 random bits for the cookie; only its hash is stored. */
  createSessionToken(): string {
    return randomBytes(32).toString('base64url');
  }

  hashToken(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }
}

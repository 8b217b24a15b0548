import { describe, expect, it } from 'vitest';
import { CryptoRepository } from './crypto.repository';

describe('CryptoRepository', () => {
  const crypto = new CryptoRepository();

  it('should verify the password when it round-trips through an argon2id hash', async () => {
    const hash = await crypto.hashPassword('Correct-horse-1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(hash).not.toContain('Correct-horse-1');
    expect(await crypto.verifyPassword(hash, 'Correct-horse-1')).toBe(true);
    expect(await crypto.verifyPassword(hash, 'Correct-horse-2')).toBe(false);
  });

  it('should salt each hash when the same password is hashed twice', async () => {
    const [a, b] = await Promise.all([
      crypto.hashPassword('same-pass-1'),
      crypto.hashPassword('same-pass-1'),
    ]);
    expect(a).not.toBe(b);
  });

  it('should return false when there is no stored hash', async () => {
    expect(await crypto.verifyPassword(null, 'anything-1')).toBe(false);
  });

  it('should create distinct url-safe 256-bit tokens and hash them with sha256', () => {
    const token = crypto.createSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(crypto.createSessionToken()).not.toBe(token);
    expect(crypto.hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

// Authentication: who is calling? Static bearer tokens (the kubeconfig users of the lab) and
// client certificates (kubernetes-admin and every control-plane component, as kubeadm issues
// them: the certificate's CN is the user, its O the groups). Anything else is 401 Unauthorized.

import type { Credentials } from '../client/api-client';

export interface UserInfo {
  name: string;
  groups: string[];
}

export interface AuthnState {
  tokens: Record<string, UserInfo>;
  certs: Record<string, UserInfo>;
}

export type AuthnResult =
  { ok: true; user: UserInfo; method: string } | { ok: false; reason: string };

export class Authenticator {
  private tokens = new Map<string, UserInfo>();
  private certs = new Map<string, UserInfo>();

  addToken(token: string, user: UserInfo): void {
    this.tokens.set(token, withAuthenticated(user));
  }

  addCert(certId: string, user: UserInfo): void {
    this.certs.set(certId, withAuthenticated(user));
  }

  revokeToken(token: string): boolean {
    return this.tokens.delete(token);
  }

  revokeCert(certId: string): boolean {
    return this.certs.delete(certId);
  }

  /**
   * The answer for each known user, made once: components authenticate on every request and
   * every watch (~170,000 times in a 3,000-pod settle), and a fresh answer each time was garbage.
   */
  private readonly answers = {
    token: new WeakMap<UserInfo, AuthnResult>(),
    cert: new WeakMap<UserInfo, AuthnResult>(),
  };

  authenticate(credentials: Credentials): AuthnResult {
    switch (credentials.kind) {
      case 'token': {
        const user = this.tokens.get(credentials.token);
        return user
          ? this.answer('token', user, 'bearer token')
          : { ok: false, reason: 'invalid bearer token' };
      }
      case 'cert': {
        const user = this.certs.get(credentials.certId);
        return user
          ? this.answer('cert', user, 'x509 client certificate')
          : { ok: false, reason: 'x509: certificate signed by unknown authority' };
      }
      case 'anonymous':
        // kubeadm clusters allow anonymous auth, but RBAC gives system:anonymous almost nothing;
        // the simulated cluster keeps it simple: no credentials, no entry.
        return { ok: false, reason: 'no credentials provided' };
    }
  }

  private answer(kind: 'token' | 'cert', user: UserInfo, method: string): AuthnResult {
    let answer = this.answers[kind].get(user);
    if (!answer) this.answers[kind].set(user, (answer = Object.freeze({ ok: true, user, method })));
    return answer;
  }

  toJSON(): AuthnState {
    return { tokens: sortedRecord(this.tokens), certs: sortedRecord(this.certs) };
  }

  load(state: AuthnState): void {
    this.tokens = new Map(Object.entries(state.tokens));
    this.certs = new Map(Object.entries(state.certs));
  }
}

function withAuthenticated(user: UserInfo): UserInfo {
  const groups = user.groups.includes('system:authenticated')
    ? user.groups
    : [...user.groups, 'system:authenticated'];
  return { name: user.name, groups };
}

function sortedRecord(m: Map<string, UserInfo>): Record<string, UserInfo> {
  const out: Record<string, UserInfo> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k) as UserInfo;
  return out;
}

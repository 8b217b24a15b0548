import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safe-next-path.util';

describe('safeNextPath', () => {
  it.each([
    ['/learn', '/learn'],
    ['/learn?tab=map#etcd', '/learn?tab=map#etcd'],
    [['/learn/etcd', '/other'], '/learn/etcd'],
    [undefined, '/learn'],
    ['', '/learn'],
    ['learn', '/learn'],
    ['//evil.example', '/learn'],
    ['/\\evil.example', '/learn'],
    ['https://evil.example/learn', '/learn'],
    ['/learn\nSet-Cookie: x', '/learn'],
  ])('should turn %o into %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { executeJsonPath } from './jsonpath';

const list = {
  kind: 'List',
  items: [
    {
      metadata: { name: 'a', labels: { app: 'x' } },
      status: { conditions: [{ type: 'Ready', status: 'True' }], podIP: '10.244.1.2' },
    },
    {
      metadata: { name: 'b' },
      status: { conditions: [{ type: 'Ready', status: 'False' }], podIP: '10.244.2.2' },
    },
  ],
};

describe('executeJsonPath', () => {
  it.each([
    ['{.items[*].metadata.name}', 'a b'],
    ['{.items[0].status.podIP}', '10.244.1.2'],
    ['{.items[-1].metadata.name}', 'b'],
    ['{range .items[*]}{.metadata.name}{"\\n"}{end}', 'a\nb\n'],
    ['{.items[?(@.metadata.name=="b")].status.podIP}', '10.244.2.2'],
    ['{.items[*].status.conditions[?(@.type=="Ready")].status}', 'True False'],
    ['{.items[0].metadata.labels}', '{"app":"x"}'],
    ['{.kind} has {.items[1].metadata.name}', 'List has b'],
    ['{..podIP}', '10.244.1.2 10.244.2.2'],
    ['{.missing}', ''],
  ])('should evaluate %s', (tpl, want) => {
    expect(executeJsonPath(tpl, list)).toBe(want);
  });

  it('should throw a JsonPathError when the template is malformed', () => {
    expect(() => executeJsonPath('{.items[', list)).toThrow();
    expect(() => executeJsonPath('{range .items[*]}', list)).toThrow('unclosed range');
  });
});

import { describe, expect, it } from 'vitest';
import { formatFitError } from './fit-error';
import { unresolvable, unschedulable } from './plugin-types';
import { ERR_NO_VICTIMS, ERR_PREEMPTION_NOT_HELPFUL } from './preemption';

const TAINT = 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

describe('formatFitError', () => {
  it('should reproduce the FIDELITY.md example exactly when preemption cannot help', () => {
    const inner = formatFitError(3, {
      nodeToStatus: new Map([
        ['cp', unresolvable(ERR_PREEMPTION_NOT_HELPFUL)],
        ['n1', unresolvable(ERR_NO_VICTIMS)],
        ['n2', unresolvable(ERR_NO_VICTIMS)],
      ]),
    });
    const msg = formatFitError(3, {
      nodeToStatus: new Map([
        ['cp', unresolvable(TAINT)],
        ['n1', unschedulable('Insufficient cpu')],
        ['n2', unschedulable('Insufficient cpu')],
      ]),
      postFilterMsg: `preemption: ${inner}`,
    });
    expect(msg).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });

  const cases: {
    name: string;
    statuses: [string, ReturnType<typeof unschedulable>][];
    n: number;
    absent?: string;
    want: string;
  }[] = [
    {
      name: 'should count every reason of a node when it has several',
      n: 2,
      statuses: [
        ['a', unschedulable('Insufficient cpu', 'Insufficient memory')],
        ['b', unschedulable('Insufficient memory')],
      ],
      want: '0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.',
    },
    {
      name: 'should sort entries as strings when counts have different digits',
      n: 12,
      statuses: [
        ...Array.from(
          { length: 10 },
          (_, i) =>
            [`z${i}`, unschedulable('node(s) were unschedulable')] as [
              string,
              ReturnType<typeof unschedulable>,
            ],
        ),
        ['a', unschedulable('Too many pods')],
        ['b', unschedulable('Too many pods')],
      ],
      want: '0/12 nodes are available: 10 node(s) were unschedulable, 2 Too many pods.',
    },
    {
      name: 'should add the absent status for nodes a PreFilter narrowed away',
      n: 3,
      statuses: [['a', unschedulable('Insufficient cpu')]],
      absent: "node(s) didn't satisfy plugin(s) [NodeAffinity]",
      want: "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].",
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(
        formatFitError(c.n, {
          nodeToStatus: new Map(c.statuses),
          ...(c.absent ? { absentStatus: unresolvable(c.absent) } : {}),
        }),
      ).toBe(c.want);
    });
  }

  it('should print the PreFilter message instead of a histogram when PreFilter rejected', () => {
    expect(
      formatFitError(2, {
        nodeToStatus: new Map([
          ['a', unresolvable('pod affinity terms conflict')],
          ['b', unresolvable('pod affinity terms conflict')],
        ]),
        preFilterMsg: 'pod affinity terms conflict',
      }),
    ).toBe('0/2 nodes are available: pod affinity terms conflict.');
  });
});

import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, handoff, list, note, p, quiz, section, tip, tryIt } from '../chapter-builders.util';

export const KUBE_SCHEDULER_EN: TChapter = {
  slug: 'kube-scheduler',
  locale: 'en',
  lede: 'Three Pods wait in Pending because none of them has a node. The scheduler has exactly one job: give each such Pod a node name.',
  sections: [
    section(
      'job',
      'One question per Pod',
      p(
        'watch',
        'The kube-scheduler watches for Pods whose `spec.nodeName` is empty. For each one it asks a single question, “which node?”, and answers it in two phases.',
      ),
      handoff(
        'handoff',
        'A Pod without `spec.nodeName`, plus what it knows of every node: capacity, labels, taints and the Pods already placed.',
        'Which node should run the Pod: first the nodes that can, then the one that is best.',
        'One binding through the apiserver, which sets `spec.nodeName` on the Pod. Nothing else: no call to the node, no image, no container.',
      ),
    ),
    section(
      'phases',
      'Filter, then score',
      p(
        'filter',
        'Filtering is pass or fail. A node drops out as soon as one hard rule rejects it:',
      ),
      list(
        'filters',
        false,
        'Not enough room: the Pod requests 2 CPUs and the node has half a CPU unreserved.',
        'Wrong labels: the Pod’s `nodeSelector` or affinity asks for `disktype=ssd` and the node lacks it.',
        'A taint the Pod does not tolerate, like the `control-plane` taint in this lab.',
        'A `hostPort` that another Pod on the node already holds.',
      ),
      p(
        'score',
        'Scoring ranks the survivors. Plugins add points for spreading Pods of the same owner, for balanced resource use, for an image that is already on the node. The highest total wins; ties are broken at random.',
      ),
      tryIt(
        'placement',
        'See where the three Pods landed and which component said so.',
        'control-plane',
        [CMD.getPodsWide, CMD.describePods],
        'The NODE column spreads the Pods over `node-1` to `node-3`, never `control-plane`. Each Pod’s Events start with `Scheduled` from `default-scheduler`: `Successfully assigned default/... to node-2`.',
      ),
    ),
    section(
      'only-writes',
      'A matchmaker, not a mover',
      p(
        'binding',
        'Once it has chosen, the scheduler writes the node name through the apiserver and forgets the Pod. It does not contact the node and starts nothing. The kubelet on that node sees a Pod carrying its name and does the rest. Like every component here, the scheduler only changes the desired state and trusts another loop to act on it.',
      ),
      tryIt(
        'unschedulable',
        'Require a label that no node has, read the reason, then give one node that label.',
        'control-plane',
        [CMD.requireSsd, CMD.getPods, CMD.describePods, CMD.labelSsd, CMD.getPodsWide],
        "One new Pod stays `Pending`; its `FailedScheduling` event says `0/4 nodes are available` and lists the taint on `control-plane` and three nodes that `didn't match Pod's node affinity/selector`. After the label, the new Pods land on `node-2`.",
      ),
      cmd(
        'undo',
        'Remove the node selector; a new rollout spreads the Pods over the nodes again.',
        'control-plane',
        CMD.dropSsd,
        CMD.getPodsWide,
      ),
      tip(
        'debug-pending',
        'Debugging Pending',
        'A Pod stuck in `Pending` means the scheduler found no node that passes every filter. `kubectl describe pod` shows its reasoning in the Events, for example `3 Insufficient cpu` or an untolerated taint.',
      ),
      note(
        'down',
        'When the scheduler is down',
        'Running Pods are untouched. New Pods are created by the controllers and then wait in `Pending`, because nobody fills in their node name.',
      ),
    ),
  ],
  quiz: [
    quiz(
      'writes',
      'What does the scheduler write once it has picked `node-5` for a Pod?',
      [
        ['a', 'A request to node-5’s kubelet to start the container.'],
        ['b', 'The Pod’s `spec.nodeName`, through the apiserver.'],
        ['c', 'A new ReplicaSet pinned to node-5.'],
      ],
      'b',
      'It only binds the Pod to a node; the kubelet notices the binding on its own.',
    ),
    quiz(
      'filter-vs-score',
      'A node lacks the `disktype=ssd` label that the Pod requires. In which phase is it dropped?',
      [
        ['a', 'Filtering: a hard requirement is not met.'],
        ['b', 'Scoring: it just gets fewer points.'],
        ['c', 'Neither; the kubelet refuses the Pod later.'],
      ],
      'a',
      'Label, resource, taint and port checks are filters; scoring only ranks nodes that passed them.',
    ),
    quiz(
      'pending-where',
      'A Pod stays `Pending` for minutes. Where do you look first?',
      [
        ['a', '`kubectl describe pod`, at the FailedScheduling event.'],
        ['b', 'The container logs.'],
        ['c', 'The iptables rules on the node.'],
      ],
      'a',
      'No container exists yet; the scheduler’s event states which filters rejected each node.',
    ),
  ],
};

import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, handoff, list, note, p, quiz, section, table, tryIt } from '../chapter-builders.util';

export const CONTROLLER_MANAGER_EN: TChapter = {
  slug: 'controller-manager',
  locale: 'en',
  lede: 'etcd now holds a Deployment that asks for three Pods, and there are none. The controller-manager is where that gap gets noticed and closed.',
  sections: [
    section(
      'loop',
      'The reconcile loop',
      p(
        'many-controllers',
        '`kube-controller-manager` is one process that runs dozens of controllers. Each one repeats the same three steps forever: read the desired state, observe the actual state, and act on the difference. If there is no difference, it does nothing. This is the reconcile loop, and it is where self-healing comes from.',
      ),
      handoff(
        'handoff',
        'Watch events from the apiserver: a new Deployment `my-app`, and later every change to its ReplicaSets and Pods.',
        'How far the actual state is from the desired one: zero Pods exist, three are wanted.',
        'New objects, through the apiserver: a ReplicaSet for `my-app`, then three Pods with an empty `spec.nodeName`.',
      ),
      table(
        'moments',
        'The same loop at four moments of my-app’s life',
        ['Moment', 'Wanted', 'Found', 'Action'],
        ['just applied', '3 Pods', '0 Pods', 'create 3 Pods'],
        ['steady', '3 Pods', '3 Pods', 'nothing'],
        ['a node died', '3 Pods', '2 Pods', 'create 1 Pod'],
        ['you deleted one', '3 Pods', '2 Pods', 'create 1 Pod: it cannot tell you meant it'],
      ),
      tryIt(
        'delete',
        'Delete every Pod of `my-app`, then list Pods again.',
        'control-plane',
        [CMD.deletePods, CMD.getPods],
        'Three Pods with new names and an age of a few seconds. You changed what exists, not what is wanted, so the loop put it back.',
      ),
      p(
        'scale',
        'To have fewer Pods, change the wish: `kubectl scale` or a new `replicas` value in the YAML. Deleting the result only gives the loop work to do.',
      ),
    ),
    section(
      'two-layers',
      'Two layers: Deployment and ReplicaSet',
      p(
        'layers',
        'The Deployment controller does not create Pods. It creates a ReplicaSet, and the ReplicaSet controller creates the Pods. The extra layer is what makes rolling updates possible: change the image, and the Deployment controller starts a second ReplicaSet, grows it step by step and shrinks the old one. Because the old ReplicaSet is kept at zero replicas, `kubectl rollout undo` has something to go back to.',
      ),
      tryIt(
        'rollout',
        'Change the image, then look at the ReplicaSets and the rollout history.',
        'control-plane',
        [CMD.setImage, CMD.getRs, CMD.rolloutHistory],
        'Two ReplicaSets: the new one with 3 desired, the old one with 0. The history lists revisions 1 and 2.',
      ),
      cmd(
        'undo',
        'Roll back to nginx:1.27; the old ReplicaSet grows again.',
        'control-plane',
        CMD.rolloutUndo,
        CMD.getRs,
      ),
      list(
        'others',
        false,
        '`Node` controller: watches node heartbeats, marks silent nodes and evicts their Pods.',
        '`Job` controller: runs Pods until a task completes, then stops.',
        '`Endpoints` controller: keeps the list of ready Pod addresses behind each Service.',
      ),
    ),
    section(
      'pending',
      'Pods without a home',
      p(
        'no-node',
        'The three Pods the ReplicaSet controller wrote have no `spec.nodeName`. Nobody has decided where they run, so `kubectl get pods` shows them as `Pending`. In a healthy cluster that lasts a fraction of a second; the next station picks it up. Strictly, the Pod phase stays `Pending` until a container starts, but once a node is set kubectl shows `ContainerCreating` instead.',
      ),
      note(
        'down',
        'When the controller-manager is down',
        'Nothing that already runs is affected. But nothing is repaired either: delete a Pod and it stays deleted, scale up and no new Pods appear, until the controller-manager comes back and reconciles the backlog.',
      ),
    ),
  ],
  quiz: [
    quiz(
      'comes-back',
      'You delete a Pod of `my-app` and a new one appears. Why?',
      [
        ['a', 'kubectl recreates deleted Pods by default.'],
        ['b', 'The ReplicaSet still wants three Pods and the reconcile loop closes the gap.'],
        ['c', 'The kubelet restarts the container on the same node.'],
      ],
      'b',
      'Deleting changed the actual state, not the desired one; the controller acts on the difference.',
    ),
    quiz(
      'why-rs',
      'What does the ReplicaSet layer make possible?',
      [
        [
          'a',
          'Rolling updates and rollbacks, since old and new Pod templates can exist side by side.',
        ],
        ['b', 'Scheduling Pods on different nodes.'],
        ['c', 'Restarting containers that crash.'],
      ],
      'a',
      'Each template gets its own ReplicaSet, so the Deployment can shift replicas between them and back.',
    ),
    quiz(
      'pending-means',
      'What does `Pending` mean right after the ReplicaSet creates a Pod?',
      [
        ['a', 'The image is being pulled.'],
        ['b', 'The Pod has no node yet: `spec.nodeName` is empty.'],
        ['c', 'A readiness probe has not passed.'],
      ],
      'b',
      'Until the scheduler writes a node name, no kubelet will pick the Pod up.',
    ),
  ],
};
